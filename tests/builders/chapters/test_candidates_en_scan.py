"""The one line-opening scan finds exactly what the four form patterns find on their own."""

from __future__ import annotations

import random

import pytest

from lengthwise.builders.chapters import candidates_en
from lengthwise.builders.chapters.candidates_en import (
    BARE_RE,
    NUMBERED_RE,
    ORDINAL_SPECIAL_RE,
    SPECIAL_RE,
    find_en_candidates,
)

FORMS = (NUMBERED_RE, ORDINAL_SPECIAL_RE, SPECIAL_RE, BARE_RE)

EDGE_CASES = [
    "",
    "\n\n",
    "CHAPTER I\nIt began.",  # heading at the very start
    "It ended.\n\nCHAPTER XII.",  # heading at the very end, no newline after it
    "  CHAPTER IV.\n\tChapter 5: The Ball\n      BOOK TWO: 1806\n",  # indented
    "CHAPTER I\r\n\r\nText.\r\nCHAPTER II.\r\n",  # CRLF remnants
    "Chapter five was long.\nBook one of many\nPart of it was gone.\nParty time\n",
    "9.\n42\n7 Sisters\nIV.\nXII\nI said so.\nMIX\nM. Bertrand\n12\n1.  A list\nI\nV THE RETURN\n",
    "[Illustration: CHAPTER I.]\n[ILLUSTRATION. Chapter the First]\n[Illustration]\n",
    "FIRST EPILOGUE: 1813 - 20\nSecond Book\nTwentieth Part\nEpilogue\nPROLOGUE.\n",
    "Prologue to the tale\nAFTERWORD\nSTAVE ONE\nLETTER IV\nADVENTURE I. A SCANDAL\n",
    "VOL. III\nVol. 2\nCHAP. the First\nTALE 7\nSTORY 12\nVolume the Third\n",
    "[Chapter 1]\n**Chapter 2**\n-- PART II --\n=== BOOK THREE ===\n(Chapter 4)\n",
    "C H A P T E R   X I I\nP A R T  2\nchapter xii\nchapter 12 of the act\nCh. 3\n",
    "The First Chapter\nTWENTY-FIRST CHAPTER\nThe Twenty-first Part\nThe first chapter was\n",
]

# Fragments that start (or nearly start) a heading of each form, and prose around them.
FRAGMENTS = [
    "CHAPTER", "Chapter", "chapter", "CHAP.", "BOOK", "Book", "PART", "Party", "VOL.",
    "FIRST", "First", "Second", "EPILOGUE", "Epilogue", "PROLOGUE", "AFTERWORD",
    "[Illustration:", "[ILLUSTRATION.", "XIV", "IV.", "I", "M.", "12", "1999", "9.", "42", "the",
    "The", "THE", "One", "twenty-one", "a", "said", ":", ".", "—", "]",
    "**", "[", "--", "=", "(", "C H A P T E R", "P A R T", "Twenty-First", "Ch.", "CH.", "part",
]  # fmt: skip
PADDING = ["", " ", "  ", "\t", "\r"]


def _random_text(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(0, 30)):
        words = [rng.choice(FRAGMENTS) for _ in range(rng.randint(0, 4))]
        lines.append(rng.choice(PADDING) + " ".join(words) + rng.choice(PADDING))
    return "\n".join(lines)


def _reference(text: str) -> list[list[tuple[int, int]]]:
    """The plain way: each form pattern scanned over the whole text."""
    shifted = "\n" + text
    return [[m.span() for m in pattern.finditer(shifted)] for pattern in FORMS]


def _scanned(text: str) -> list[list[tuple[int, int]]]:
    by_form = candidates_en._matches_by_form("\n" + text)
    return [[m.span() for m in matches] for matches in by_form]


@pytest.mark.parametrize("text", EDGE_CASES)
def test_scan_matches_the_four_patterns_on_edge_cases(text: str) -> None:
    assert _scanned(text) == _reference(text)


def test_scan_matches_the_four_patterns_on_random_lines() -> None:
    rng = random.Random(11)
    texts = [_random_text(rng) for _ in range(400)]
    found = 0
    for text in texts:
        reference = _reference(text)
        assert _scanned(text) == reference, text
        found += sum(map(len, reference))
    assert found > 200  # the random lines do hold headings of the forms


def test_every_form_initial_is_covered_by_the_line_opening() -> None:
    """A line a form pattern matches always passes the cheap line-opening filter."""
    for index, pattern in enumerate(FORMS):
        for text in EDGE_CASES:
            for match in pattern.finditer("\n" + text):
                opening = candidates_en.LINE_OPENING_RE.match("\n" + text, match.start())
                assert opening is not None, match.group()
                assert index in candidates_en._FORMS_BY_INITIAL[opening.group("initial")]


def test_edge_case_candidates_are_found() -> None:
    found = find_en_candidates(EDGE_CASES[4])
    assert [(c.family, c.number) for c in found] == [("CHAPTER", 4), ("CHAPTER", 5), ("BOOK", 2)]
