"""Annotation subcommands: draft."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from lengthwise.annotation.drafts.report import overall_has_calls
from lengthwise.cli_options import STAGE_OPTIONS, Command, add_commands, opt
from lengthwise.llm.usage_journal import total_sentence
from lengthwise.spec import load_spec


def register(subparsers: Any) -> None:
    add_commands(subparsers, COMMANDS)


def _draft(args: argparse.Namespace) -> int:
    quiet_http_logs(args)
    from lengthwise.annotation.drafts import run_drafting
    from lengthwise.annotation.drafts.extractive import EXTRACTIVE_MODEL
    from lengthwise.llm.factory import make_client
    from lengthwise.llm.work_cache import open_work_cache
    from lengthwise.workdir import default_work_dir

    spec = load_spec(args.spec)
    work_dir = args.work or default_work_dir(spec)
    config = spec.llm.drafter
    if config is None:
        print(
            f"no [llm.drafter] in {args.spec}: using the extractive fallback drafter "
            f"({EXTRACTIVE_MODEL}, key sentences per chapter); every draft is marked "
            'drafter="extractive"'
        )
        result = run_drafting(work_dir, quiet=args.quiet)
    else:
        print(
            f"drafting with {config.model}" + (f" at {config.base_url}" if config.base_url else "")
        )
        with open_work_cache(work_dir) as cache:
            client = make_client(config, cache)
            result = run_drafting(work_dir, client, config, quiet=args.quiet)
    report = result.report
    if result.up_to_date:
        print(f"{spec.name}: drafts up to date, nothing to do")
    else:
        print(
            f"{spec.name}: {report.drafted_this_run} chapters drafted, {report.reused} "
            f"already drafted, for {report.samples} samples ({report.chapters} chapters)"
        )
    outcomes = ", ".join(f"{k} {v}" for k, v in report.outcomes.items())
    print(f"outcomes: {outcomes}")
    failed = report.failed_chapters
    if failed:
        print(f"{len(failed)} chapters have no LLM draft (extractive draft shown instead):")
        for item in failed[:10]:
            print(f"  {item['book_id']} chapter {item['chapter_index']}: {item['outcome']}")
    for role, usage in report.usage["roles"].items():
        print(
            f"usage ({role}): {usage['calls']} calls, {usage['cache_hits']} from the cache, "
            f"{usage['prompt_tokens']:,}+{usage['completion_tokens']:,} tokens, "
            f"cost {usage['cost']:.4f}"
        )
    overall = total_sentence(report.usage, "on this work directory")
    if overall is not None and overall_has_calls(report.usage):
        print(overall)
    print(f"drafts:  {result.paths.samples}")
    print(f"report:  {result.paths.report_md}")
    return 0


def quiet_http_logs(args: argparse.Namespace) -> None:
    """One INFO line per HTTP request (httpx, under the openai client) drowns the output."""
    if not getattr(args, "verbose", False):
        logging.getLogger("httpx").setLevel(logging.WARNING)


COMMANDS = (
    Command(
        "draft",
        help="draft a plot synopsis of every chapter of every selected sample",
        description=(
            "Draft a detailed plot synopsis per chapter of the built samples (a chapter shared "
            "by samples is drafted once) with the spec's [llm.drafter] model, or, without one, "
            "with the extractive drafter (key sentences). Writes WORK/drafts/chapters.jsonl, "
            "samples.jsonl, report.json and report.md. Interrupted runs resume: finished "
            "drafts are kept and finished calls are served from the request cache."
        ),
        handler=_draft,
        options=(
            *STAGE_OPTIONS,
            opt("--quiet", action="store_true", help="no progress bar"),
        ),
    ),
)
