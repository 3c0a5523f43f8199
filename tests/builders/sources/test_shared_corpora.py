"""The real corpora in ../shared/corpora (skipped where that folder is absent)."""

from __future__ import annotations

from pathlib import Path

from lengthwise.builders.sources.decoding import decode_bytes
from lengthwise.builders.sources.local import read_local
from lengthwise.records import SourceDocument

CLASSICS = {
    "hongloumeng_utf8.txt": ("红楼梦", "曹雪芹"),
    "sanguo_utf8.txt": ("三国演义", "罗贯中"),
    "shuihu_utf8.txt": ("水浒传", "施耐庵"),
    "xiyouji_utf8.txt": ("西游记", "吴承恩"),
}


def test_four_classics_decode_cleanly(shared_corpora: Path) -> None:
    folder = shared_corpora / "zh_simplified_four_classics"
    for name in CLASSICS:
        data = (folder / name).read_bytes()
        decoded = decode_bytes(data, name)
        assert decoded.encoding == "utf-8"
        assert decoded.undecodable_bytes == 0
        assert decoded.warnings == []
        assert "\r" not in decoded.text  # the files are CRLF
        assert "第一回" in decoded.text


def test_four_classics_titles_and_authors_from_their_first_line(shared_corpora: Path) -> None:
    documents = [
        item
        for item in read_local(shared_corpora / "zh_simplified_four_classics", "zh")
        if isinstance(item, SourceDocument)
    ]
    found = {Path(doc.source).name: (doc.title, doc.author) for doc in documents}
    assert found == CLASSICS


def test_english_gutenberg_texts_decode(shared_corpora: Path) -> None:
    for path in sorted((shared_corpora / "en_pg_stripped").glob("*.txt")):
        decoded = decode_bytes(path.read_bytes(), path.name)
        assert decoded.undecodable_bytes == 0, path.name
        assert decoded.text.count("\n") > 1000, path.name
