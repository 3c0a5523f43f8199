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

import json
import logging
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lengthwise import __version__
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
from lengthwise.releases.stats.summary_stats import PairInput, aggregate, compute_pairs
from lengthwise.spec import LLMRoleConfig, Spec
from lengthwise.stage_state import (
    CompletionRecord,
    StageLock,
    crash_point,
    is_complete,
    remove_leftovers,
)
from lengthwise.storage import (
    atomic_write_json,
    atomic_write_jsonl,
    atomic_write_text,
    canonical_hash,
    read_json,
)
from lengthwise.text import segmenter_name
from lengthwise.workdir import StatsPaths as StatsPaths
from lengthwise.workdir import WorkDir

log = logging.getLogger(__name__)

# Bump when a statistic's definition changes, so old stats.json files are recomputed.
STATS_VERSION = "stats-v1"
ABSENT_SUMMARIES = {"status": "absent", "reason": "no reference summaries yet (annotation pending)"}


@dataclass
class StatsResult:
    paths: StatsPaths
    report: dict[str, Any]
    up_to_date: bool


@dataclass(frozen=True)
class JudgeSetup:
    """The IC judge (None when unavailable, with the reason) and its decoding options."""

    client: LLMClient | None = None
    unavailable_reason: str = NO_JUDGE_REASON
    request_options: Mapping[str, Any] | None = None
    config: LLMRoleConfig | None = None  # prices the judge's usage (spec's [llm.judge])


def _settings(spec: Spec, judge: JudgeSetup, ic_samples: int) -> dict[str, Any]:
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


def _previous_report(path: Path) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    try:
        data = read_json(path)
    except ValueError:
        return None  # a damaged file is simply recomputed
    return data if isinstance(data, dict) else None


def _had_failed_calls(report: dict[str, Any]) -> bool:
    for subset in report.get("subsets", {}).values():
        verdicts = subset.get("information_coverage", {}).get("verdicts", {})
        if any(key == "failed_error" and count for key, count in verdicts.items()):
            return True
    return False


def _summary_section(subset: SubsetRows, results: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    with_summary = subset.with_summary
    if not with_summary:
        return dict(ABSENT_SUMMARIES)
    rows = [results[r.id] for r in with_summary]
    skipped = Counter(r["error"] for r in rows if "error" in r)
    return {
        "status": "present",
        "n": len(with_summary) - sum(skipped.values()),
        "without_summary": len(subset.rows) - len(with_summary),
        "skipped": dict(skipped),
        "metrics": aggregate(rows),
    }


def _ic_section(
    spec: Spec, subset: SubsetRows, judge: JudgeSetup, ic_samples: int
) -> dict[str, Any]:
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
) -> StatsResult:
    """Compute and write the statistics of every subset of `spec` built in `work_dir`."""
    if ic_samples < 1:
        raise ValueError(f"--ic-samples must be at least 1, got {ic_samples}")
    paths = StatsPaths(Path(work_dir))
    with StageLock(paths.root, "stats"):
        remove_leftovers(paths.folder)
        return _stats(spec, paths, judge or JudgeSetup(), ic_samples, workers, force)


def _stats(
    spec: Spec,
    paths: StatsPaths,
    judge: JudgeSetup,
    ic_samples: int,
    workers: int | None,
    force: bool,
) -> StatsResult:
    build_report = read_build_report(paths.root)
    subsets = [read_subset(paths.root, s.name) for s in spec.subsets]
    settings = _settings(spec, judge, ic_samples)
    fingerprint = canonical_hash(
        {
            "stats": STATS_VERSION,
            "tool": __version__,
            "inputs": input_hashes(subsets),
            "build": build_report.get("fingerprint"),
            "settings": settings,
        }
    )
    previous = _previous_report(paths.json)
    outputs = [paths.samples, paths.markdown, paths.json]
    if (
        not force
        and previous is not None
        and is_complete(paths.root, "stats", fingerprint, outputs)
        and not _had_failed_calls(previous)
    ):
        log.info("statistics are up to date (%s)", paths.json)
        return StatsResult(paths, previous, up_to_date=True)

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
    results = dict(compute_pairs(pairs, workers))
    length_rows = build_report.get("length_table") or []
    report: dict[str, Any] = {
        "tool_version": __version__,
        "stats_version": STATS_VERSION,
        "spec": spec.name,
        "spec_version": spec.version,
        "fingerprint": fingerprint,
        "settings": settings,
        "subsets": {},
    }
    for subset in subsets:
        report["subsets"][subset.name] = {
            "n": len(subset.rows),
            "samples_file": str(subset.path.relative_to(paths.root)) if subset.path else None,
            "length_table": [r for r in length_rows if r.get("subset") == subset.name],
            "information_coverage": _ic_section(spec, subset, judge, ic_samples),
            "summaries": _summary_section(subset, results),
            "annotation": annotation_figures(subset.rows),
        }
    if ledger is not None:
        report["usage"] = ledger.report()
    sample_rows = [
        {"subset": subset.name, "id": pair_id, **results[pair_id]}
        for subset in subsets
        for row in subset.with_summary
        if (pair_id := row.id) in results
    ]
    atomic_write_jsonl(paths.samples, sample_rows)
    crash_point("stats:samples-written")
    atomic_write_text(paths.markdown, render_stats_markdown(report))
    atomic_write_json(paths.json, json.loads(json.dumps(report, allow_nan=False)))
    # Last: the outputs' hashes mark the statistics complete for this fingerprint.
    CompletionRecord.write(paths.root, "stats", fingerprint, outputs)
    return StatsResult(paths, report, up_to_date=False)
