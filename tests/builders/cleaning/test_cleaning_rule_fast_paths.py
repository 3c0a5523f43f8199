"""Fast paths of the regular cleaning rules agree with plain references on edge cases.

Each reference below is the straightforward version the fast path replaced; random
texts over small alphabets (rare whitespace, line ends, markers) must give identical
answers.
"""

from __future__ import annotations

import itertools
import operator
import random
import re
import sys

from lengthwise.builders.cleaning.ascii_pairs import CANDIDATES, Token, _is_cjk, cjk_tokens
from lengthwise.builders.cleaning.common_rules import _trailing_spaces
from lengthwise.builders.cleaning.rules import Span
from lengthwise.builders.cleaning.rulesets import (
    _EN_WEB_MARKERS,
    _EN_WEB_SEARCH_CHARS,
    has_en_web_markers,
)

_REFERENCE_TRIGGERS = (" \n", "\t\n", "\u3000\n", "\xa0\n")
# Every character `str.isspace` accepts, and some that look blank but are not.
_WHITESPACE = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())
_NOT_WHITESPACE = "\u200b\ufeffa中"


def _reference_trailing_spaces(text: str) -> list[Span]:
    """Split into lines and `str.rstrip` each one (the rule before its fast path)."""
    last = len(text) - 1
    while last >= 0 and text[last] == "\n":
        last -= 1
    triggered = any(pair in text for pair in _REFERENCE_TRIGGERS)
    if not triggered and not (last >= 0 and text[last].isspace()):
        return []
    lines = text.split("\n")
    stripped = list(map(str.rstrip, lines))
    upto = list(itertools.accumulate(map(len, lines)))
    changed = itertools.compress(range(len(lines)), map(operator.is_not, lines, stripped))
    return [(upto[i] + i - len(lines[i]) + len(stripped[i]), upto[i] + i) for i in changed]


def _random_texts(alphabet: str, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(alphabet, k=rng.randint(0, 30))) for _ in range(count)]


def test_trailing_space_strips_every_unicode_whitespace_like_rstrip() -> None:
    for char in _WHITESPACE.replace("\n", ""):
        for text in (f"ab{char}\ncd {char}\n", f"ab{char}\ncd", f"ab{char}", f"{char}\n\n"):
            assert _trailing_spaces(text) == _reference_trailing_spaces(text), repr(text)


def test_trailing_space_agrees_with_per_line_rstrip_on_random_texts() -> None:
    alphabet = _WHITESPACE + _NOT_WHITESPACE + "\n\n\n"
    rare = "\x0b\x0c\x85\u2003\u2028\u1680\n\nab"  # never one of the trigger pairs alone
    texts = [*_random_texts(alphabet, 3000, 1), *_random_texts(rare, 3000, 2)]
    for text in texts:
        assert _trailing_spaces(text) == _reference_trailing_spaces(text), repr(text)


def test_trailing_space_without_a_trigger_leaves_rare_whitespace_alone() -> None:
    # As before: only the four usual pairs (or whitespace ending the text) start the rule.
    text = "ab\u2003\ncd\x0b\nef\n"
    assert _trailing_spaces(text) == [] == _reference_trailing_spaces(text)
    assert _trailing_spaces(text + "g \n") == [(2, 3), (6, 7), (12, 13)]


def test_en_web_markers_found_exactly_where_a_marker_search_finds_them() -> None:
    fragments = [*_EN_WEB_MARKERS, "novel", "or:", "TL", "/N:", "uxia", "a", " ", "\n"]
    pieces = [marker[:cut] for marker in _EN_WEB_MARKERS for cut in (1, 3, -1, -2)]
    rng = random.Random(3)
    for _ in range(4000):
        parts = rng.choices(fragments + pieces, k=rng.randint(0, 8))
        text = "".join(parts)
        expected = any(marker in text[:_EN_WEB_SEARCH_CHARS] for marker in _EN_WEB_MARKERS)
        assert has_en_web_markers(text) == expected, repr(text)


def test_en_web_markers_beyond_the_searched_head_are_ignored() -> None:
    padding = "x" * (_EN_WEB_SEARCH_CHARS - 4)
    assert has_en_web_markers(padding + "A/N:")
    assert not has_en_web_markers(padding + "xA/N:")
    assert has_en_web_markers("Patreon")  # a marker at the very start


def _reference_cjk_tokens(text: str) -> list[Token]:
    """One character-class scan over the whole text (the rule before its fast path)."""
    token = re.compile("([" + re.escape(CANDIDATES) + r"])\1*")
    tokens = []
    for match in token.finditer(text):
        start, end = match.span()
        if end - start <= 2 and (_is_cjk(text, start - 1) or _is_cjk(text, end)):
            tokens.append(Token(start, end, match.group()))
    return tokens


def test_cjk_tokens_are_the_runs_a_character_class_scan_finds() -> None:
    # Mostly CJK (so the ASCII index is built), with runs of symbols of every length.
    alphabet = "中文字“”，。\n ab" * 3 + CANDIDATES + "``--**"
    for text in _random_texts(alphabet, 3000, 4):
        text = "中文" * 20 + text
        assert cjk_tokens(text) == _reference_cjk_tokens(text), repr(text)
