"""Chapter headings longer than the language's limit: body text glued to a heading."""

from __future__ import annotations

from collections.abc import Iterator

from lengthwise.builders.audit.findings import Finding
from lengthwise.builders.audit.sample_audit import AuditContext


def find_long_headings(context: AuditContext) -> Iterator[Finding]:
    limit = context.profile.max_heading_chars
    for title in context.chapter_titles:
        if len(title.strip()) > limit:
            yield Finding("long_heading", f"⟦{title.strip()[:120]}⟧ ({len(title.strip())} chars)")
