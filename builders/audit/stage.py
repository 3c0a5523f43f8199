"""The audit as a build stage: audit every selected sample, apply `[audit] max_findings`.

Writes WORK/audit/samples.jsonl (one record per selected sample, dropped ones included
with their reason) and returns the summary that goes into build_report.json. With
`action = "drop"` samples above the limit leave their subset (counted, with the reason);
with `action = "refuse"` the build stops with one line naming the worst sample.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lengthwise.builders.audit.findings import FINDING_CLASSES, SampleAudit, SampleAuditJson
from lengthwise.builders.audit.piece_cache import PieceStore
from lengthwise.builders.audit.reuse import audit_rows, audit_samples
from lengthwise.builders.audit.summary import AuditSummary
from lengthwise.errors import UserError
from lengthwise.executors import ExecutorConfig, make_executor
from lengthwise.json_records import validate_json
from lengthwise.records import Book, Sample
from lengthwise.spec import AuditConfig
from lengthwise.storage import atomic_write_jsonl, read_jsonl
from lengthwise.workdir import WorkDir

WORST_SHOWN = 10
PIECES_FILE = "audit_pieces.sqlite"  # in WORK/cache


class AuditRefused(UserError):
    """`[audit] action = "refuse"` and a sample has more findings than allowed."""


def audit_file(work_root: Path) -> Path:
    return WorkDir(work_root).audit_samples


@dataclass
class AuditOutcome:
    kept: dict[str, list[Sample]]  # subset -> samples still selected
    audits: list[SampleAudit]
    summary: AuditSummary


def run_audit(
    subset_rows: dict[str, list[Sample]],
    config: AuditConfig,
    work_root: Path,
    books: Mapping[str, Book] | None = None,
    cache_dir: Path | None = None,
    executor: ExecutorConfig | None = None,
    workers: int | None = None,
) -> AuditOutcome:
    """Audit every row; with `books`, from cached per-chapter pieces (same records, faster).

    The detectors run on `executor` (the spec's `[executor]`: local processes by default,
    or Ray) with `workers` calls in flight; the records are the same either way.
    """
    rows = [row for rows in subset_rows.values() for row in rows]
    runner = make_executor(executor, workers)
    if books is None:
        audits = audit_samples([(row, None, None) for row in rows], config, runner)
    else:
        store = PieceStore(cache_dir / PIECES_FILE if cache_dir is not None else None)
        try:
            audits = audit_rows(rows, books, config, store, runner)
        finally:
            store.close()
    over = _over_limit(audits, config)
    if over and config.action == "refuse":
        atomic_write_jsonl(audit_file(work_root), (a.to_dict() for a in audits))
        worst = max(over, key=lambda a: a.total)
        raise AuditRefused(
            f"[audit] max_findings = {config.max_findings}: {len(over)} sample(s) above it, "
            f"worst {worst.id} with {worst.total} ({_counts_text(worst)}); "
            f"see {audit_file(work_root)}"
        )
    for audit in over:
        audit.dropped = f"{audit.total} audit findings > max_findings {config.max_findings}"
    dropped_ids = {a.id for a in over}
    kept = {
        name: [r for r in rows if r.id not in dropped_ids] for name, rows in subset_rows.items()
    }
    atomic_write_jsonl(audit_file(work_root), (a.to_dict() for a in audits))
    return AuditOutcome(kept, audits, summarize(audits, config))


def read_audits(work_root: Path) -> list[SampleAudit]:
    path = audit_file(work_root)
    return [
        SampleAudit.from_dict(validate_json(SampleAuditJson, row, f"{path}:{number}"))
        for number, row in enumerate(read_jsonl(path), start=1)
    ]


def _over_limit(audits: list[SampleAudit], config: AuditConfig) -> list[SampleAudit]:
    if config.max_findings is None:
        return []
    return [a for a in audits if a.total > config.max_findings]


def _counts_text(audit: SampleAudit) -> str:
    return ", ".join(f"{k} {v}" for k, v in audit.counts.items() if v) or "none"


def summarize(audits: list[SampleAudit], config: AuditConfig) -> AuditSummary:
    """The build report's `audit` entry: shares, per-class figures, worst samples, drops."""
    kept = [a for a in audits if a.dropped is None]
    with_findings = [a for a in kept if a.total]
    worst = sorted(audits, key=lambda a: (-a.total, a.id))[:WORST_SHOWN]
    return AuditSummary(
        settings=config,
        samples=len(kept),
        with_findings=len(with_findings),
        share_with_findings=round(len(with_findings) / len(kept), 4) if kept else None,
        by_class={
            kind: {
                "samples": sum(1 for a in kept if a.counts[kind]),
                "findings": sum(a.counts[kind] for a in kept),
            }
            for kind in FINDING_CLASSES
        },
        worst=[{**a.to_dict(), "first_snippet": a.first_snippet()} for a in worst if a.total],
        dropped=[
            {"id": a.id, "subset": a.subset, "total": a.total, "reason": a.dropped}
            for a in audits
            if a.dropped is not None
        ],
    )
