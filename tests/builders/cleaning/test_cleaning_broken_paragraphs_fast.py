"""The rejoining's cheap scans and counted bounds agree with the plain gap-by-gap rule."""

from __future__ import annotations

import random
import re
import unicodedata

import pytest

from lengthwise.builders.cleaning import broken_paragraphs
from lengthwise.builders.cleaning.broken_paragraphs import rejoin_broken_paragraphs
from lengthwise.builders.cleaning.rules import MAX_EXAMPLES, RuleOutcome, format_example
from lengthwise.builders.cleaning.structure_lines import is_structure_line

_GAP = re.compile(r"\n[ \t\u3000]*\n(?:[ \t\u3000]*\n)*[ \t\u3000]*")


def _reference_habit(text: str) -> bool:
    """Every gap's line, stripped; long non-structure ones vote (the rule as specified)."""
    ends = []
    for gap in _GAP.finditer(text):
        line = text[text.rfind("\n", 0, gap.start()) + 1 : gap.start()].strip()
        if len(line) >= 20 and not is_structure_line(line):
            ends.append(line[-1])
    if len(ends) < 20:
        return False
    open_ends = sum(1 for end in ends if unicodedata.category(end).startswith("L"))
    return open_ends <= 0.10 * len(ends)


def _reference_separator(before: str, after: str) -> str | None:
    last, first = before[-1], after[0]
    cjk = ("\u3400", "\u9fff"), ("\uf900", "\ufaff")
    if any(a <= last <= b for a, b in cjk) and any(a <= first <= b for a, b in cjk):
        return ""
    if last.isascii() and first.isascii() and last.islower() and first.islower():
        return " "
    return None


def _reference_rejoin(text: str) -> RuleOutcome:
    """The rule written plainly: the habit first, then every gap checked in turn."""
    if not _reference_habit(text):
        return RuleOutcome(text, 0)
    edits, examples, pieces, position = [], [], [], 0
    for gap in _GAP.finditer(text):
        before = text[text.rfind("\n", 0, gap.start()) + 1 : gap.start()].rstrip()
        after_end = text.find("\n", gap.end())
        after = text[gap.end() : after_end if after_end >= 0 else len(text)].rstrip()
        if len(before.strip()) < 20 or len(after) < 20:
            continue
        if is_structure_line(before) or is_structure_line(after):
            continue
        separator = _reference_separator(before, after)
        if separator is None:
            continue
        edits.append((gap.start(), gap.end(), separator))
        if len(examples) < MAX_EXAMPLES:
            examples.append(format_example(text, gap.start(), gap.end(), separator))
        pieces += (text[position : gap.start()], separator)
        position = gap.end()
    if not edits:
        return RuleOutcome(text, 0)
    pieces.append(text[position:])
    return RuleOutcome("".join(pieces), len(edits), examples, edits=tuple(edits))


_ZH = "天下大势分久必合合久必分周末七国分争并入于秦及秦灭之后楚汉分争又并入于汉"
_LINES = [
    lambda r: "".join(r.choices(_ZH, k=r.randint(15, 220))) + r.choice("。！？”"),
    lambda r: "".join(r.choices(_ZH, k=r.randint(15, 160))),  # open: ends in an ideograph
    lambda r: "第" + r.choice("一二三十") + "回  " + "".join(r.choices(_ZH, k=r.randint(4, 30))),
    lambda r: " ".join(r.choices(["the", "old", "road", "was", "long"], k=r.randint(3, 40))),
    lambda r: (
        "She said "
        + " ".join(r.choices(["it", "rained", "all", "day"], k=r.randint(3, 40)))
        + r.choice(".!?,;")
    ),
    lambda r: (
        r.choice(["- ", "1. ", "(a) ", "• "])
        + "".join(r.choices(_ZH, k=r.randint(20, 150)))
        + r.choice("。ab")
    ),
    lambda r: "Chapter " + r.choice(["One", "XII", "7"]) + " " + "." * r.randint(3, 9) + " 12",
    lambda r: r.choice(["THE PRISON-DOOR OF THE OLD TOWN.", "CHAPTER IV.", "PREFACE", "第三回"]),
    lambda r: r.choice(["", " ", "\u3000\u3000", "\t", "\xa0"]),  # blank and odd whitespace
]
_GAPS = ["\n", "\n", "\n\n", "\n\n", "\n \n\n", "\n\u3000\n", "\n\n\u3000\u3000", "\n\t\n  "]


