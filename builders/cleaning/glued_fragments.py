"""`common/glued-fragment`: a sentence or bracketed aside a site or converter glued into
the running text all through the book, removed wherever it stands.

The learned step (learned.py) takes furniture standing on its own lines; an advert glued
after a sentence end (`…他说。夜读时光提醒您：注意休息。行者…`, `… station. (Visit the
Reading Room for more classics.) He …`) leaves no line to learn. A fragment
(`fragments.py`: a sentence inside a line or a bracketed aside, weighing 20, outside
speech in Latin script) printed the same at least `MIN_REPEATS` times and once per 20,000
characters of the book, in at least `MIN_TENTHS` of the book's ten parts, and followed by
different words in most places (a formula before each chapter's heading, `未知後事如何，
且看下回分解。第二回…` in a book saved without line breaks, is the story's), is furniture: on
the 17 shared books no fragment comes more than 5 times, against 20 to 159 needed. Learned
where it stands glued between sentences, it goes wherever it is printed (at a line's end
and inside speech too), with one space beside it where spaces stood on both sides (or at
a line's start), so the sentences around it join as printed. Runs after unwrapping, when
sentences are whole lines' parts; off with `learned_boilerplate = false` or `disable_rules`.
"""

from __future__ import annotations

from collections import Counter

from lengthwise.builders.chapters.layout import sample
from lengthwise.builders.cleaning.fragments import (
    may_recur,
    needed,
    occurrences,
    recurring_fragments,
)
from lengthwise.builders.cleaning.learned import LearnedLine
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.rules import OutcomeRule, RuleOutcome, edited_outcome

NAME = "common/glued-fragment"
MIN_REPEATS = 5
MIN_TENTHS = 5  # parts of the book (of ten) holding it: spread through it, not one scene
_MAX_SAME_FOLLOWING_SHARE = 0.5


def remove_glued_fragments(text: str) -> RuleOutcome:
    """The edits removing every glued fragment, with what was learned."""
    # A first look at three windows of the book (60,000 characters): furniture at the
    # rate needed shows up there about three times; most books are passed over here.
    part = sample(text)
    if part is not text and not may_recur(part):
        return RuleOutcome(text, 0)
    learned: list[LearnedLine] = []
    cuts: list[tuple[int, int]] = []
    for fragment, where in recurring_fragments(text, needed(len(text), MIN_REPEATS)).items():
        tenths = {start * 10 // len(text) for start, _ in where}
        if len(tenths) < MIN_TENTHS or _followed_alike(text, where):
            continue
        # Learned where it stands glued between sentences; removed wherever it is printed
        # (at a line's end and inside speech too).
        everywhere = occurrences(text, fragment)
        why = f"{len(where)} times glued into sentences, in {len(tenths)} of the ten parts"
        learned.append(LearnedLine(NAME, fragment, len(everywhere), "book", why))
        cuts += everywhere
    if not cuts:
        return RuleOutcome(text, 0)
    edits: list[Edit] = []
    for start, end in sorted(cuts):
        if edits and start < edits[-1][1]:
            continue  # an aside inside a glued sentence: gone with it
        start, end = _with_a_space(text, start, end)
        edits.append((start, end, ""))
    return edited_outcome(text, edits, tuple(learned))


def _followed_alike(text: str, where: list[tuple[int, int]]) -> bool:
    """Whether the same words follow the fragment in most places: the story's closing
    formula before the next chapter's heading (`未知後事如何，且看下回分解。第二回…` in a
    book saved without line breaks), not furniture glued before whatever sentence."""
    following: Counter[str] = Counter(_next_letter(text, end) for _, end in where)
    return following.most_common(1)[0][1] >= _MAX_SAME_FOLLOWING_SHARE * len(where)


def _next_letter(text: str, position: int) -> str:
    """The first letter or digit after `position` (quotes, stops and spaces skipped)."""
    for char in text[position : position + 8]:
        if char.isalnum():
            return char
    return ""


def _with_a_space(text: str, start: int, end: int) -> tuple[int, int]:
    """The span widened by one space where the fragment stood between spaces, or at a
    line's start before one: `station. (Visit …) He` -> `station. He`."""
    before = text[start - 1] if start else "\n"
    after = text[end] if end < len(text) else "\n"
    if before == " " and after in " \n":
        return start - 1, end
    if before == "\n" and after == " ":
        return start, end + 1
    return start, end


GLUED_FRAGMENT = OutcomeRule(
    name=NAME,
    description="A sentence or bracketed aside glued into the running text again and again "
    "(the same words at least 5 times and once per 20,000 characters, through half the "
    "book or more) is removed wherever it stands.",
    change=remove_glued_fragments,
)
