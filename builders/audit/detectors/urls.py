"""The `url` class: URLs, www addresses, bare domain names and e-mail addresses.

The patterns live in `cleaning/web_addresses.py` (cleaning uses them as evidence too);
full-width forms and the ideographic full stop as a dot count.
"""

from __future__ import annotations

from collections.abc import Iterator

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext
from lengthwise.builders.cleaning.web_addresses import URL, needs_translation, url_spans

__all__ = ["URL", "find_urls", "needs_translation", "url_spans"]


def find_urls(context: AuditContext) -> Iterator[Finding]:
    text = context.text
    for start, end in url_spans(text, needs_translation(text)):
        yield Finding("url", snippet(text, start, end))
