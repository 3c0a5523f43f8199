"""Lines that are only a page number: `12`, `- 12 -`, `[Page 12]`, `Page 12`, `第12页`.

Heading lines are skipped (a heading is never a page marker); `[Page 12]`/`[Pg 12]`
inside a line (HTML-to-text leftovers) counts too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext, Line
from lengthwise.builders.audit.vocabulary import COMMON_PAGE_LINES, LanguageProfile

INLINE = re.compile(r"\[\s*(?:page|pg\.?)\s*\d{1,4}\s*\]", re.IGNORECASE)


@lru_cache(maxsize=16)
def _whole_line(patterns: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("(?:" + "|".join(patterns) + ")", re.IGNORECASE)


def find_page_markers(context: AuditContext) -> Iterator[Finding]:
    for stripped, spans in page_marker_lines(context.lines, context.profile):
        if stripped in context.heading_lines:
            continue  # a heading is never a page marker
        for start, end in spans:
            yield Finding("page_marker", snippet(context.text, start, end))


def page_marker_lines(
    lines: Sequence[Line], profile: LanguageProfile
) -> list[tuple[str, list[tuple[int, int]]]]:
    """(stripped line, its marker spans) for every line holding a page marker."""
    whole = _whole_line(COMMON_PAGE_LINES + profile.page_lines)
    found: list[tuple[str, list[tuple[int, int]]]] = []
    for line in lines:
        stripped = line.text.strip()
        if not stripped:
            continue
        if whole.fullmatch(stripped):
            start = line.start + line.text.index(stripped)
            found.append((stripped, [(start, start + len(stripped))]))
            continue
        spans = [(line.start + m.start(), line.start + m.end()) for m in INLINE.finditer(line.text)]
        if spans:
            found.append((stripped, spans))
    return found
