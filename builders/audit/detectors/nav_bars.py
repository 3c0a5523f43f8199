"""Site menus: a line of four or more short items separated by `|` (首页|原创书库|言情|…).

A shape, not a vocabulary: it finds menus of sites no table names. Counted as `site`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext, Line

MENU = re.compile(r"[^|｜\n]{1,12}(?:[|｜][^|｜\n]{1,12}){3,}")


def find_nav_bars(context: AuditContext) -> Iterator[Finding]:
    for start, end in nav_bar_spans(context.lines):
        yield Finding("site", snippet(context.text, start, end))


def nav_bar_spans(lines: Sequence[Line]) -> list[tuple[int, int]]:
    spans = []
    for line in lines:
        stripped = line.text.strip()
        if stripped and MENU.fullmatch(stripped):
            start = line.start + line.text.index(stripped)
            spans.append((start, start + len(stripped)))
    return spans
