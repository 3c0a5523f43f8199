"""Lines that are only a page number: `12`, `- 12 -`, `[Page 12]`, `Page 12`, `第12页`.

Heading lines are skipped (a heading is never a page marker); `[Page 12]`/`[Pg 12]`
inside a line (HTML-to-text leftovers) counts too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext
from lengthwise.builders.audit.vocabulary import COMMON_PAGE_LINES

INLINE = re.compile(r"\[\s*(?:page|pg\.?)\s*\d{1,4}\s*\]", re.IGNORECASE)


@lru_cache(maxsize=16)
def _whole_line(patterns: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("(?:" + "|".join(patterns) + ")", re.IGNORECASE)


def find_page_markers(context: AuditContext) -> Iterator[Finding]:
    whole = _whole_line(COMMON_PAGE_LINES + context.profile.page_lines)
    for line in context.lines:
        stripped = line.text.strip()
        if not stripped or context.is_heading(line):
            continue
        if whole.fullmatch(stripped):
            start = line.start + line.text.index(stripped)
            yield Finding("page_marker", snippet(context.text, start, start + len(stripped)))
            continue
        for match in INLINE.finditer(line.text):
            start = line.start + match.start()
            yield Finding("page_marker", snippet(context.text, start, start + len(match.group())))
