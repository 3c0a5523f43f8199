"""Is this book a collection of separate stories rather than one novel?

A heuristic, because nothing in a plain text says so outright. A book is flagged when
1. its chapter headings use a story keyword (ADVENTURE, STORY, TALE), as in
   `ADVENTURE I. A SCANDAL IN BOHEMIA`, or are 卷 each with a title of its own
   (`第一卷 轉運漢遇巧洞庭紅`); or
2. its chapters all carry distinct titles and at least two of them restart their own
   section numbering (`I.`, `II.`, ... inside the chapter), as stories in a volume do.
Story collections matter downstream: a sample spanning two stories has no single plot.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from lengthwise.builders.chapters.model import Candidate, DetectedChapter

STORY_KEYWORDS = ("ADVENTURE", "STORY", "TALE")
VOLUME_UNIT = "卷"
_TITLED_SHARE = 0.9  # of 卷 with a title (one may have lost it to the line below)
MIN_CHAPTERS_WITH_SECTIONS = 2


def story_collection(
    chapters: Sequence[DetectedChapter],
    spans: Sequence[tuple[int, int]],
    families: Sequence[str],
    sections: Sequence[Candidate],
) -> tuple[bool, str | None]:
    """(flag, reason) for detected chapters.

    `spans`: each chapter's (start, end) offsets in the text; `families`: the heading
    keywords the chapters use; `sections`: untitled bare numbers found in the text.
    """
    numbered = [c for c in chapters if c.kind == "chapter"]
    numbered_spans = [s for c, s in zip(chapters, spans, strict=True) if c.kind == "chapter"]
    titles = [c.title.strip().lower() for c in numbered]
    distinct = bool(titles) and all(titles) and len(set(titles)) == len(titles)
    for keyword in STORY_KEYWORDS:
        if keyword in families:
            detail = "with unrelated titles" if distinct else "(one story per heading)"
            return True, f"{keyword} headings {detail}"
    titled = [t for t in titles if t]
    if (
        list(families) == [VOLUME_UNIT]
        and len(titled) >= max(2, _TITLED_SHARE * len(titles))
        and len(set(titled)) == len(titled)
    ):
        # 卷 as the unit, each with a title of its own (初刻拍案驚奇, 今古奇觀): a story
        # per 卷. (A novel's 卷 hold its 回; where they are the only heading they are
        # untitled or share a title.)
        return True, f"{len(numbered)} {VOLUME_UNIT} headings, each with its own title"
    if len(numbered) < 2 or not distinct:
        return False, None
    starts = [s.start for s in sections]  # sections come in text order
    restarting = sum(1 for span in numbered_spans if _restarts_sections(span, sections, starts))
    if restarting >= MIN_CHAPTERS_WITH_SECTIONS:
        return True, (
            f"{restarting} chapters with distinct titles each restart their own "
            "section numbering (I, II, ...)"
        )
    return False, None


def _restarts_sections(
    span: tuple[int, int], sections: Sequence[Candidate], starts: Sequence[int]
) -> bool:
    """Whether the chapter's span holds untitled section numbers 1, 2, ... in order."""
    first = bisect.bisect_right(starts, span[0])
    numbers = [s.number for s in sections[first : first + 2] if s.start < span[1]]
    return numbers == [1, 2]
