"""The placeholder `?` test agrees with a plain character-by-character reference."""

from __future__ import annotations

import random
import re
import sys

from lengthwise.builders.cleaning.damage import (
    _CANDIDATES,
    CANDIDATE_RANGES,
    is_placeholder_question_mark,
)

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_QUESTION_WORDS = re.compile(r"吗|呢|何|谁|那里|难道|未")
_BREAKS = "。！？!?，,；;：:\n“”「」『』"


def _reference(text: str, index: int) -> bool:
    """The definition walked one character at a time: the `?` run, the ideograph before
    it, the clause back to the nearest break (at most 24 characters), a question word."""
    first = index
    while first and text[first - 1] == "?":
        first -= 1
    if not first or not _HAN.match(text[first - 1]):
        return False
    clause_start = first
    while clause_start > max(0, first - 24):
        if text[clause_start - 1] in _BREAKS:
            break
        clause_start -= 1
    return _QUESTION_WORDS.search(text, clause_start, first) is None


def test_placeholder_question_marks_match_the_reference() -> None:
    rng = random.Random(11)
    alphabet = "点犀限起来吗何谁那里难道未a ?？，,\n“”" + "字" * 40
    for _ in range(4000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 80)))
        for index, char in enumerate(text):
            if char == "?":
                assert is_placeholder_question_mark(text, index) == _reference(text, index), (
                    text,
                    index,
                )


def test_candidate_class_matches_exactly_the_listed_ranges() -> None:
    """The scan's class (written as a complement for speed) against the plain class."""
    plain = re.compile(
        r"[?\ufffd□■〓\ue000-\uf8ff\U000f0000-\U0010fffd\u2460-\u24ff\u2502-\u257f\u2312"
        r"\u3040-\u30ff\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]"
    )
    every_char = "".join(map(chr, range(sys.maxunicode + 1)))
    found = [match.start() for match in _CANDIDATES.finditer(every_char)]
    assert found == [match.start() for match in plain.finditer(every_char)]
    assert len(found) == sum(last - first + 1 for first, last in CANDIDATE_RANGES)
