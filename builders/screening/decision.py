"""Whether the probe outputs of one book say that the probe model knows the book.

A book is flagged when any output names its title or author (`mentions`), or when the
outputs bring in many names the probed chapters do not contain (`entities`): at least
`min_unsupported` distinct unsupported names that make up at least
`min_unsupported_share` of all distinct names in the outputs. Both conditions guard
against one paraphrased name or one tagging error flagging a book. Outputs whose outcome
is not ok/length carry no evidence; a book with no usable output is "not probed".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from typing_extensions import TypedDict

USABLE_OUTCOMES = frozenset({"ok", "length"})


@dataclass(frozen=True)
class ProbeThresholds:
    min_unsupported: int = 3
    min_unsupported_share: float = 0.3


@dataclass
class ProbeOutput:
    chapter_index: int
    heading: str
    outcome: str
    text: str
    usage: dict[str, int]
    error: str | None = None
    mentions: list[dict[str, str]] = field(default_factory=list)  # {"kind", "name"}
    names: list[str] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    truncated: bool = False  # the chapter was cut to fit the context window


class MentionJson(TypedDict):
    chapter_index: int
    kind: str  # "title" or "author"
    name: str


class UnsupportedNamesJson(TypedDict):
    chapter_index: int
    names: list[str]


class EvidenceJson(TypedDict, total=False):
    """What a decision rests on; empty for a book with no usable output."""

    mentions: list[MentionJson]
    unsupported_names: list[UnsupportedNamesJson]
    names: int
    unsupported: int
    unsupported_share: float


@dataclass(frozen=True)
class BookDecision:
    flagged: bool
    probed: bool
    reasons: list[str]
    evidence: EvidenceJson


def decide(outputs: list[ProbeOutput], thresholds: ProbeThresholds) -> BookDecision:
    usable = [o for o in outputs if o.outcome in USABLE_OUTCOMES]
    if not usable:
        outcomes = sorted({o.outcome for o in outputs})
        return BookDecision(
            flagged=False,
            probed=False,
            reasons=[f"not probed: no usable output (outcomes: {', '.join(outcomes) or 'none'})"],
            evidence={},
        )
    reasons: list[str] = []
    mentions: list[MentionJson] = [
        {"chapter_index": o.chapter_index, "kind": m["kind"], "name": m["name"]}
        for o in usable
        for m in o.mentions
    ]
    for kind in ("title", "author"):
        hits = [m for m in mentions if m["kind"] == kind]
        if hits:
            chapters = sorted({m["chapter_index"] for m in hits})
            reasons.append(f"names the {kind} {hits[0]['name']!r} (chapters {chapters})")
    names = _distinct(n for o in usable for n in o.names)
    unsupported = _distinct(n for o in usable for n in o.unsupported)
    share = len(unsupported) / len(names) if names else 0.0
    if len(unsupported) >= thresholds.min_unsupported and share >= thresholds.min_unsupported_share:
        reasons.append(
            f"adds names not in the probed chapters: {len(unsupported)} of {len(names)} "
            f"({share:.0%}), e.g. {', '.join(unsupported[:5])}"
        )
    evidence: EvidenceJson = {
        "mentions": mentions,
        "unsupported_names": [
            {"chapter_index": o.chapter_index, "names": o.unsupported}
            for o in usable
            if o.unsupported
        ],
        "names": len(names),
        "unsupported": len(unsupported),
        "unsupported_share": round(share, 3),
    }
    return BookDecision(flagged=bool(reasons), probed=True, reasons=reasons, evidence=evidence)


def _distinct(items: Iterable[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out
