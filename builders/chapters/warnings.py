"""Structure doubts worth a person's look: odd chapter lengths, headings holding body text,
and heading lines kept inside chapters.

None of these changes the chapters; they are listed in `ChapterDetection.warnings`, which the
corpus stage copies into the book report (inspect, build output, build_report.md).
"""

from __future__ import annotations

import re
import statistics

from lengthwise.builders.chapters.model import Candidate, ChapterDetection

LONG_FACTOR = 5.0  # a chapter over 5x the median length
SHORT_FACTOR = 0.1  # or under a tenth of it
MIN_CHAPTERS_FOR_OUTLIERS = 5
MAX_TITLE_CHARS = {"en": 100, "zh": 40}
EXAMPLES = 3
# A sentence end followed by a lowercase word: the heading ran on into the first sentence.
_EN_SENTENCE_IN_TITLE = re.compile(r"[.!?]['\"”’)]?\s+[a-z]")
_ZH_SENTENCE_IN_TITLE = re.compile(r"[。！？；，：]")


def inner_headings(
    headings: list[Candidate], accepted: list[Candidate], rejected_parts: list[Candidate]
) -> list[Candidate]:
    """Headings on lines of their own that were not believed, in text order."""
    taken = {id(c) for c in accepted}
    starts = {c.start for c in accepted}
    inner = [
        c
        for c in headings
        if c.level == "chapter" and c.strong and id(c) not in taken and c.start not in starts
    ]
    return sorted(inner + rejected_parts, key=lambda c: c.start)


def holds_body_text(title: str, is_zh: bool) -> bool:
    """Whether a heading's title looks like it took in body text (too long, a sentence)."""
    limit = MAX_TITLE_CHARS["zh" if is_zh else "en"]
    if len(title) > limit:
        return True
    pattern = _ZH_SENTENCE_IN_TITLE if is_zh else _EN_SENTENCE_IN_TITLE
    return pattern.search(title) is not None


def structure_warnings(detection: ChapterDetection, inner: list[Candidate]) -> list[str]:
    """Readable warnings for one detection (empty when nothing looks odd)."""
    warnings = _length_outliers(detection)
    is_zh = any(c.heading.startswith(("第", "地")) for c in detection.chapters)
    bodied = [c.heading for c in detection.chapters if holds_body_text(c.title, is_zh)]
    if bodied:
        warnings.append(
            f"{len(bodied)} heading(s) seem to hold body text (too long or a sentence): "
            + "; ".join(_short(h) for h in bodied[:EXAMPLES])
        )
    if inner:
        warnings.append(
            f"{len(inner)} heading line(s) inside chapters do not continue the numbering and "
            "stay in the chapter's body: " + "; ".join(_short(c.heading) for c in inner[:EXAMPLES])
        )
    return warnings


def _length_outliers(detection: ChapterDetection) -> list[str]:
    numbered = [(i, c) for i, c in enumerate(detection.chapters) if c.kind in ("chapter", "letter")]
    if len(numbered) < MIN_CHAPTERS_FOR_OUTLIERS:
        return []
    median = statistics.median(len(c.text) for _, c in numbered)
    long = [(i, c) for i, c in numbered if len(c.text) > LONG_FACTOR * median]
    short = [(i, c) for i, c in numbered if len(c.text) < SHORT_FACTOR * median]
    warnings: list[str] = []
    for found, what in ((long, f"over {LONG_FACTOR:g}x"), (short, f"under {SHORT_FACTOR:g}x")):
        if found:
            shown = "; ".join(
                f"#{i} {_short(c.heading)} ({len(c.text):,} chars)" for i, c in found[:EXAMPLES]
            )
            warnings.append(
                f"{len(found)} chapter(s) {what} the median length ({median:,.0f} chars): {shown}"
            )
    return warnings


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
