"""Which part headings (BOOK/PART/VOLUME/卷) to believe.

A part heading groups the chapters after it and names them (`Chapter.part`), so a false
one does damage twice: it cuts a chapter and renames every later chapter. Moby Dick's
Cetology chapter holds its own `BOOK I. (FOLIO), CHAPTER I. (SPERM WHALE).--…` lines (a
book within the chapter); wrapped at 70 columns each is a `BOOK` line. Sequence
consistency decides, per part keyword:

1. numbered parts must increase: a repeated or backward part number is not a new part;
2. a part series that starts before the first chapter heading encloses the chapters
   (War and Peace's `BOOK ONE: 1805` before `CHAPTER I`): all of it is believed;
3. a part heading that appears only after chapters have started is believed where the
   chapter numbering starts again after it (a FIRST EPILOGUE with its own CHAPTER I);
   otherwise it is a heading inside a chapter, and its line stays in that chapter's body.
"""

from __future__ import annotations

from lengthwise.builders.chapters.model import Candidate
from lengthwise.builders.chapters.sequence import increasing_chain


def believe_parts(headings: list[Candidate]) -> tuple[list[Candidate], list[Candidate]]:
    """(headings without the unbelieved parts, the unbelieved part headings), text order."""
    chapters = [c for c in headings if c.level == "chapter"]
    first_chapter = min((c.start for c in chapters), default=None)
    rejected: list[Candidate] = []
    families = sorted({c.family for c in headings if c.level == "part"})
    for family in families:
        parts = [c for c in headings if c.level == "part" and c.family == family]
        chain = increasing_chain(parts)
        on_chain = [p for i, p in enumerate(parts) if i in chain or p.number is None]
        rejected.extend(p for p in parts if p not in on_chain)
        if first_chapter is None or on_chain[0].start < first_chapter:
            continue
        rejected.extend(p for p in on_chain if not _numbering_restarts(chapters, p.start))
    kept = [c for c in headings if not any(c is r for r in rejected)]
    return kept, sorted(rejected, key=lambda c: c.start)


def _numbering_restarts(chapters: list[Candidate], at: int) -> bool:
    """Whether the first numbered chapter after `at` is numbered at or below the last before it."""
    before = [c.number for c in chapters if c.start < at and c.number is not None]
    after = next((c.number for c in chapters if c.start > at and c.number is not None), None)
    if after is None:
        return False
    return not before or after <= before[-1]
