"""The build report as a typed record: what `lengthwise build` writes to build_report.json
and what the markdown report, the build's output, stats and the release card read back.

The JSON file holds `BuildReport.to_json()` inside the stage runner's envelope
(tool_version and fingerprint first, seconds last); `read_build_report` returns both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lengthwise.builders.audit.summary import AuditSummary
from lengthwise.builders.corpus_settings import BookReport
from lengthwise.builders.duplicates.stage import DuplicatesJson
from lengthwise.builders.sampling.length_tables import LengthRow
from lengthwise.builders.sampling.runs import DroppedRunJson
from lengthwise.builders.sampling.summary import SubsetSummary
from lengthwise.json_records import JsonRecord
from lengthwise.reports import StageReportJson
from lengthwise.stage_runner import Envelope
from lengthwise.storage import read_json
from lengthwise.store import MissingRecords
from lengthwise.workdir import WorkDir


@dataclass
class SubsetReport:
    """One subset: what selection picked (`selection`, after the audit's drops) and what
    left it: recounts outside the interval, refusals, audit drops."""

    selection: SubsetSummary
    recount_dropped: list[DroppedRunJson] = field(default_factory=list)
    refused_number_gaps: int = 0
    refused_copy_overlap: list[DroppedRunJson] = field(default_factory=list)
    audit_dropped: int = 0


@dataclass(frozen=True)
class EfficiencyRow:
    """Non-whitespace characters per token of one language under one tokenizer."""

    language: str
    tokenizer: str
    characters: int
    tokens: int
    chars_per_token: float | None


@dataclass
class BuildReport(JsonRecord):
    spec: str
    spec_version: str
    primary_tokenizer: str
    tokenizers: list[str]
    policy: str
    seed: int
    stages: dict[str, StageReportJson]  # sources, corpus, duplicates, screening
    duplicates: DuplicatesJson
    books: list[BookReport]
    subsets: dict[str, SubsetReport]
    length_table: list[LengthRow]
    encoding_efficiency: list[EfficiencyRow]
    audit: AuditSummary = field(default_factory=AuditSummary)
    # The books samples are cut from (after duplicate removal and probe exclusion): what
    # the task families build from too.
    sampled_books: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class BuildReportFile:
    """build_report.json as read back: the body and the runner's envelope."""

    body: BuildReport
    envelope: Envelope


def read_build_report(work: WorkDir) -> BuildReportFile:
    """WORK/build_report.json; MissingRecords when the build has not run."""
    path = work.build_report
    if not path.is_file():
        raise MissingRecords(f"{path}: no build report; run `lengthwise build SPEC` first")
    data = read_json(path)
    return BuildReportFile(BuildReport.from_json(data, str(path)), Envelope.of(data))
