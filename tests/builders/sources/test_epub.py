"""EPUB reading: metadata, spine order and the book's own table of contents."""

from __future__ import annotations

from pathlib import Path

import pytest
from ebooklib import epub

from lengthwise.builders.sources.epub import read_epub
from lengthwise.builders.sources.errors import SourceError

CHAPTERS = {
    "第一章 清晨": "清晨的雾气还没有散去，石桥上已经有了行人。",
    "第二章 说书": "茶馆门口聚着一群人，正围着一位说书先生。",
    "第三章 打水": "阿梅提起木桶，跑到井边打水。",
}


def write_epub(path: Path, *, with_nav: bool = True, broken_anchor: bool = False) -> Path:
    """A two-file EPUB: chapter 1 in one file, chapters 2 and 3 in another (split by anchors)."""
    titles = list(CHAPTERS)
    book = epub.EpubBook()
    book.set_identifier("lengthwise-test-book")
    book.set_title("山中小镇")
    book.set_language("zh-CN")
    book.add_author("王小明")
    cover = epub.EpubHtml(title="扉页", file_name="text/title.xhtml", lang="zh")
    cover.content = "<h1>山中小镇</h1><p>王小明 著</p>"
    first = epub.EpubHtml(title=titles[0], file_name="text/ch1.xhtml", lang="zh")
    first.content = f"<h1>{titles[0]}</h1><p>{CHAPTERS[titles[0]]}</p>"
    second = epub.EpubHtml(title=titles[1], file_name="text/ch2.xhtml", lang="zh")
    second.content = (
        f'<h2 id="s2">{titles[1]}</h2><p>{CHAPTERS[titles[1]]}</p>'
        f'<h2 id="s3">{titles[2]}</h2><p>{CHAPTERS[titles[2]]}</p>'
    )
    for item in (cover, first, second):
        book.add_item(item)
    third_anchor = "missing" if broken_anchor else "s3"
    book.toc = [
        epub.Link("text/ch1.xhtml", titles[0], "c1"),
        (
            epub.Section("下卷"),
            [
                epub.Link("text/ch2.xhtml#s2", titles[1], "c2"),
                epub.Link(f"text/ch2.xhtml#{third_anchor}", titles[2], "c3"),
            ],
        ),
    ]
    book.add_item(epub.EpubNcx())
    if with_nav:
        book.add_item(epub.EpubNav())
        book.spine = ["nav", cover, first, second]
    else:
        book.spine = [cover, first, second]
    epub.write_epub(str(path), book)
    return path


@pytest.mark.parametrize("with_nav", [True, False], ids=["epub3-nav", "epub2-ncx"])
def test_toc_entries_get_their_own_chapter_text(tmp_path: Path, with_nav: bool) -> None:
    path = write_epub(tmp_path / "book.epub", with_nav=with_nav)
    book = read_epub(path.read_bytes(), str(path))

    assert [entry.title for entry in book.toc] == list(CHAPTERS)
    for entry in book.toc:
        assert entry.text.split("\n")[0] == entry.title  # starts at its heading
        assert CHAPTERS[entry.title] in entry.text
        others = [body for title, body in CHAPTERS.items() if title != entry.title]
        assert not any(body in entry.text for body in others)
    assert book.warnings == []


def test_epub_metadata(tmp_path: Path) -> None:
    book = read_epub(write_epub(tmp_path / "book.epub").read_bytes(), "book.epub")
    assert book.title == "山中小镇"
    assert book.author == "王小明"
    assert book.language == "zh"


def test_epub_text_follows_the_spine_and_leaves_out_the_nav_page(tmp_path: Path) -> None:
    book = read_epub(write_epub(tmp_path / "book.epub").read_bytes(), "book.epub")
    positions = [book.text.index(body) for body in CHAPTERS.values()]
    assert positions == sorted(positions)
    assert book.text.startswith("山中小镇")  # front matter before the first TOC entry is kept
    for title in CHAPTERS:
        assert book.text.count(title) == 1  # the nav document's list would repeat each title


def test_missing_anchor_falls_back_to_file_start_with_warning(tmp_path: Path) -> None:
    path = write_epub(tmp_path / "book.epub", broken_anchor=True)
    book = read_epub(path.read_bytes(), "book.epub")
    assert any("#missing" in warning and "book.epub" in warning for warning in book.warnings)
    # The broken entry now starts where its file starts, as does the chapter before it: the
    # earlier entry keeps the whole file and no chapter text is lost.
    first, second, third = CHAPTERS
    assert [entry.title for entry in book.toc] == [first, second]
    assert CHAPTERS[third] in book.toc[1].text
    assert all(body in book.text for body in CHAPTERS.values())


def test_unreadable_epub_is_a_clear_error() -> None:
    with pytest.raises(SourceError, match=r"broken\.epub: not a readable EPUB") as caught:
        read_epub(b"PK\x03\x04 this is not really a zip", "broken.epub")
    assert caught.value.key == "bad-epub"
