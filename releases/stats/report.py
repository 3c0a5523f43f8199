"""`lengthwise stats`: dataset statistics per subset into WORK/stats/.

Writes stats.json (figures per subset), stats.md (the same for people, embedded in the
dataset card) and samples.jsonl (per-sample summary statistics). Per subset: sample
count, the build's length table rows, information coverage (or why it was not
computed), summary statistics once reference summaries exist (reported as absent
before, never as zero) and annotation figures.

Idempotent and resumable: nothing in stats.json depends on the clock, files are
written atomically, judge calls go through the request cache, and a rerun whose
inputs and settings are unchanged (fingerprint) does nothing unless some judge call
failed last time (those are retried).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lengthwise import __version__
from lengthwise.errors import UserError
from lengthwise.executors import ExecutorConfig
from lengthwise.llm.accounting import MeteredClient, UsageLedger
from lengthwise.llm.types import LLMClient
from lengthwise.llm.usage_journal import UsageJournal
from lengthwise.releases.stats.annotation_figures import annotation_figures
from lengthwise.releases.stats.chunking import DEFAULT_CHUNK_TOKENS
from lengthwise.releases.stats.information_coverage import (
    DEFAULT_IC_SAMPLES,
    NO_JUDGE_REASON,
    ICSample,
    information_coverage,
    not_computed,
    pick_samples,
)
from lengthwise.releases.stats.inputs import (
    SubsetRows,
    input_hashes,
    language_of,
    read_build_report,
    read_subset,
    summary_of,
)
from lengthwise.releases.stats.judge_prompts import PROMPT_VERSION
from lengthwise.releases.stats.markdown import render_stats_markdown
from lengthwise.releases.stats.stats_record import (
    Absent,
    ICComputed,
    ICNotComputed,
    StatsReport,
    StatsSettings,
    SubsetStats,
    SummariesPresent,
)
from lengthwise.releases.stats.summary_stats import (
    PairInput,
    PairResult,
    PairSkipped,
    aggregate,
    compute_pairs,
)
from lengthwise.spec import LLMRoleConfig, Spec
from lengthwise.stage_runner import Envelope, Stage, StagePlan, run_stage
from lengthwise.stage_state import crash_point, remove_leftovers
from lengthwise.storage import (
    atomic_write_jsonl,
    canonical_hash,
    read_json,
)
from lengthwise.text import segmenter_name
from lengthwise.workdir import StatsPaths as StatsPaths
from lengthwise.workdir import WorkDir

log = logging.getLogger(__name__)

# Bump when a statistic's definition changes, so old stats.json files are recomputed.
STATS_VERSION = "stats-v1"
ABSENT_SUMMARIES: Absent = {
    "status": "absent",
    "reason": "no reference summaries yet (annotation pending)",
}


@dataclass
class StatsResult:
    paths: StatsPaths
    report: StatsReport
    up_to_date: bool


@dataclass(frozen=True)
class JudgeSetup:
    """The IC judge (None when unavailable, with the reason) and its decoding options."""

    client: LLMClient | None = None
    unavailable_reason: str = NO_JUDGE_REASON
    request_options: Mapping[str, Any] | None = None
    config: LLMRoleConfig | None = None  # prices the judge's usage (spec's [llm.judge])


def _settings(spec: Spec, judge: JudgeSetup, ic_samples: int) -> StatsSettings:
    return {
        "segmenter_zh": segmenter_name(),
        "seed": spec.seed,
        "ic": {
            "judge": judge.client.name if judge.client else None,
            "samples_per_subset": ic_samples,
            "chunk_tokens": DEFAULT_CHUNK_TOKENS,
            "tokenizer": spec.tokenizers.primary,
            "prompt_version": PROMPT_VERSION,
            "request_options": dict(judge.request_options or {}),
        },
        "uniformity": "top 20 summary words by TF-IDF (idf over 500-word blocks of the "
        "source), all their occurrences, 10 equal bins, entropy / log(10)",
        "fragments": "Grusky et al. greedy fragments over jieba/English words",
        "redundancy": "mean ROUGE-L F1 over summary sentence pairs (0 below 2 sentences)",
    }


def _previous_report(path: Path) -> StatsReport | None:
    if not path.is_file():
        return None
    try:
        return StatsReport.from_json(read_json(path), str(path))
    except ValueError:  # InputFileError included
        return None  # a damaged or outdated file is simply recomputed


def _summary_section(
    subset: SubsetRows, results: Mapping[str, PairResult]
) -> SummariesPresent | Absent:
    with_summary = subset.with_summary
    if not with_summary:
        return Absent(status="absent", reason=ABSENT_SUMMARIES["reason"])
    rows = [results[r.id] for r in with_summary]
    skipped = Counter(r.error for r in rows if isinstance(r, PairSkipped))
    return {
        "status": "present",
        "n": len(with_summary) - sum(skipped.values()),
        "without_summary": len(subset.rows) - len(with_summary),
        "skipped": dict(skipped),
        "metrics": aggregate(rows),
    }


def _ic_section(
    spec: Spec, subset: SubsetRows, judge: JudgeSetup, ic_samples: int
) -> ICComputed | ICNotComputed:
    if judge.client is None:
        return not_computed(judge.unavailable_reason)
    if not subset.rows:
        return not_computed("the subset has no samples")
    from lengthwise.tokenizers import get_tokenizer

    by_id = {r.id: r for r in subset.rows}
    chosen = pick_samples(list(by_id), ic_samples, spec.seed, subset.name)
    samples = [ICSample(i, by_id[i].text, language_of(by_id[i])) for i in chosen]
    return information_coverage(
        samples,
        judge.client,
        get_tokenizer(spec.tokenizers.primary),
        seed=spec.seed,
        request_options=judge.request_options,
    )


def run_stats(
    spec: Spec,
    work_dir: Path,
    *,
    judge: JudgeSetup | None = None,
    ic_samples: int = DEFAULT_IC_SAMPLES,
    workers: int | None = None,
    force: bool = False,
    executor: ExecutorConfig | None = None,
) -> StatsResult:
    """Compute and write the statistics of every subset of `spec` built in `work_dir`.

    The per-sample summary statistics run on `executor` (default: the spec's
    `[executor]`); it enters no fingerprint, since it changes no output.
    """
    if ic_samples < 1:
        raise UserError(f"--ic-samples must be at least 1, got {ic_samples}")
    stage = StatsStage(spec, StatsPaths(Path(work_dir)), judge or JudgeSetup(), ic_samples)
    stage.workers, stage.force = workers, force
    stage.executor = executor or spec.executor
    run = run_stage(stage)
    return StatsResult(stage.paths, run.body, up_to_date=run.up_to_date)


@dataclass
class StatsStage(Stage[list[SubsetRows], StatsReport]):
    spec: Spec
    paths: StatsPaths
    judge: JudgeSetup
    ic_samples: int
    workers: int | None = None
    force: bool = False
    executor: ExecutorConfig | None = None  # where the summary statistics run
    body_type = StatsReport
    name = "stats"
    timed = False  # stats.json is copied into releases: no timing in it

    def __post_init__(self) -> None:
        self.root = self.paths.root
        self.report_json, self.report_markdown = self.paths.json, self.paths.markdown

    def clear_leftovers(self) -> None:
        remove_leftovers(self.paths.folder)

    def plan(self) -> StagePlan[list[SubsetRows]]:
        build_report = read_build_report(self.root)
        subsets = [read_subset(self.root, s.name) for s in self.spec.subsets]
        fingerprint = canonical_hash(
            {
                "stats": STATS_VERSION,
                "tool": __version__,
                "inputs": input_hashes(subsets),
                "build": build_report.envelope.fingerprint,
                "settings": _settings(self.spec, self.judge, self.ic_samples),
            }
        )
        previous = _previous_report(self.paths.json)
        rerun = self.force or previous is None or previous.had_failed_calls()
        return StagePlan(subsets, fingerprint, [self.paths.samples], rerun=rerun)

    def render_body(self, body: StatsReport, envelope: Envelope) -> str:
        return render_stats_markdown(body, envelope)

    def compute(self, plan: StagePlan[list[SubsetRows]]) -> StatsReport:
        spec, paths, judge, subsets = self.spec, self.paths, self.judge, plan.inputs
        ledger = None
        if judge.client is not None:  # judge usage of every invocation, killed ones included
            ledger = UsageLedger(UsageJournal(WorkDir(paths.root).usage_journal("stats")))
            config = judge.config or LLMRoleConfig(model=judge.client.name)
            judge = replace(judge, client=MeteredClient(judge.client, ledger, "judge", config))
        # Summary statistics first: worker processes are forked before any judge thread runs.
        pairs = [
            PairInput(
                id=row.id,
                group=row.book_id or row.id,
                lang=language_of(row),
                source=row.text,
                summary=summary,
            )
            for subset in subsets
            for row in subset.rows
            if (summary := summary_of(row)) is not None
        ]
        with self.display.step("summary statistics", total=len(pairs), unit="pair") as step:
            results: dict[str, PairResult] = {}
            for pair_id, result in compute_pairs(pairs, self.workers, self.executor):
                results[pair_id] = result
                step.advance()
        length_rows = read_build_report(paths.root).body.length_table
        settings = _settings(spec, self.judge, self.ic_samples)
        report = StatsReport(STATS_VERSION, spec.name, spec.version, settings)
        step = self.display.step("information coverage", total=len(subsets), unit="subset")
        for subset in subsets:
            report.subsets[subset.name] = SubsetStats(
                n=len(subset.rows),
                samples_file=str(subset.path.relative_to(paths.root)) if subset.path else None,
                length_table=[r for r in length_rows if r.subset == subset.name],
                information_coverage=_ic_section(spec, subset, judge, self.ic_samples),
                summaries=_summary_section(subset, results),
                annotation=annotation_figures(subset.rows),
            )
            step.advance()
        step.close()
        if ledger is not None:
            report.usage = ledger.usage_json()
        sample_rows = [
            {"subset": subset.name, "id": pair_id, **results[pair_id].to_json()}
            for subset in subsets
            for row in subset.with_summary
            if (pair_id := row.id) in results
        ]
        atomic_write_jsonl(paths.samples, sample_rows)
        crash_point("stats:samples-written")
        return report
