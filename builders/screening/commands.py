"""Screening subcommands: probe (the contamination probe)."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from lengthwise.cli_options import STAGE_OPTIONS, Command, add_commands, opt
from lengthwise.spec import load_spec


def register(subparsers: Any) -> None:
    add_commands(subparsers, COMMANDS)


def _probe(args: argparse.Namespace) -> int:
    quiet_http_logs(args)
    from lengthwise.builders.screening import ProbeSettings, run_probe, screening_settings
    from lengthwise.llm.factory import make_client
    from lengthwise.llm.work_cache import open_work_cache
    from lengthwise.workdir import default_work_dir

    spec = load_spec(args.spec)
    work_dir = args.work or default_work_dir(spec)
    configured = screening_settings(spec)
    per_book = args.chapters_per_book
    if per_book is None:
        per_book = configured.chapters_per_book
    settings = ProbeSettings(chapters_per_book=per_book, seed=spec.seed)
    config = spec.llm.probe
    if config is None:
        result = run_probe(
            work_dir, None, None, settings, not_run_reason=f"no [llm.probe] in {args.spec}"
        )
    else:
        with open_work_cache(work_dir) as cache:
            result = run_probe(work_dir, make_client(config, cache), config, settings)
    report = result.report
    if report.status != "run":
        print(f"contamination probe not run: {report.reason}")
    else:
        state = "up to date, nothing to do" if result.up_to_date else "probed"
        print(
            f"{spec.name}: {state}; {len(report.flagged)} of {len(report.books)} books "
            f"flagged ({per_book} chapters each, model {report.model})"
        )
        for book_id, reason in report.flagged.items():
            print(f"  {book_id}: {reason}")
    print(f"report:  {result.paths.report_md}")
    return 0


def quiet_http_logs(args: argparse.Namespace) -> None:
    """One INFO line per HTTP request (httpx, under the openai client) drowns the output."""
    if not getattr(args, "verbose", False):
        logging.getLogger("httpx").setLevel(logging.WARNING)


COMMANDS = (
    Command(
        "probe",
        help="contamination probe: does the probe model know these books already?",
        description=(
            "Ask the spec's [llm.probe] model to summarise a few random chapters of each book "
            "in WORK/corpus/books.jsonl (the prompt names neither book nor author) and flag "
            "books whose summaries name the title or author or bring in names the chapters do "
            "not contain. Writes WORK/screening/contamination.json and contamination.md; "
            "without a probe model, the report says it was not run and why."
        ),
        handler=_probe,
        options=(
            *STAGE_OPTIONS,
            opt(
                "--chapters-per-book",
                type=int,
                default=None,
                metavar="K",
                help="chapters to probe per book (default: [screening] chapters_per_book, else 3)",
            ),
        ),
    ),
)
