"""Site menus: a line of four or more short items separated by `|` (首页|原创书库|言情|…).

A shape, not a vocabulary: it finds menus of sites no table names. Counted as `site`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext

MENU = re.compile(r"[^|｜\n]{1,12}(?:[|｜][^|｜\n]{1,12}){3,}")


def find_nav_bars(context: AuditContext) -> Iterator[Finding]:
    for line in context.lines:
        stripped = line.text.strip()
        if stripped and MENU.fullmatch(stripped):
            start = line.start + line.text.index(stripped)
            yield Finding("site", snippet(context.text, start, start + len(stripped)))
