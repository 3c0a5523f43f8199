"""Site signatures glued to chapter ends: `…且听下回分解。本章由某某书屋整理校对（xxx.net）`.

Line-based learning (`learned.py`) removes a signature on a line of its own. Sites that
glue it to the chapter's last sentence (and files saved without line breaks) leave it
inside the story's last paragraph, and a signature usually ends in a bracket or full
stop, so the running-title test (`running_titles.py`: the clause-free fragment after
the last sentence end) does not see it either.

Once chapters are known, the ends of the chapters are compared: a *tail* is a suffix of
a chapter that starts where a sentence or a whitespace run ends. A tail that ends at
least `learned_min_chapter_share` of the chapters (and three), digits aside, is a
recurring chapter ending. Recurring endings are also how books close chapters
(`且听下回分解。`), so only a tail that holds a web address (a URL, `www` address, bare
domain or e-mail, `web_addresses.py`) is taken for a signature, and a tail never reaches
back over a sentence end before its address: the closing formula before a signature
stays. The longest such tail is removed from every chapter it ends (with the spaces
before it), counted under ``learned/chapter-end-signature``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lengthwise.builders.cleaning.learned import CHAPTER_END_SIGNATURE, LearnedLine
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.running_titles import content_end
from lengthwise.builders.cleaning.web_addresses import (
    FULLWIDTH_TO_ASCII,
    MAY_HOLD_ADDRESS,
    first_address,
)

RULE = CHAPTER_END_SIGNATURE
MAX_TAIL_CHARS = 80
MIN_CHAPTERS = 3
# Where a tail may start: after one of these, or after whitespace.
_TAIL_STARTS = '。！？!?…」』”"）)】]'
# A tail may not hold one of these before its address (a full sentence of the story).
_SENTENCE_ENDS = "。！？!?…"
_DIGITS = str.maketrans("0123456789０１２３４５６７８９", "0000000000" * 2)


def _tail_starts(text: str, start: int, stop: int) -> list[int]:
    """Offsets in the last `MAX_TAIL_CHARS` of a chapter where a tail may start."""
    first = max(start + 1, stop - MAX_TAIL_CHARS)
    return [
        cut
        for cut in range(first, stop - 3)
        if (text[cut - 1] in _TAIL_STARTS or text[cut - 1].isspace()) and not text[cut].isspace()
    ]


def _ends_with_address(text: str, bounds: Sequence[tuple[int, int]]) -> int:
    """How many chapters (start, content end) may hold a web address in their last
    `MAX_TAIL_CHARS`."""
    found = 0
    for start, stop in bounds:
        window = text[max(start, stop - MAX_TAIL_CHARS) : stop].translate(FULLWIDTH_TO_ASCII)
        found += MAY_HOLD_ADDRESS.search(window) is not None
    return found


def _is_signature(tail: str) -> bool:
    """Holds a web address, and no sentence end before it."""
    address = first_address(tail)
    if address is None:
        return False
    return not any(mark in tail[: address[0]] for mark in _SENTENCE_ENDS)


def chapter_end_signature_edits(
    text: str, chapter_spans: Sequence[tuple[int, int]], min_chapter_share: float
) -> tuple[list[Edit], list[LearnedLine]]:
    """Edits removing a recurring web signature from the ends of `chapter_spans` of `text`."""
    needed = max(MIN_CHAPTERS, round(min_chapter_share * len(chapter_spans)))
    bounds = [(start, content_end(text, start, end)) for start, end in chapter_spans]
    if len(bounds) < MIN_CHAPTERS or _ends_with_address(text, bounds) < needed:
        return [], []  # the usual case, decided on the chapters' last characters only
    tails: list[dict[str, int]] = []  # per chapter: digit-folded tail -> its start
    counts: Counter[str] = Counter()
    for start, stop in bounds:
        found = {text[cut:stop].translate(_DIGITS): cut for cut in _tail_starts(text, start, stop)}
        tails.append(found)
        counts.update(found.keys())  # a mapping would add its values
    learned = max(
        (tail for tail, count in counts.items() if count >= needed and _is_signature(tail)),
        key=len,
        default=None,
    )
    if learned is None:
        return [], []
    edits: list[Edit] = []
    for (start, stop), found in zip(bounds, tails, strict=True):
        cut = found.get(learned)
        if cut is None:
            continue
        while cut > start and text[cut - 1] in " \t\u3000":
            cut -= 1  # the spaces that glued it on go with it
        edits.append((cut, stop, ""))
    line = LearnedLine(
        rule=RULE,
        line=learned,
        count=len(edits),
        scope="book",
        why=f"ends {len(edits)} of {len(chapter_spans)} chapters and holds a web address",
    )
    return edits, [line]
