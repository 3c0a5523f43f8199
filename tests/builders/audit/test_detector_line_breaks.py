"""The `line_break` audit class: line breaks inside sentences a hard wrap left (zh, en).

A held-out hard-wrapped novel kept 5 or more such breaks in 20 % of its samples and the
audit said nothing. The class reports every break of a sample holding 5 or more; verse
set line by line (each line ends with a mark) and a paragraph per line give none.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from lengthwise.builders.audit import audit_sample
from lengthwise.records import Sample
from lengthwise.spec import AuditConfig

ZH_BOOK = "zh_simplified_four_classics/xiyouji_utf8.txt"
EN_BOOK = "en_pg_stripped/pride_and_prejudice.txt"


def _row(text: str, language: str) -> Sample:
    return Sample("b:0000-0001", "S", "b", "", language, 0, 1, [], [], text, 0, "chars",
                  {}, 0, 0, 0, None, "")  # fmt: skip


def _read(shared: Path, name: str, start: int) -> str:
    return (shared / name).read_text(encoding="utf-8").replace("\r\n", "\n")[start : start + 20_000]


def test_chinese_cut_at_a_fixed_width_is_reported_and_set_by_paragraph_is_not(
    shared_corpora: Path,
) -> None:
    text = _read(shared_corpora, ZH_BOOK, 300_000)
    assert audit_sample(_row(text, "zh"), AuditConfig()).counts["line_break"] == 0
    wrapped = "\n".join(
        "\n".join(line[i : i + 35] for i in range(0, len(line), 35)) for line in text.split("\n")
    )
    audit = audit_sample(_row(wrapped, "zh"), AuditConfig())
    assert audit.counts["line_break"] >= 100, audit.counts
    assert "⟦⏎⟧" in audit.snippets["line_break"][0]


def test_english_hard_wrapped_is_reported_and_unwrapped_is_not(shared_corpora: Path) -> None:
    text = _read(shared_corpora, EN_BOOK, 200_000)
    paragraphs = [" ".join(p.split("\n")) for p in text.split("\n\n")]
    unwrapped = "\n\n".join(paragraphs)
    assert audit_sample(_row(unwrapped, "en"), AuditConfig()).counts["line_break"] == 0
    rewrapped = "\n\n".join(textwrap.fill(p, 60) for p in paragraphs)
    assert audit_sample(_row(rewrapped, "en"), AuditConfig()).counts["line_break"] >= 50


def test_verse_and_a_few_breaks_are_not_findings() -> None:
    verse = "满纸荒唐言，\n一把辛酸泪！\n都云作者痴，\n谁解其中味？\n" * 5
    assert audit_sample(_row(verse, "zh"), AuditConfig()).counts["line_break"] == 0
    few = "行者闻言心中大喜便将那金箍棒\n取出来与众人看了一回。\n" * 4
    assert audit_sample(_row(few, "zh"), AuditConfig()).counts["line_break"] == 0
    assert audit_sample(_row(few * 2, "zh"), AuditConfig()).counts["line_break"] == 8


def test_a_heading_above_its_text_is_no_break() -> None:
    """Found on an all-shared build: `第二十回 王熙凤正言弹妒意　林黛玉俏语谑娇音⏎话说…`
    ends on an ideograph and the text goes on below it, in every sample."""
    titles = [f"第{n}回 王熙凤正言弹妒意　林黛玉俏语谑娇音" for n in "一二三四五六"]
    text = "\n\n".join(f"{t}\n    话说宝玉在林黛玉房中说话，宝钗撞来。" for t in titles)
    row = Sample("b:0000-0001", "S", "b", "", "zh", 0, 1, titles, [], text, 0, "chars",
                 {}, 0, 0, 0, None, "")  # fmt: skip
    assert audit_sample(row, AuditConfig()).counts["line_break"] == 0
