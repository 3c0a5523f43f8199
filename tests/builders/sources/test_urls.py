"""URL sources: format and charset from the HTTP answer, failures as records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lengthwise.builders.sources.crawl import Crawler
from lengthwise.builders.sources.errors import SourceFailure
from lengthwise.builders.sources.urls import parse_content_type, read_urls
from lengthwise.records import SourceDocument
from lengthwise.spec import CrawlConfig


def make_crawler(tmp_path: Path) -> Crawler:
    config = CrawlConfig(requests_per_second_per_host=50.0, backoff_seconds=0.0, max_retries=0)
    return Crawler(config, tmp_path / "cache")


def test_html_page_uses_charset_from_content_type(
    tmp_path: Path, site: Any, zh_simplified: str
) -> None:
    page = f"<html><head><title>山中小镇</title></head><body><h2>第一章</h2><p>{zh_simplified}</p>"
    url = site.add(
        "/novel/index.html",
        site.Reply(body=page.encode("gbk"), headers={"Content-Type": "text/html; charset=GBK"}),
    )
    (document,) = read_urls([url], make_crawler(tmp_path), "zh")
    assert isinstance(document, SourceDocument)
    assert document.encoding == "gb18030"
    assert document.title == "山中小镇"
    assert document.id == "山中小镇"  # the page title names the book better than "index"
    assert document.source == url
    assert document.language == "zh"
    assert "第一章\n" in document.text
    assert zh_simplified.split("\n")[2] in document.text


def test_plain_text_without_charset_is_detected(
    tmp_path: Path, site: Any, zh_traditional: str
) -> None:
    url = site.add(
        "/books/town.txt",
        site.Reply(body=zh_traditional.encode("big5"), headers={"Content-Type": "text/plain"}),
    )
    (document,) = read_urls([url], make_crawler(tmp_path))
    assert isinstance(document, SourceDocument)
    assert document.text == zh_traditional
    assert document.id == "town"
    assert document.language is None


def test_plain_text_with_charset_is_decoded_with_it(
    tmp_path: Path, site: Any, zh_simplified: str
) -> None:
    url = site.add(
        "/a.txt",
        site.Reply(
            body=zh_simplified.encode("gb18030"),
            headers={"Content-Type": 'text/plain; charset="gb18030"'},
        ),
    )
    (document,) = read_urls([url], make_crawler(tmp_path))
    assert isinstance(document, SourceDocument)
    assert (document.text, document.encoding) == (zh_simplified, "gb18030")


def test_failures_are_yielded_in_order_and_reading_goes_on(tmp_path: Path, site: Any) -> None:
    image = site.add(
        "/cover.png", site.Reply(body=b"\x89PNG\r\n", headers={"Content-Type": "image/png"})
    )
    empty = site.add("/empty.txt", site.Reply(body=b"", headers={"Content-Type": "text/plain"}))
    good = site.add("/ok.txt", site.Reply(body=b"Call me Ishmael.\n"))
    missing = site.url + "/missing.txt"

    results = list(read_urls([missing, image, empty, good], make_crawler(tmp_path)))

    assert [type(result).__name__ for result in results] == [
        "SourceFailure",
        "SourceFailure",
        "SourceFailure",
        "SourceDocument",
    ]
    keys = [result.key for result in results if isinstance(result, SourceFailure)]
    assert keys == ["not-found", "unsupported-content-type", "empty-file"]
    not_found = results[0]
    assert isinstance(not_found, SourceFailure)
    assert not_found.source == missing
    assert "HTTP 404" in not_found.reason


def test_parse_content_type() -> None:
    assert parse_content_type('text/HTML; Charset="GBK"') == ("text/html", "GBK")
    assert parse_content_type("text/plain") == ("text/plain", None)
    assert parse_content_type("") == ("", None)
