"""The contamination report (WORK/screening/contamination.json) as a typed record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lengthwise.builders.screening.decision import EvidenceJson, ProbeOutput, ProbeThresholds
from lengthwise.json_records import JsonRecord
from lengthwise.llm.accounting import UsageJson

# Written only when the probe ran.
RUN_ONLY = ("model", "base_url", "revision", "prompt_versions", "usage")


@dataclass
class ProbedBook:
    book_id: str
    title: str
    author: str | None
    language: str
    chapters: int
    flagged: bool
    probed: bool
    reasons: list[str]
    evidence: EvidenceJson
    outputs: list[ProbeOutput]


@dataclass
class ProbeReport(JsonRecord):
    """`status` is "run" or "not run" (with the `reason`); `flagged` maps book id -> reason."""

    method: str
    chapters_per_book: int
    seed: int
    thresholds: ProbeThresholds
    status: str
    reason: str | None
    model: str | None = None
    base_url: str | None = None
    revision: str | None = None
    prompt_versions: dict[str, str] | None = None
    books: list[ProbedBook] = field(default_factory=list)
    flagged: dict[str, str] = field(default_factory=dict)
    usage: UsageJson | None = None
    stage: str = "contamination-probe"

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data = {"stage": data.pop("stage"), **data}
        if self.status != "run":
            for key in RUN_ONLY:
                del data[key]
        return data