def _random_book(seed: int) -> str:
    """Lines of every kind the rule distinguishes, mixed in varying shares."""
    rng = random.Random(seed)
    weights = [rng.random() ** 2 for _ in _LINES]
    weights[0] *= rng.choice([1, 30, 100])  # often a punctuated book, sometimes not
    parts = [rng.choice(["", "\n\n", " \n\u3000\n", "\u3000\u3000"])]
    for _ in range(rng.randint(0, 160)):
        line = rng.choices(_LINES, weights)[0](rng)
        parts += (line + rng.choice(["", "", " ", "\u3000"]), rng.choice(_GAPS))
    return "".join(parts)


def _same(text: str) -> None:
    fast, reference = rejoin_broken_paragraphs(text), _reference_rejoin(text)
    assert (fast.text, fast.count, fast.examples, fast.edits) == (
        reference.text,
        reference.count,
        reference.examples,
        reference.edits,
    )
    open_gaps = broken_paragraphs._open_gaps(text)
    assert broken_paragraphs._book_is_punctuated(text, open_gaps) == _reference_habit(text)


@pytest.mark.parametrize("seed", range(400))
def test_random_books_rejoin_as_the_plain_rule_does(seed: int) -> None:
    _same(_random_book(seed))


def _book(open_ends: int, punctuated: int, lists: int = 0, head: str = "") -> str:
    """A book with a broken CJK paragraph, `open_ends` open and `punctuated` long ends."""
    long_zh = _ZH * 4  # over 120 characters: no heading, counted in the bound
    lines = [long_zh[: 40 + i % 90] + "。" for i in range(punctuated)]
    lines += [long_zh[: 30 + i % 5] for i in range(open_ends)]
    lines += ["- " + long_zh + "。" for _ in range(lists)]  # long, punctuated, structure
    return head + "\n\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("open_ends", "punctuated", "lists", "head"),
    [
        (10, 90, 0, ""),  # exactly 10 %: punctuated
        (11, 89, 0, ""),  # just over: not
        (10, 90, 0, "\n\n\u3000\n"),  # text starting with blank and whitespace-only lines
        (3, 17, 0, ""),  # too few paragraphs to know
        (15, 40, 200, ""),  # long punctuated list items are no paragraph ends
        (15, 140, 100, ""),  # enough other ends even so
        (5, 200, 0, "第一回  宴桃园豪杰三结义斩黄巾英雄首立功\n\n"),
    ],
)
def test_books_on_both_sides_of_the_threshold(
    open_ends: int, punctuated: int, lists: int, head: str
) -> None:
    _same(_book(open_ends, punctuated, lists, head))


def test_a_clearly_punctuated_book_is_settled_by_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    long_zh = _ZH * 4  # over 120 characters: surely no heading
    text = "\n\n".join([long_zh + "。"] * 200 + [long_zh, long_zh + "。"]) + "\n"
    expected = _reference_rejoin(text)
    assert expected.count == 1

    def listing_every_end(text: str) -> list[str]:
        raise AssertionError("the counts should have settled this book")

    monkeypatch.setattr(broken_paragraphs, "_paragraph_ends", listing_every_end)
    assert rejoin_broken_paragraphs(text).text == expected.text


def test_regex_classes_match_the_character_tests() -> None:
    """The scans rely on: strip() removes exactly `\\s`; letters are word, non-digit."""
    every = "".join(map(chr, range(0x110000)))
    assert "".join(re.findall(r"\s", every)) == "".join(c for c in every if c.isspace())
    letters = [c for c in every if unicodedata.category(c).startswith("L")]
    assert re.fullmatch(r"[^\W\d_]*", "".join(letters))
