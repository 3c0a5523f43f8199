"""Running titles glued to chapter ends: the book's own title printed after every chapter.

Line-based learning (`learned.py`) finds a running header or footer when it sits on a line
of its own. Files saved without line breaks (Gutenberg Chinese novels re-saved as one line)
glue it to the last sentence instead: `…且聽下回分解。官場現形記第二回…`. Once chapters are
known, the fragment after a chapter's last sentence end is compared across chapters: a
fragment that recurs at the end of many chapters, holds no clause punctuation and names
the book (its title or author, as the text itself prints them) is a running title and is
removed, counted under ``learned/running-title``. Chapter-closing formulae such as
`且聽下回分解` recur too but do not name the book, so they stay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from lengthwise.builders.chapters.spans import rstripped_end
from lengthwise.builders.cleaning.learned import RUNNING_TITLE, LearnedLine
from lengthwise.builders.cleaning.ledger import Edit

RULE = RUNNING_TITLE
MAX_FRAGMENT_CHARS = 40
MIN_CHAPTERS = 3
_SENTENCE_ENDS = '。！？!?…」』”"．.)）】'
_CLAUSE_MARKS = "，、；：,;:"


def _name_keys(names: Sequence[str]) -> list[str]:
    keys = {"".join(name.split()).strip("《》「」\"'") for name in names if name}
    return sorted(key for key in keys if len(key) >= 2)


def _trailing_fragment(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span after the chapter's last sentence end, if short and clause-free."""
    stop = rstripped_end(text, start, end)
    cut = stop
    while cut > start and stop - cut <= MAX_FRAGMENT_CHARS and text[cut - 1] not in _SENTENCE_ENDS:
        cut -= 1
    fragment = text[cut:stop]
    if cut == start or not fragment.strip() or len(fragment) > MAX_FRAGMENT_CHARS:
        return None
    if any(mark in fragment for mark in _CLAUSE_MARKS):
        return None
    return cut, stop


def _ending(text: str, start: int, end: int, learned: set[str]) -> Edit | None:
    """The edit removing a learned fragment that ends the chapter `text[start:end]`."""
    stop = rstripped_end(text, start, end)
    for fragment in sorted(learned, key=len, reverse=True):
        if text.endswith(fragment, start, stop):
            return (stop - len(fragment), stop, "")
    return None


def running_title_edits(
    text: str,
    chapter_spans: Sequence[tuple[int, int]],
    names: Sequence[str],
    min_chapter_share: float,
) -> tuple[list[Edit], list[LearnedLine]]:
    """Edits removing running titles from the ends of `chapter_spans` of `text`.

    `chapter_spans` are (start, end) offsets of the detected chapters; `names` the book's
    title and author as printed. Nothing is removed unless one fragment naming the book
    ends at least `min_chapter_share` of the chapters (and three).
    """
    keys = _name_keys(names)
    if not keys or len(chapter_spans) < MIN_CHAPTERS:
        return [], []
    found: list[tuple[str, tuple[int, int]]] = []
    for start, end in chapter_spans:
        span = _trailing_fragment(text, start, end)
        if span is not None:
            found.append(("".join(text[span[0] : span[1]].split()), span))
    counts = Counter(fragment for fragment, _ in found)
    needed = max(MIN_CHAPTERS, round(min_chapter_share * len(chapter_spans)))
    learned = {
        fragment
        for fragment, count in counts.items()
        if count >= needed and any(key in fragment for key in keys)
    }
    if not learned:
        return [], []
    # Once learned, the title also goes where no sentence end precedes it (`…分解官場現形記`).
    edits = [edit for start, end in chapter_spans if (edit := _ending(text, start, end, learned))]
    lines = [
        LearnedLine(
            rule=RULE,
            line=fragment,
            count=counts[fragment],
            scope="book",
            why=f"ends {counts[fragment]} of {len(chapter_spans)} chapters and names the book",
        )
        for fragment in sorted(learned)
    ]
    return sorted(edits), lines
