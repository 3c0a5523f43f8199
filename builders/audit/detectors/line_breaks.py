"""The `line_break` class: line breaks inside sentences, left by a hard wrap that
cleaning did not undo (zh and en; the test is `cleaning.cjk_wrap.in_sentence_breaks`).

The sample's chapter headings are no breaks (a heading ends on an ideograph and its text
starts on the next line). A sample is reported only with `MIN_BREAKS` or more: a letter
or a poem quoted in the story breaks a line inside a sentence now and then on purpose; a
wrap does it on every line of a page.
"""

from __future__ import annotations

from collections.abc import Iterator

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext
from lengthwise.builders.cleaning.cjk_wrap import in_sentence_breaks

MIN_BREAKS = 5


def find_line_breaks(context: AuditContext) -> Iterator[Finding]:
    """One finding per in-sentence line break of a sample holding `MIN_BREAKS` or more."""
    language = "en" if context.language == "en" else "zh"
    if context.language not in ("en", "zh", "ja"):
        return
    text = context.text
    # A chapter heading ends on an ideograph and its text follows on the next line.
    breaks = [
        at
        for at in in_sentence_breaks(text, language)
        if text[text.rfind("\n", 0, at) + 1 : at].strip() not in context.heading_lines
    ]
    if len(breaks) < MIN_BREAKS:
        return
    for at in breaks:
        yield Finding("line_break", snippet(text, at, at + 1))
