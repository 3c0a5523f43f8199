"""Project Gutenberg reader against a fake mirror served from tmp_path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lengthwise.builders.sources.crawl import Crawler
from lengthwise.builders.sources.errors import SourceFailure
from lengthwise.builders.sources.gutenberg import LICENSE_NOTE, read_gutenberg
from lengthwise.records import SourceDocument
from lengthwise.spec import CrawlConfig

PG_BOOK = """\ufeffThe Project Gutenberg eBook of The Lighthouse Keeper

This ebook is for the use of anyone anywhere in the United States.

Title: The Lighthouse Keeper
       A Tale of the Northern Coast

Author: Margaret Ellis

Release date: March 3, 2001 [eBook #11]

Language: English

*** START OF THE PROJECT GUTENBERG EBOOK THE LIGHTHOUSE KEEPER ***

CHAPTER I.

The lamp was lit at dusk, as it had been for forty years.

*** END OF THE PROJECT GUTENBERG EBOOK THE LIGHTHOUSE KEEPER ***
"""

OLD_LAYOUT_BOOK = """Title: 灯塔

Author: 佚名

Language: Chinese

*** START OF THIS PROJECT GUTENBERG EBOOK 灯塔 ***

第一章

灯塔在黄昏时亮起。
"""


def _mirror(root: Path) -> Path:
    current = root / "cache" / "epub" / "11"
    current.mkdir(parents=True)
    (current / "pg11.txt").write_text(PG_BOOK.replace("\n", "\r\n"), encoding="utf-8")
    old = root / "files" / "12"
    old.mkdir(parents=True)
    (old / "12-0.txt").write_text(OLD_LAYOUT_BOOK, encoding="utf-8")
    return root


def _crawler(tmp_path: Path) -> Crawler:
    config = CrawlConfig(requests_per_second_per_host=50.0, backoff_seconds=0.0, max_retries=1)
    return Crawler(config, tmp_path / "http-cache")


def test_reads_books_from_both_layouts_and_reports_missing_ids(tmp_path: Path, site: Any) -> None:
    site.root = _mirror(tmp_path / "mirror")
    results = list(read_gutenberg([11, 12, 13], site.url + "/", _crawler(tmp_path), None))

    first, second, missing = results
    assert isinstance(first, SourceDocument)
    assert first.id == "pg11-the-lighthouse-keeper-a-tale-of-the-northern-coast"
    assert first.title == "The Lighthouse Keeper A Tale of the Northern Coast"
    assert first.author == "Margaret Ellis"
    assert first.language == "en"
    assert first.source == "gutenberg:11"
    assert first.license_note == LICENSE_NOTE
    # the whole file is kept, header and footer included; only line ends change
    assert first.text == PG_BOOK.removeprefix("\ufeff")

    assert isinstance(second, SourceDocument)
    assert (second.id, second.title, second.language) == ("pg12-灯塔", "灯塔", "zh")
    assert site.count("/cache/epub/12/pg12.txt") == 1  # tried first, then the old layout

    assert isinstance(missing, SourceFailure)
    assert missing.source == "gutenberg:13"
    assert missing.key == "not-found"
    assert "/cache/epub/13/pg13.txt" in missing.reason
    assert "/files/13/13-0.txt" in missing.reason


def test_language_from_the_spec_wins(tmp_path: Path, site: Any) -> None:
    site.root = _mirror(tmp_path / "mirror")
    (document,) = read_gutenberg([11], site.url, _crawler(tmp_path), "zh")
    assert isinstance(document, SourceDocument)
    assert document.language == "zh"


def test_second_run_makes_no_request(tmp_path: Path, site: Any) -> None:
    site.root = _mirror(tmp_path / "mirror")
    first_run = list(read_gutenberg([11, 12, 13], site.url, _crawler(tmp_path), None))
    requests_after_first_run = site.count()

    again = _crawler(tmp_path)
    second_run = list(read_gutenberg([11, 12, 13], site.url, again, None))

    assert site.count() == requests_after_first_run
    assert again.requests_made == 0
    assert [type(item) for item in second_run] == [type(item) for item in first_run]
    assert second_run[0] == first_run[0]
