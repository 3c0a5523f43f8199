"""Shared fast paths agree with the plain ones: needle answers (`rules.occurs`) with `in`,
a line-start group with its locators alone (text after text), head/tail cuts with pieces."""

from __future__ import annotations

import dataclasses
import random

from lengthwise.builders.cleaning.common_rules import INDENT
from lengthwise.builders.cleaning.ledger import apply_edits
from lengthwise.builders.cleaning.line_rules import LineStartGroup, candidate_lines
from lengthwise.builders.cleaning.rules import contains_any, first_index, occurs, with_sentinel

NEEDLES = (
    "www", "w", "com", "\u3000\n", " \n", "â€", "本书", "声明", "书", "|", "\x0c",
    "ab", "é", "€", "小说网", "\n\n\n\n",
)  # fmt: skip
ALPHABET = "abw.com |\n\u3000 本书声明小说网éâ€\x0c"


def _texts(seed: int) -> list[str]:
    """Chinese-heavy, ASCII and mixed texts, each derived from the one before (a rule's edit)."""
    chance = random.Random(seed)
    chinese = "这是一段中文，" * 500
    texts = [chinese, "plain ascii text\n" * 300, chinese + "x" * 50]
    for _ in range(30):
        base = chance.choice(texts)
        cut = chance.randrange(len(base) + 1)
        piece = "".join(chance.choice(ALPHABET) for _ in range(chance.randrange(1, 6)))
        texts.append(base[:cut] + piece + base[cut + chance.randrange(3) :])
    return texts


def test_occurs_answers_like_in_as_the_text_changes() -> None:
    for text in _texts(seed=7):
        for needle in NEEDLES:
            assert occurs(text, needle) == (needle in text), (needle, len(text))
            assert occurs(text, needle) == (needle in text)  # the remembered answer
        assert contains_any(text, NEEDLES) == any(needle in text for needle in NEEDLES)


def test_first_index_finds_like_find_and_shares_answers_with_occurs() -> None:
    for number, text in enumerate(_texts(seed=11)):
        for needle in NEEDLES if number % 2 else reversed(NEEDLES):
            if number % 3 == 0:
                occurs(text, needle)  # answered first by `occurs`, then located
            assert first_index(text, needle) == text.find(needle), (needle, len(text))
            assert occurs(text, needle) == (needle in text)


def test_an_edit_that_removes_a_needle_is_seen() -> None:
    chinese = "这是一段中文" * 2000
    before = chinese + "本书www"
    assert occurs(before, "本书") and occurs(before, "www")
    after = before.replace("本书", "").replace("www", "ww")
    assert not occurs(after, "本书")
    assert not occurs(after, "www")
    assert occurs(before, "本书")  # back to the first text: answered afresh, still right


def test_line_start_group_finds_the_lines_each_locator_alone_finds() -> None:
    group = LineStartGroup()
    locators = [
        group.locator("本站|欢迎"),
        group.locator("第[^\n]{1,5}?字数"),
        group.locator("[（(]本章完"),
    ]
    chance = random.Random(5)
    heads = ["本站", "欢迎", "第一章 字数", "（本章完）", "\u3000本站", "故事", "", " ", "x本站"]
    text = ""
    for _ in range(40):  # each round is a new text, as after a rule's edit
        lines = [chance.choice(heads) + chance.choice(["", "说", "\t"]) for _ in range(12)]
        text = "\n".join(lines) if chance.random() < 0.8 else text + "\n本站"
        for locator in locators:
            alone = candidate_lines(text, (), locator)
            assert candidate_lines(text, (), locator, group) == alone, (locator.pattern, text)


def _piecewise(text: str, edits: list[tuple[int, int, str]]) -> str:
    pieces, last = [], 0
    for start, end, replacement in edits:
        pieces += [text[last:start], replacement]
        last = end
    return "".join([*pieces, text[last:]])


def test_apply_edits_cutting_head_and_tail_matches_piecewise_edits() -> None:
    text = "\n\nbody\n\n\n"
    cases = [[(0, 2, "")], [(6, 9, "")], [(0, 2, ""), (7, 9, "")], [(0, 9, "")], []]
    cases += [[(0, 2, "x"), (6, 9, "")], [(0, 2, ""), (4, 5, ""), (6, 9, "")]]
    for edits in cases:
        assert apply_edits(text, edits) == _piecewise(text, edits), edits
    assert apply_edits(text, [(0, 2, ""), (7, 9, "")]) == "body\n"


def test_sentinel_copy_follows_the_text() -> None:
    for text in _texts(seed=13):
        assert with_sentinel(text) == "\n" + text
        assert with_sentinel(text) is with_sentinel(text)  # made once per text


def test_indent_gate_changes_nothing_but_speed() -> None:
    ungated = dataclasses.replace(INDENT, gate=None)
    chance = random.Random(17)
    pieces = ["\t", "\u3000", "\xa0", " ", "\n", "word", "\u2003", "中"]
    for _ in range(2000):
        text = "".join(chance.choice(pieces) for _ in range(chance.randrange(12)))
        gated, plain = INDENT.apply(text), ungated.apply(text)
        assert (gated.text, gated.count, gated.examples) == (
            plain.text,
            plain.count,
            plain.examples,
        )
