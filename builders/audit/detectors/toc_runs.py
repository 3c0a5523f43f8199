"""Contents lists left in the text: runs of consecutive short heading-like lines.

Heading-like: the language's heading shapes (第十回, CHAPTER X, ...) or numbered entries
(`IV. The Pool of Tears`), no longer than the language's heading limit. Blank lines
between entries do not break a run; any other line does. In a clean sample headings
are separated by chapter text, so a run of `[audit] toc_run_min` is a contents list
(or chapters that are empty). One finding per run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from lengthwise.builders.audit.findings import Finding
from lengthwise.builders.audit.sample_audit import AuditContext, Line
from lengthwise.builders.audit.vocabulary import COMMON_HEADING_LINES, LanguageProfile


@lru_cache(maxsize=16)
def _heading_start(patterns: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("(?:" + "|".join(patterns) + ")", re.IGNORECASE)


# A text's heading-like structure, enough to find runs across texts joined by a blank
# line: runs (count, first three stripped lines) and BREAK where another line ends a run.
# Adjacent runs are always merged, so each run is maximal.
BREAK = None
RunItem = tuple[int, tuple[str, ...]] | None


def find_toc_runs(context: AuditContext) -> Iterator[Finding]:
    items = heading_like_runs(context.lines, context.profile)
    return toc_run_findings(items, context.config.toc_run_min)


def heading_like_runs(lines: Sequence[Line], profile: LanguageProfile) -> list[RunItem]:
    pattern = _heading_start(COMMON_HEADING_LINES + profile.heading_lines)
    limit = profile.max_heading_chars
    items: list[RunItem] = []
    for line in lines:
        stripped = line.text.strip()
        if not stripped:
            continue  # blank lines do not break a run
        if len(stripped) <= limit and pattern.match(stripped):
            append_item(items, (1, (stripped,)))
        else:
            append_item(items, BREAK)
    return items


def append_item(items: list[RunItem], item: RunItem) -> None:
    """Append keeping runs maximal (adjacent runs merge) and no two breaks in a row.

    A leading break is kept: it stops a run of the text before from merging.
    """
    last = items[-1] if items else BREAK
    if item is BREAK:
        if not items or last is not BREAK:
            items.append(BREAK)
    elif last is not BREAK:
        items[-1] = (last[0] + item[0], (last[1] + item[1])[:3])
    else:
        items.append(item)


def toc_run_findings(items: Sequence[RunItem], minimum: int) -> Iterator[Finding]:
    for item in items:
        if item is not BREAK and item[0] >= minimum:
            yield _finding(item[0], item[1])


def _finding(count: int, first: tuple[str, ...]) -> Finding:
    shown = " ⏎ ".join(first)
    return Finding("toc_run", f"⟦{shown} ⏎ …⟧ {count} heading-like lines in a row")
