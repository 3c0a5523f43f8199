"""The audit's entry in build_report.json: shares, per-class figures, worst samples, drops."""

from __future__ import annotations

from dataclasses import dataclass, field

from typing_extensions import TypedDict

from lengthwise.builders.audit.findings import SampleAuditJson
from lengthwise.json_records import JsonRecord
from lengthwise.spec import AuditConfig


class ClassFigures(TypedDict):
    samples: int  # samples with at least one finding of the class
    findings: int


class WorstSampleJson(SampleAuditJson):
    first_snippet: str


class AuditDropJson(TypedDict):
    id: str
    subset: str
    total: int
    reason: str


@dataclass
class AuditSummary(JsonRecord):
    """Kept samples' figures (`samples`, `with_findings`, `by_class`), the worst samples
    (dropped ones included) and every sample the audit dropped, with the reason."""

    file: str = "audit/samples.jsonl"
    settings: AuditConfig = field(default_factory=AuditConfig)
    samples: int = 0
    with_findings: int = 0
    share_with_findings: float | None = None
    by_class: dict[str, ClassFigures] = field(default_factory=dict)
    worst: list[WorstSampleJson] = field(default_factory=list)
    dropped: list[AuditDropJson] = field(default_factory=list)
