"""Planted noise in real book text: each class is found once; the untouched text gives none."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lengthwise.builders.audit import FINDING_CLASSES, audit_sample
from lengthwise.records import Sample
from lengthwise.spec import AuditConfig, AuditLanguageConfig

# One instance of every class, as a line (or lines) to insert between paragraphs, and
# the text its snippet must show.
PLANTS = {
    "en": {
        "url": ("Read it at http://example.org/pp/12 tonight.", "http://example.org/pp/12"),
        "site": ("Download the whole novel for nothing.", "Download"),
        "copyright": ("Copyright 1998 by the typist.", "Copyright"),
        "page_marker": ("[Page 212]", "[Page 212]"),
        "repeated_line": ("PRIDE AND PREJUDICE\n\n" * 3, "PRIDE AND PREJUDICE"),
        "toc_run": ("CHAPTER I.\nCHAPTER II.\nCHAPTER III.", "CHAPTER I."),
        "damage": ("Elizabeth \ufffdlaughed.", "⟦U+FFFD⟧"),
    },
    "zh": {
        "url": ("行者笑道：http://www.example.org/xyj/12", "http://www.example.org/xyj/12"),
        "site": ("本回最新章节在此。", "最新章节"),
        "copyright": ("免责声明：与本书无关。", "免责声明"),
        "page_marker": ("第12页", "第12页"),
        "repeated_line": ("丫丫书坊\n\n" * 3, "丫丫书坊"),
        "toc_run": ("第一回 灵根孕育\n第二回 悟彻菩提\n第三回 四海千山", "第一回"),
        "damage": ("行者\ue000笑道：“好！”", "⟦U+E000⟧"),
        "ascii_symbol": ("行者只点了一折《西游记>>中的一段。", "西游记⟦>>⟧中"),
        "watermark": ("行者ｗωｗ奇Qisuu書com网笑道：“好！”", "www奇qisuu书com"),
    },
}
BOOKS = {
    "en": ("en_pg_stripped/pride_and_prejudice.txt", 200_000),
    "zh": ("zh_simplified_four_classics/xiyouji_utf8.txt", 300_000),
}
LONG_HEADING = {"en": "CHAPTER IX. " + "And Then " * 12, "zh": "第九回 " + "陈光蕊赴任逢灾" * 6}


def book_text(shared: Path, tmp_path: Path, language: str) -> str:
    """20,000 characters from the middle of a real book (a private copy of the file), its
    paragraphs on a line each, as a sample's text is (the English file is hard-wrapped,
    and line breaks inside sentences are a class of their own: `line_break`)."""
    name, start = BOOKS[language]
    copy = tmp_path / Path(name).name
    shutil.copyfile(shared / name, copy)
    text = copy.read_text(encoding="utf-8").replace("\r\n", "\n")[start : start + 20_000]
    return "\n\n".join(" ".join(p.split("\n")) for p in text.split("\n\n"))


def row(text: str, language: str, titles: list[str]) -> Sample:
    return Sample("b:0000-0001", "S", "b", "", language, 0, 1, titles, [], text, 0, "chars",
                  {}, 0, 0, 0, None, "")  # fmt: skip


def plant(text: str, lines: list[str]) -> str:
    """Insert each planted block at a paragraph break, spread through the text."""
    paragraphs = text.split("\n\n")
    step = len(paragraphs) // (len(lines) + 1)
    for i, block in reversed(list(enumerate(lines, start=1))):
        paragraphs.insert(i * step, block.strip("\n"))
    return "\n\n".join(paragraphs)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_untouched_book_text_has_no_findings(
    shared_corpora: Path, tmp_path: Path, language: str
) -> None:
    audit = audit_sample(row(book_text(shared_corpora, tmp_path, language), language, []),
                         AuditConfig())  # fmt: skip
    assert audit.total == 0, audit.snippets


@pytest.mark.parametrize("language", ["en", "zh"])
def test_each_planted_class_is_found_once(
    shared_corpora: Path, tmp_path: Path, language: str
) -> None:
    plants = PLANTS[language]
    text = plant(book_text(shared_corpora, tmp_path, language), [p for p, _ in plants.values()])
    audit = audit_sample(row(text, language, [LONG_HEADING[language]]), AuditConfig())
    # ASCII symbols between CJK characters are a Chinese-text class only.
    expected = {kind: int(kind in plants or kind == "long_heading") for kind in FINDING_CLASSES}
    assert audit.counts == expected, audit.snippets
    for kind, (_, shown) in plants.items():
        assert shown in audit.snippets[kind][0], (kind, audit.snippets[kind])
    assert LONG_HEADING[language].strip()[:40] in audit.snippets["long_heading"][0]


def test_weak_terms_need_a_strong_term_nearby() -> None:
    """Mr. Collins's special licence is prose; a licence beside Project Gutenberg is not."""
    prose = "You must and shall be married by a special licence. All rights to her hand."
    legal = "Use this eBook under the terms of the Project Gutenberg License, with all rights."
    config = AuditConfig()
    assert audit_sample(row(prose, "en", []), config).total == 0
    counts = audit_sample(row(legal, "en", []), config).counts
    assert counts["copyright"] == 4  # terms, Project Gutenberg, License, rights
    assert counts["site"] == 1  # eBook


