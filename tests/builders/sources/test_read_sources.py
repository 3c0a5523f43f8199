"""read_sources: every source kind of a spec, with the stage report filled in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lengthwise.builders.sources import read_sources
from lengthwise.reports import StageReport
from lengthwise.spec import Spec, parse_spec


def _spec(folder: Path, sources: list[dict[str, Any]], **extra: Any) -> Spec:
    crawl = {"requests_per_second_per_host": 50.0, "backoff_seconds": 0.0, "max_retries": 0}
    data = {"name": "test-bench", "sources": sources, "crawl": crawl, **extra}
    return parse_spec(data, folder / "spec.toml")


def test_files_and_urls_with_report(
    tmp_path: Path, site: Any, zh_simplified: str, png_bytes: bytes
) -> None:
    books = tmp_path / "books"
    (books / "more").mkdir(parents=True)
    (books / "town.txt").write_bytes(zh_simplified.encode("gbk"))
    (books / "more" / "town.txt").write_text(zh_simplified, encoding="utf-8")  # same stem
    (books / "cover.txt").write_bytes(png_bytes)
    (books / "damaged.txt").write_bytes(zh_simplified.encode() + b"\xff")
    (books / "scan.pdf").write_bytes(b"%PDF-1.7")
    (books / "empty.txt").write_bytes(b"")
    site.add("/robots.txt", site.Reply(body=b"User-agent: *\nDisallow: /private/\n"))
    page = site.add("/story.html", site.Reply(body="<h1>故事</h1><p>正文。</p>".encode()))
    spec = _spec(
        tmp_path,
        [
            {"kind": "files", "path": "books", "language": "zh"},  # relative to the spec file
            {"kind": "urls", "urls": [page, site.url + "/private/x.txt", site.url + "/404.txt"]},
        ],
    )
    report = StageReport(stage="sources")

    documents = list(read_sources(spec, tmp_path / "cache", report))

    assert [doc.id for doc in documents] == [
        "damaged",
        "town",
        "town-2",
        "故事",
    ]  # more/town.txt sorts first
    assert [doc.language for doc in documents] == ["zh", "zh", "zh", None]
    assert report.kept == 4
    assert dict(report.dropped) == {
        "binary-file": 1,
        "empty-file": 1,
        "unsupported-extension": 1,
        "robots-disallowed": 1,
        "not-found": 1,
    }
    (example,) = report.examples["binary-file"]
    assert example.startswith(str(books / "cover.txt") + ": binary file")
    assert any("damaged.txt" in w and "1 undecodable byte" in w for w in report.warnings)
    assert any("'town' already taken" in w for w in report.warnings)


def test_spec_language_applies_when_sources_say_auto(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Some English text.", encoding="utf-8")
    spec = _spec(tmp_path, [{"kind": "files", "path": "a.txt"}], language="en")
    (document,) = read_sources(spec, tmp_path / "cache", StageReport(stage="sources"))
    assert document.language == "en"


def test_hf_source_is_dispatched(tmp_path: Path) -> None:
    (tmp_path / "rows.jsonl").write_text('{"text": "甲"}\n{"text": ""}\n', encoding="utf-8")
    spec = _spec(tmp_path, [{"kind": "hf", "dataset": "rows.jsonl", "language": "zh"}])
    report = StageReport(stage="sources")
    (document,) = read_sources(spec, tmp_path / "cache", report)
    assert (document.text, document.language) == ("甲", "zh")
    assert dict(report.dropped) == {"empty-text": 1}


def test_gutenberg_source_is_dispatched(tmp_path: Path, site: Any) -> None:
    mirror = tmp_path / "mirror" / "cache" / "epub" / "5"
    mirror.mkdir(parents=True)
    (mirror / "pg5.txt").write_text("Title: Five\n\nLanguage: English\n\nText.\n", encoding="utf-8")
    site.root = tmp_path / "mirror"
    spec = _spec(tmp_path, [{"kind": "gutenberg", "ids": [5], "mirror": site.url}])
    (document,) = read_sources(spec, tmp_path / "cache", StageReport(stage="sources"))
    assert (document.id, document.source, document.language) == ("pg5-five", "gutenberg:5", "en")
