"""The card's sentence on where the reference summaries came from, counted by origin.

Generated from the released rows' own annotation metadata (`summaries.reference_origins`),
so a release made from an overrides file, imports or the synthetic demo never claims
that human annotators wrote its references.
"""

from __future__ import annotations

from lengthwise.releases.release.summaries import (
    ORIGIN_IMPORTED,
    ORIGIN_LABEL_STUDIO,
    ORIGIN_OVERRIDES,
    ORIGIN_SYNTHETIC,
    ORIGIN_UNRECORDED,
    ReferenceOrigins,
)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _origin_clause(origin: str, n: int, origins: ReferenceOrigins, drafts: str) -> str:
    if origin == ORIGIN_LABEL_STUDIO:
        return (
            f"{n} written by human annotation in Label Studio "
            f"({_plural(len(origins.annotators), 'annotator')}) following CNNSum's protocol: "
            f"the annotator reads the chapter drafts ({drafts}) in order, keeps the key plot "
            "points, merges them into one summary and rewrites it in their own words (no "
            "commentary), consulting the original chapters where drafts conflict"
        )
    if origin == ORIGIN_OVERRIDES:
        return (
            f"{n} from an overrides file (`lengthwise annotate review --overrides`): text "
            "given in the review file; who wrote it and how is not recorded"
        )
    if origin == ORIGIN_IMPORTED:
        return (
            f"{n} imported (`lengthwise annotate import`) from summaries written elsewhere; "
            "how they were written is not recorded"
        )
    if origin == ORIGIN_SYNTHETIC:
        return (
            f"{n} synthetic references from the demo corpus's own chapter synopses; "
            "no person wrote them"
        )
    assert origin == ORIGIN_UNRECORDED, origin
    return f"{n} with no record of their origin"


def references_sentence(origins: ReferenceOrigins, drafts_note: str | None) -> str:
    """Where the released references came from, counted by origin, and who reviewed."""
    total = sum(origins.counts.values())
    if total == 0:
        return "No sample has a reference summary."
    drafts = drafts_note or "drafts not recorded"
    order = [ORIGIN_LABEL_STUDIO, ORIGIN_OVERRIDES, ORIGIN_IMPORTED, ORIGIN_SYNTHETIC]
    clauses = [
        _origin_clause(origin, origins.counts[origin], origins, drafts)
        for origin in [*order, ORIGIN_UNRECORDED]
        if origins.counts.get(origin)
    ]
    reviewed = (
        f"Reviewed by {_plural(len(origins.reviewers), 'reviewer')} (names pseudonymised)."
        if origins.reviewers
        else "No reviewer is recorded."
    )
    return f"Reference summaries ({total}): " + "; ".join(clauses) + f". {reviewed}"
