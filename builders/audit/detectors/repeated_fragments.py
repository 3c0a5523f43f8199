"""The `repeated_fragment` class: the same sentence or bracketed aside glued into the text
again and again (`…他说。夜读时光提醒您：注意休息。行者…`, `… (Visit the Reading Room for
more classics.) …`).

Cleaning learns furniture that stands on its own lines; a site or converter that glues
its advert into the running text leaves no line to learn, and a held-out probe found such
fragments, hundreds per book, unseen by every other detector. This one needs no
vocabulary: a story does not repeat one long sentence verbatim every few pages.

The fragments are `cleaning.fragments`' (a sentence inside a line or a bracketed aside,
weighing 20, outside speech in Latin script); one counts when it is seen at least
`[audit] repeated_fragment_min` times and once per 20,000 characters of the sample: a
long book repeats its commonest sentences a few times each, furniture comes every few
pages. Cleaning removes such fragments where they recur through a whole book
(`common/glued-fragment`); this class shows what is left.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from lengthwise.builders.audit.findings import Finding
from lengthwise.builders.audit.sample_audit import AuditContext
from lengthwise.builders.cleaning.fragments import needed, recurring_fragments


def fragment_counts(text: str, minimum: int) -> dict[str, int]:
    """Fragments recurring as glued-in candidates often enough for a finding in `text`."""
    at_least = needed(len(text), minimum)
    return {fragment: len(spans) for fragment, spans in recurring_fragments(text, at_least).items()}


def repeated_fragment_findings(
    counts: Mapping[str, int], sample_length: int, minimum: int
) -> Iterator[Finding]:
    """One finding per fragment seen often enough in a sample of `sample_length`."""
    at_least = needed(sample_length, minimum)
    for fragment, count in counts.items():
        if count >= at_least:
            yield Finding("repeated_fragment", f"⟦{fragment[:80]}⟧ ×{count}")


def find_repeated_fragments(context: AuditContext) -> Iterator[Finding]:
    """One finding per fragment (a scan of the sample text: pieces per chapter would have
    to keep every sentence, since a fragment may come once per chapter)."""
    minimum = context.config.repeated_fragment_min
    counts = fragment_counts(context.text, minimum)
    return repeated_fragment_findings(counts, len(context.text), minimum)
