"""Release-area subcommands: `lengthwise stats`."""

from __future__ import annotations

import argparse
import time
from typing import Any

from lengthwise.cli_options import (
    EXECUTOR_OPTIONS,
    STAGE_OPTIONS,
    WORKERS,
    Command,
    add_commands,
    executor_from_args,
    opt,
)
from lengthwise.releases.stats.information_coverage import DEFAULT_IC_SAMPLES
from lengthwise.spec import load_spec


def register(subparsers: Any) -> None:
    add_commands(subparsers, COMMANDS)


def _stats(args: argparse.Namespace) -> int:
    from lengthwise.releases.stats.judge_client import OpenJudge
    from lengthwise.releases.stats.report import JudgeSetup, run_stats
    from lengthwise.workdir import default_work_dir

    spec = load_spec(args.spec)
    work_dir = args.work or default_work_dir(spec)
    started = time.perf_counter()
    with OpenJudge(spec, work_dir) as judge:
        setup = (
            JudgeSetup(
                judge.client, request_options=judge.request_options(spec), config=spec.llm.judge
            )
            if judge.client is not None
            else JudgeSetup(unavailable_reason=judge.reason or "")
        )
        result = run_stats(
            spec,
            work_dir,
            judge=setup,
            ic_samples=args.ic_samples,
            workers=args.workers,
            force=args.force,
            executor=executor_from_args(args, spec.executor),
        )
    for name, subset in result.report.subsets.items():
        ic = subset.information_coverage
        ic_text = (
            "IC not computed"
            if not ic["computed"]
            else "IC: no parseable verdict"
            if ic["mean"] is None
            else f"IC {ic['mean']:.3f}"
        )
        summaries = subset.summaries
        summary_text = (
            f"{summaries['n']} summaries"
            if summaries["status"] == "present"
            else "summaries absent"
        )
        print(f"  {name}: {subset.n} samples, {ic_text}, {summary_text}")
    state = "up to date, nothing to do" if result.up_to_date else "computed"
    print(f"{spec.name}: statistics {state} in {time.perf_counter() - started:.1f} s")
    from lengthwise.llm.usage_journal import total_sentence

    overall = total_sentence(result.report.usage or {}, "on this work directory")
    if overall is not None:
        print(overall)
    print(f"report: {result.paths.markdown}")
    return 0


COMMANDS = (
    Command(
        "stats",
        help="dataset statistics per subset (information coverage, uniformity, ...)",
        description=(
            "Compute per subset: information coverage with the spec's [llm.judge] model "
            "(ETHIC's protocol, on a seeded sample of --ic-samples samples), and once "
            "reference summaries exist: uniformity, compression ratios, extractive fragment "
            "coverage and density, novel n-gram shares and redundancy; plus the build's "
            "length tables and annotation figures. Writes WORK/stats/stats.json, stats.md "
            "and samples.jsonl. A rerun with unchanged inputs does nothing; judge calls are "
            "cached in WORK/cache/llm.sqlite."
        ),
        handler=_stats,
        options=(
            *STAGE_OPTIONS,
            opt(
                "--ic-samples",
                type=int,
                default=DEFAULT_IC_SAMPLES,
                metavar="N",
                help="samples per subset judged for information coverage "
                f"(default {DEFAULT_IC_SAMPLES})",
            ),
            WORKERS,
            *EXECUTOR_OPTIONS,
            opt("--force", action="store_true", help="recompute even when up to date"),
        ),
    ),
)
