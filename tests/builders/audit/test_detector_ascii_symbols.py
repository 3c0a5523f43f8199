"""The `ascii_symbol` audit class: ASCII symbols between CJK characters, found without
cleaning's help; after `zh/ascii-quote-pairs` only what it could not explain is left."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.audit import audit_sample
from lengthwise.builders.audit.detectors.ascii_symbols import ascii_symbol_spans
from lengthwise.builders.cleaning.ascii_pairs import repair_ascii_pairs
from lengthwise.records import Sample
from lengthwise.spec import AuditConfig


def row(text: str) -> Sample:
    return Sample("b:0000-0001", "S", "b", "", "zh", 0, 1, [], [], text, 0, "chars",
                  {}, 0, 0, 0, None, "")  # fmt: skip


def test_symbols_between_cjk_characters_are_found() -> None:
    text = "诸如这些`西厢-`琵琶-以及《西厢记>>中的曲子。等***示下。"
    spans = ascii_symbol_spans(text)
    assert [text[s:e] for s, e in spans] == ["`", "-`", "-", ">>", "***"]
    audit = audit_sample(row(text), AuditConfig())
    assert audit.counts["ascii_symbol"] == 5
    assert "这些⟦`⟧西厢" in audit.snippets["ascii_symbol"][0]


@pytest.mark.parametrize(
    "text",
    [
        "第3-5回里他穿着T-shirt，发了e-mail。",  # ASCII on one side at least
        "他说：“好!”又问：“是吗?”",  # zh/ascii-punctuation's and damage's symbols
        "唵嘛呢叭[口迷]吽",  # an ASCII bracket spelling a missing character
        "The long-awaited day — a |pipe| and `code`.",  # English text
    ],
)
def test_legitimate_ascii_is_not_a_finding(text: str) -> None:
    assert ascii_symbol_spans(text * 5) == []


@pytest.mark.slow
def test_after_cleaning_no_quote_stand_in_is_left(shared_corpora: Path) -> None:
    raw = (shared_corpora / "zh_simplified_four_classics" / "hongloumeng_utf8.txt").read_text(
        encoding="utf-8"
    )
    start = raw.index("诸如这些`西厢-")
    part = raw[start - 30_000 : start + 30_000]
    found = [part[s:e] for s, e in ascii_symbol_spans(part)]
    assert found.count("`") + found.count("-`") >= 20
    repaired = repair_ascii_pairs(part).text
    left = [repaired[s:e] for s, e in ascii_symbol_spans(repaired)]
    assert not [symbol for symbol in left if "`" in symbol]
    assert len(left) < len(found) / 5  # lone dashes and `*` lost-character marks remain


def test_symbol_runs_by_find_equal_a_character_class_scan() -> None:
    import random
    import re

    from lengthwise.builders.audit.detectors import ascii_symbols

    pattern = re.compile("[" + re.escape(ascii_symbols.SYMBOLS) + "]+")
    rng = random.Random(7)
    pieces = ["西厢", "琵琶", "。", "“", "”", "a", " ", "\n", *ascii_symbols.SYMBOLS]
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 40)))
        present = {c for c in text if c in ascii_symbols.SYMBOLS}
        expected = [m.span() for m in pattern.finditer(text)]
        assert ascii_symbols._symbol_runs(text, present) == expected, text
