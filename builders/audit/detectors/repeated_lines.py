"""Non-narrative lines recurring within one sample: running heads, watermarks, ad lines.

A line is narrative when it ends like a sentence or a clause (。！？：… . ! ? : ; , and
closing quotes or brackets after them): dialogue such as “Yes.” repeats legitimately,
and so do verse openers like 诗曰：. A line with no letter or ideograph (`* * *`) is a
separator, and a chapter heading is a heading. Anything else seen at least
`[audit] repeated_line_min` times is one finding.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from lengthwise.builders.audit.findings import Finding
from lengthwise.builders.audit.sample_audit import AuditContext, Line

SENTENCE_END = set("。！？：；，…—.!?:;,")
CLOSERS = "\"'”’」』）)]】》"


def is_narrative(line: str) -> bool:
    stripped = line.rstrip().rstrip(CLOSERS).rstrip()
    return not stripped or stripped[-1] in SENTENCE_END


def has_words(line: str) -> bool:
    return any(ch.isalpha() for ch in line)


def find_repeated_lines(context: AuditContext) -> Iterator[Finding]:
    counts = candidate_line_counts(context.lines)
    return repeated_line_findings(counts, context.heading_lines, context.config.repeated_line_min)


def candidate_line_counts(lines: Sequence[Line]) -> Counter[str]:
    """How often each stripped non-narrative line with words occurs, in first-seen order."""
    counts: Counter[str] = Counter()
    for line in lines:
        stripped = line.text.strip()
        if stripped:
            counts[stripped] += 1
    return Counter({t: c for t, c in counts.items() if has_words(t) and not is_narrative(t)})


def repeated_line_findings(
    counts: Mapping[str, int], headings: frozenset[str], minimum: int
) -> Iterator[Finding]:
    for text, count in counts.items():
        if count >= minimum and text not in headings:
            yield Finding("repeated_line", f"⟦{text[:80]}⟧ ×{count}")
