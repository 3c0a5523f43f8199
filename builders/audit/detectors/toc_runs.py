"""Contents lists left in the text: runs of consecutive short heading-like lines.

Heading-like: the language's heading shapes (第十回, CHAPTER X, ...) or numbered entries
(`IV. The Pool of Tears`), no longer than the language's heading limit. Blank lines
between entries do not break a run; any other line does. In a clean sample headings
are separated by chapter text, so a run of `[audit] toc_run_min` is a contents list
(or chapters that are empty). One finding per run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from lengthwise.builders.audit.findings import Finding
from lengthwise.builders.audit.sample_audit import AuditContext, Line
from lengthwise.builders.audit.vocabulary import COMMON_HEADING_LINES


@lru_cache(maxsize=16)
def _heading_start(patterns: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("(?:" + "|".join(patterns) + ")", re.IGNORECASE)


def find_toc_runs(context: AuditContext) -> Iterator[Finding]:
    pattern = _heading_start(COMMON_HEADING_LINES + context.profile.heading_lines)
    limit = context.profile.max_heading_chars
    run: list[Line] = []
    for line in [*context.lines, Line(-1, -1, "end of sample")]:
        stripped = line.text.strip()
        if not stripped:
            continue
        if len(stripped) <= limit and pattern.match(stripped):
            run.append(line)
            continue
        if len(run) >= context.config.toc_run_min:
            yield _finding(run)
        run = []


def _finding(run: list[Line]) -> Finding:
    shown = " ⏎ ".join(line.text.strip() for line in run[:3])
    return Finding("toc_run", f"⟦{shown} ⏎ …⟧ {len(run)} heading-like lines in a row")