def test_narrative_repeats_and_headings_are_not_findings() -> None:
    text = "\n\n".join(["CHAPTER I", "“Yes.”", "诗曰：", "* * *"] * 4)
    audit = audit_sample(row(text, "en", ["CHAPTER I"]), AuditConfig())
    assert audit.total == 0, audit.snippets


def test_a_heading_over_two_lines_is_no_page_marker() -> None:
    """Editions that print the chapter number on a line of its own (`122` over
    `Midnight Aloft.`): the number is part of the heading, not a page marker."""
    titles = [f"{n}\nChapter title {n}." for n in (121, 122, 123)]
    text = "\n\n".join(f"{title}\nThe sea was calm that night." for title in titles)
    assert audit_sample(row(text, "en", titles), AuditConfig()).total == 0
    # The same numbers between paragraphs, not in a heading, are page markers.
    assert audit_sample(row(text, "en", []), AuditConfig()).counts["page_marker"] == 3


def test_site_words_in_traditional_script_are_found() -> None:
    """The tables are simplified; a traditional-script sample is matched folded, and the
    snippet shows its own characters."""
    story = "卻說行者聽了這話，便對八戒說：「你們且在這裡等我回來。」"
    text = story * 3 + "\n\n請記住本書首發域名，最新章節免費閱讀。\n\n" + story * 3
    audit = audit_sample(row(text, "zh", []), AuditConfig())
    assert audit.counts["site"] >= 1, audit.snippets
    assert "章節" in audit.snippets["site"][0]


def test_classical_phrases_that_look_like_site_words_are_not_findings() -> None:
    """封神演義 (traditional, matched folded): 檢點此寶 holds 点此 ("click here")."""
    text = "懼留孫曰：「自從我來破十絕陣回去，自未曾檢點此寶；豈知是這畜生盜在這裏作怪！」"
    assert audit_sample(row(text * 3, "zh", []), AuditConfig()).total == 0
    assert audit_sample(row("点此下载全本", "zh", []), AuditConfig()).counts["site"] >= 1


def test_serial_chatter_left_in_a_sentence_is_found() -> None:
    """Cleaning keeps a plea after a sentence end (the line is story too): the audit shows it."""
    story = "却说玄德闻言，便与关张二人商议。"
    for chatter, term in [("他说完便走了。求推荐！", "求推荐"), ("（未完待续）", "未完待续")]:
        audit = audit_sample(row(story * 3 + chatter + story * 3, "zh", []), AuditConfig())
        assert audit.counts["site"] == 1 and term in audit.snippets["site"][0]
    assert audit_sample(row(story + "打赏他几两银子。" + story, "zh", []), AuditConfig()).total == 0


def test_spec_terms_extend_the_tables() -> None:
    config = AuditConfig(languages={"zh": AuditLanguageConfig(site_terms=["书香阁"])})
    text = "行者笑道：书香阁好。"
    assert audit_sample(row(text, "zh", []), AuditConfig()).total == 0
    assert audit_sample(row(text, "zh", []), config).counts["site"] == 1


def test_a_mojibake_passage_is_one_damage_finding(shared_corpora: Path, tmp_path: Path) -> None:
    # A real passage of the shared 三国演义 garbled by a UTF-8/GBK round trip, planted into
    # clean 西游记 text: one finding for the run, shown as the garbled characters.
    sanguo = (shared_corpora / "zh_simplified_four_classics" / "sanguo_utf8.txt").read_text(
        encoding="utf-8"
    )
    start = sanguo.index("特差都尉张辏")
    garbled = sanguo[start + 6 : start + 60]
    text = plant(book_text(shared_corpora, tmp_path, "zh"), [f"    陶谦亲送出郭。{garbled}"])
    audit = audit_sample(row(text, "zh", []), AuditConfig())
    assert audit.counts["damage"] == 1, audit.snippets
    assert audit.total == 1
    (shown,) = audit.snippets["damage"]
    assert "灏倩に汀２茚" in shown  # the garbled characters themselves


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("行者笑道。Ｍ．ＹＥＤＵ．ＣＣ我们走罢。", "Ｍ．ＹＥＤＵ．ＣＣ"),  # full-width capitals
        ("行者笑道。m.yedu.CC我们走罢。", "m.yedu.CC"),
        ("Read on at BOOKS.EXAMPLE.NET tonight.", "BOOKS.EXAMPLE.NET"),
    ],
)
def test_a_domain_in_capitals_is_an_address(text: str, address: str) -> None:
    """Sites print their domain in capitals to slip past filters (a held-out probe found
    `Ｍ．ｙｅｄｕ．ＣＣ` glued into sentences, unseen by the audit)."""
    language = "zh" if "行者" in text else "en"
    audit = audit_sample(row(text, language, []), AuditConfig())
    assert audit.counts["url"] == 1
    assert f"⟦{address}⟧" in audit.snippets["url"][0]


@pytest.mark.parametrize("text", ["“Yes,” said he.Top of the hill was bare.", "It went to.Com"])
def test_a_capitalised_word_after_a_missing_space_is_prose(text: str) -> None:
    assert audit_sample(row(text, "en", []), AuditConfig()).counts["url"] == 0
