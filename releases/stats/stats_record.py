"""stats.json as typed records: what `lengthwise stats` writes and the release card reads.

Sections that are either computed or not carry their state in a literal field
(`computed`, `status`), so each shape is one TypedDict and a reader checks the state
before reading the figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from typing_extensions import TypedDict

from lengthwise.builders.sampling.length_tables import LengthRow
from lengthwise.json_records import JsonRecord
from lengthwise.llm.accounting import UsageJson


class Description(TypedDict):
    """n, mean, median, min, max of finite values (None fields when n is 0)."""

    n: int
    mean: float | None
    median: float | None
    min: float | None
    max: float | None


class SampleCoverageJson(TypedDict):
    id: str
    chunks: int
    ic: float | None
    verdicts: str  # one character per chunk: 0, 1 or - (no usable verdict)
    outcomes: dict[str, int]
    cut_at_max_tokens: int


class ICNotComputed(TypedDict):
    computed: Literal[False]
    reason: str


class ICComputed(TypedDict):
    computed: Literal[True]
    judge: str
    prompt_version: str
    samples: int
    samples_with_ic: int
    samples_without_verdict: int
    chunks: int
    verdicts: dict[str, int]
    unparseable: int
    answers_cut_at_max_tokens: int
    judge_calls: int
    cached_calls: int
    mean: float | None
    ci95: list[float] | None
    interval_method: str
    per_sample: list[SampleCoverageJson]


class Absent(TypedDict):
    """A section with nothing to describe yet, and why (never reported as zeros)."""

    status: Literal["absent"]
    reason: str


class SummariesPresent(TypedDict):
    status: Literal["present"]
    n: int  # samples with summary statistics
    without_summary: int
    skipped: dict[str, int]  # reason -> summaries without statistics
    metrics: dict[str, Description]  # summary_stats.METRICS


class AnnotationPresent(TypedDict):
    status: Literal["present"]
    agreement_rouge_l: Description
    copied_share: Description
    rewritten_share: Description
    annotations_per_sample: Description
    summary_sources: dict[str, int]


@dataclass
class SubsetStats:
    n: int
    samples_file: str | None  # relative to the work dir; None: no samples
    length_table: list[LengthRow]
    information_coverage: ICComputed | ICNotComputed
    summaries: SummariesPresent | Absent
    annotation: AnnotationPresent | Absent


class ICSettings(TypedDict):
    judge: str | None
    samples_per_subset: int
    chunk_tokens: int
    tokenizer: str
    prompt_version: str
    request_options: dict[str, int | float | str | None]


class StatsSettings(TypedDict):
    segmenter_zh: str
    seed: int
    ic: ICSettings
    uniformity: str
    fragments: str
    redundancy: str


@dataclass
class StatsReport(JsonRecord):
    stats_version: str
    spec: str
    spec_version: str
    settings: StatsSettings
    subsets: dict[str, SubsetStats] = field(default_factory=dict)
    usage: UsageJson | None = None  # the judge's, when there is one

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        if self.usage is None:
            del data["usage"]
        return data

    def had_failed_calls(self) -> bool:
        """Whether some judge call failed (the stage then reruns to retry them)."""
        for subset in self.subsets.values():
            ic = subset.information_coverage
            if ic["computed"] and any(
                key == "failed_error" and count for key, count in ic["verdicts"].items()
            ):
                return True
        return False
