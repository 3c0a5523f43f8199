"""Titles from the text before the file name, never a heading or a mark (issue 36)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.sources.local import read_local
from lengthwise.records import SourceDocument

BODY_ZH = "　　世上何人會此言，休將名利掛心田。等閒倒盡十分酒，遇興高歌一百篇。\n" * 40
BODY_EN = "The rain had not stopped for three days and the river was rising.\n\n" * 40


def _read(path: Path, data: bytes) -> SourceDocument:
    path.write_bytes(data)
    [doc] = [d for d in read_local(path) if isinstance(d, SourceDocument)]
    return doc


@pytest.mark.parametrize("first_line", ["第一卷", "自序", "楔子", "卷之一"])
def test_a_first_sections_heading_is_no_title(tmp_path: Path, first_line: str) -> None:
    """今古奇觀 was titled `第一卷` and 子不語 `自序`: their first lines head a section."""
    text = f"{first_line}\n一文錢小隙造奇冤\n{BODY_ZH}"
    doc = _read(tmp_path / "jingu_qiguan.txt", text.encode("utf-8"))
    assert (doc.title, doc.title_source) == ("jingu_qiguan", "filename")


def test_a_kana_title_line_and_an_aozora_header(tmp_path: Path) -> None:
    doc = _read(tmp_path / "x.txt", f"坊っちゃん\n\n{BODY_ZH}".encode())
    assert (doc.title, doc.title_source) == ("坊っちゃん", "text")
    aozora = (
        "夜明け前\r\n第二部上\r\n島崎藤村\r\n\r\n"
        + "-" * 55
        + "\r\n【テキスト中に現れる記号について】"
        "\r\n\r\n《》：ルビ\r\n" + "-" * 55 + "\r\n\r\n" + BODY_ZH
    )
    doc = _read(tmp_path / "1506_ruby_1919.txt", aozora.encode("cp932"))
    assert (doc.title, doc.author, doc.encoding) == ("夜明け前 第二部上", "島崎藤村", "cp932")


def test_a_title_without_letters_is_no_title(tmp_path: Path) -> None:
    page = f"<html><head><title>--</title></head><body><p>{BODY_EN}</p></body></html>"
    doc = _read(tmp_path / "the_miller.html", page.encode("utf-8"))
    assert (doc.title, doc.title_source) == ("the_miller", "filename")
    header = f"Title: --\nAuthor: Anne Example\n\nTHE MILLER OF HOLLOW BRIDGE\n\n{BODY_EN}"
    doc = _read(tmp_path / "pg1.txt", header.encode("utf-8"))
    assert doc.title == "The Miller of Hollow Bridge"
