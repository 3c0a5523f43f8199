"""Local files and folders: every supported format, and every way a file can be unusable."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ebooklib import epub

from lengthwise.builders.sources.errors import SourceFailure
from lengthwise.builders.sources.local import read_local
from lengthwise.records import SourceDocument


def _small_epub(path: Path) -> None:
    book = epub.EpubBook()
    book.set_identifier("local-epub")
    book.set_title("石桥集")
    book.set_language("zh")
    chapter = epub.EpubHtml(title="第一章", file_name="ch1.xhtml")
    chapter.content = "<h1>第一章</h1><p>石桥上的行人。</p>"
    book.add_item(chapter)
    book.toc = [epub.Link("ch1.xhtml", "第一章", "c1")]
    book.add_item(epub.EpubNcx())
    book.spine = [chapter]
    epub.write_epub(str(path), book)


def _library(root: Path, zh_simplified: str, png_bytes: bytes) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "红楼.txt").write_bytes(("《山中小镇》王小明（清）\n\n" + zh_simplified).encode("gbk"))
    (root / "sub" / "notes.md").write_text("# 笔记\n\n## 第一章\n\n内容。\n", encoding="utf-8")
    (root / "page.HTML").write_text(
        "<html><head><title>网页书</title></head><body><h2>第一章</h2><p>正文。</p></body></html>",
        encoding="utf-8",
    )
    _small_epub(root / "book.epub")
    (root / "scan.pdf").write_bytes(b"%PDF-1.7\n")
    (root / "cover.txt").write_bytes(png_bytes)
    (root / "empty.txt").write_bytes(b"")
    (root / ".hidden.txt").write_text("秘密", encoding="utf-8")
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    return root


def test_folder_is_read_recursively_in_sorted_order(
    tmp_path: Path, zh_simplified: str, png_bytes: bytes
) -> None:
    root = _library(tmp_path / "library", zh_simplified, png_bytes)
    results = list(read_local(root, None))

    names = [Path(result.source).name for result in results]
    assert names == [
        "book.epub",
        "cover.txt",
        "empty.txt",
        "page.HTML",
        "scan.pdf",
        "notes.md",  # sub/notes.md sorts after the top-level names
        "红楼.txt",
    ]
    assert not any(".hidden" in name or "HEAD" in name for name in names)


def test_each_bad_file_becomes_a_failure_with_a_reason(
    tmp_path: Path, zh_simplified: str, png_bytes: bytes
) -> None:
    root = _library(tmp_path / "library", zh_simplified, png_bytes)
    failures = {
        Path(item.source).name: item
        for item in read_local(root, None)
        if isinstance(item, SourceFailure)
    }
    assert set(failures) == {"scan.pdf", "cover.txt", "empty.txt"}
    assert failures["scan.pdf"].key == "unsupported-extension"
    assert "unsupported extension .pdf" in failures["scan.pdf"].reason
    assert failures["cover.txt"].key == "binary-file"
    assert "PNG" in failures["cover.txt"].reason
    assert failures["empty.txt"].key == "empty-file"
    assert failures["empty.txt"].reason == "empty file"


def test_documents_carry_ids_titles_hashes_and_encodings(
    tmp_path: Path, zh_simplified: str, png_bytes: bytes
) -> None:
    root = _library(tmp_path / "library", zh_simplified, png_bytes)
    docs = {
        Path(item.source).name: item
        for item in read_local(root, None)
        if isinstance(item, SourceDocument)
    }
    novel = docs["红楼.txt"]
    assert novel.id == "红楼"  # slug of the file stem
    assert novel.title == "山中小镇"  # from the 《》 first line
    assert novel.author == "王小明"
    assert novel.encoding == "gb18030"
    assert novel.raw_sha256 == hashlib.sha256((root / "红楼.txt").read_bytes()).hexdigest()
    assert zh_simplified in novel.text

    assert docs["notes.md"].title == "笔记"
    assert "\n第一章\n" in docs["notes.md"].text

    assert docs["page.HTML"].id == "page"
    assert docs["page.HTML"].title == "网页书"
    assert "第一章\n\n正文。" in docs["page.HTML"].text

    book = docs["book.epub"]
    assert (book.title, book.language) == ("石桥集", "zh")
    assert [entry.title for entry in book.toc] == ["第一章"]


def test_title_falls_back_to_file_stem(tmp_path: Path) -> None:
    path = tmp_path / "Old Man and the Sea.txt"
    path.write_text("He was an old man who fished alone.\n", encoding="utf-8")
    (document,) = read_local(path, None)
    assert isinstance(document, SourceDocument)
    assert document.title == "Old Man and the Sea"
    assert document.id == "old-man-and-the-sea"


def test_bracketed_title_after_a_notice_line(tmp_path: Path) -> None:
    path = tmp_path / "zh_book_1.txt"
    notice = "【本站提示：本书由网友上传，仅供试读。】"
    path.write_text(f"{notice}\n《北山传》李四\n\n第一回 风雨夜\n\n话说当年。\n", encoding="utf-8")
    (document,) = read_local(path, None)
    assert isinstance(document, SourceDocument)
    assert (document.title, document.author) == ("北山传", "李四")
    # A notice that is not wholly bracketed is text: no title is read past it.
    path.write_text("本站提示：仅供试读。\n《北山传》李四\n\n第一回 风雨夜\n", encoding="utf-8")
    (document,) = read_local(path, None)
    assert isinstance(document, SourceDocument)
    assert document.title != "北山传"


def test_language_argument_overrides_hints(tmp_path: Path) -> None:
    _small_epub(tmp_path / "book.epub")  # says zh
    (document,) = read_local(tmp_path / "book.epub", "en")
    assert isinstance(document, SourceDocument)
    assert document.language == "en"


def test_glob_restricts_a_folder(tmp_path: Path, zh_simplified: str, png_bytes: bytes) -> None:
    root = _library(tmp_path / "library", zh_simplified, png_bytes)
    names = [Path(item.source).name for item in read_local(root, None, glob="*.md")]
    assert names == ["notes.md"]


def test_missing_path_and_empty_folder(tmp_path: Path) -> None:
    (missing,) = read_local(tmp_path / "nope", None)
    assert isinstance(missing, SourceFailure)
    assert (missing.key, missing.reason) == ("missing-path", "no such file or folder")

    (tmp_path / "empty-folder").mkdir()
    (nothing,) = read_local(tmp_path / "empty-folder", None)
    assert isinstance(nothing, SourceFailure)
    assert nothing.key == "no-files"


def test_epub_content_is_recognised_whatever_the_extension(tmp_path: Path) -> None:
    _small_epub(tmp_path / "book.epub")
    (tmp_path / "book.epub").rename(tmp_path / "misnamed.txt")
    (document,) = read_local(tmp_path / "misnamed.txt", None)
    assert isinstance(document, SourceDocument)
    assert document.title == "石桥集"


def test_corrupt_epub_is_a_failure(tmp_path: Path) -> None:
    (tmp_path / "bad.epub").write_bytes(b"not a zip at all")
    (failure,) = read_local(tmp_path / "bad.epub", None)
    assert isinstance(failure, SourceFailure)
    assert failure.key == "bad-epub"
    assert "not a readable EPUB" in failure.reason
