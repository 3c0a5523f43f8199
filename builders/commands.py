"""Builder subcommands: inspect, build, demo-corpus, tokenizers."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lengthwise.builders.audit.command import register_audit
from lengthwise.builders.tasks.command import TASKS_COMMAND
from lengthwise.cli_options import (
    EXECUTOR_OPTIONS,
    STAGE_OPTIONS,
    WORKERS,
    Command,
    add_commands,
    executor_from_args,
    opt,
)
from lengthwise.spec import ChaptersConfig, CleaningConfig, load_spec

if TYPE_CHECKING:
    from lengthwise.builders.sources.local import SourceFailure
    from lengthwise.records import SourceDocument


def register(subparsers: Any) -> None:
    add_commands(subparsers, COMMANDS[:4])
    register_audit(subparsers)
    add_commands(subparsers, [*COMMANDS[4:], TASKS_COMMAND])


def _read_paths(paths: list[Path], lang: str) -> tuple[list[SourceDocument], list[SourceFailure]]:
    """Documents and failures; a path that cannot be read at all, or no readable
    document anywhere, raises UserError (status 2, one line)."""
    from lengthwise.builders.sources import require_kept
    from lengthwise.builders.sources.input_checks import check_path
    from lengthwise.builders.sources.local import SourceFailure, read_local
    from lengthwise.reports import StageReport

    for path in paths:
        check_path(path)
    docs: list[SourceDocument] = []
    failures: list[SourceFailure] = []
    report = StageReport("sources")
    for path in paths:
        for item in read_local(path, None if lang == "auto" else lang):
            if isinstance(item, SourceFailure):
                failures.append(item)
                report.drop(item.key, f"{item.source}: {item.reason}")
            else:
                docs.append(item)
                report.keep()
    require_kept(report, "no readable book")
    return docs, failures


def _inspect(args: argparse.Namespace) -> int:
    from lengthwise.builders.corpus import CorpusSettings, process_corpus
    from lengthwise.builders.duplicates.inspect_view import duplicate_entries
    from lengthwise.builders.inspect_output import failure_entry, json_entry, print_book
    from lengthwise.progress import ProgressDisplay

    docs, failures = _read_paths(args.paths, args.lang)
    settings = CorpusSettings(
        language=args.lang, cleaning=CleaningConfig(), chapters=ChaptersConfig()
    )
    display = ProgressDisplay.for_stage("inspect", quiet=args.json)
    with display.step("books", total=len(docs), unit="book") as step:
        found = list(
            process_corpus(
                docs,
                settings,
                args.tokenizer,
                None,
                workers=args.workers,
                progress=step,
                executor=executor_from_args(args),
            )
        )
    books = [book for book, _ in found if book is not None]
    copies = duplicate_entries(books, [report for _, report in found])
    tokenizer = args.tokenizer[0] if args.tokenizer else None
    if args.json:
        entries = [json_entry(r, copies.get(r.id), tokenizer) for _, r in found]
        entries += [failure_entry(f.source, f.reason) for f in failures]
        print(json.dumps({"books": entries}, ensure_ascii=False, indent=1))
    else:
        for _, report in found:
            print_book(report, copies.get(report.id), tokenizer)
        for failure in failures:
            print(f"{failure.source}: None [None, None] excluded: {failure.reason}")
    excluded = len(found) - len(books)
    print(
        f"inspect: {len(books)} of {len(found) + len(failures)} input(s) usable as books "
        f"({excluded} excluded, {len(failures)} unreadable)",
        file=sys.stderr,
    )
    # No usable book is a failed inspection: scripts checking a corpus see it.
    return 0 if books else 1


def _build(args: argparse.Namespace) -> int:
    from lengthwise.builders.build import run_build
    from lengthwise.builders.build_summary import closing_lines
    from lengthwise.workdir import default_work_dir

    spec = load_spec(args.spec)
    spec = spec.model_copy(update={"executor": executor_from_args(args, spec.executor)})
    work_dir = args.work or default_work_dir(spec)
    result = run_build(spec, work_dir, progress=not args.quiet, workers=args.workers)
    state = "up to date, nothing to do" if result.up_to_date else "built"
    print(f"{spec.name}: {state}")
    print(f"samples: {result.work.samples}/")
    print(f"report:  {result.work.build_report_md}")
    # Last, so nobody misses them: subsets, exclusions and every warning.
    for line in closing_lines(result.report, result.work.root):
        print(line)
    if spec.tasks:
        from lengthwise.builders.tasks.command import build_tasks_and_print

        build_tasks_and_print(spec, work_dir)
    return 0


def _demo_corpus(args: argparse.Namespace) -> int:
    from lengthwise.builders.demo_corpus import write_demo_corpus, write_demo_spec

    files = write_demo_corpus(args.dir / "corpus")
    spec_path = write_demo_spec(args.dir, with_tasks=True)
    print(f"wrote {len(files)} synthetic books to {args.dir / 'corpus'}")
    print(spec_path)
    return 0


def _tokenizers(args: argparse.Namespace) -> int:
    from lengthwise.builders.language import detect_language
    from lengthwise.tokenizers.efficiency import efficiency_markdown, encoding_efficiency

    docs, failures = _read_paths(args.paths, "auto")
    for failure in failures:
        print(f"skipped {failure.source}: {failure.reason}", file=sys.stderr)
    by_language: dict[str, list[str]] = {}
    for doc in docs:
        by_language.setdefault(doc.language or detect_language(doc.text), []).append(doc.text)
    print(efficiency_markdown(encoding_efficiency(by_language, args.tokenizer)))
    return 0


def _pack_training(args: argparse.Namespace) -> int:
    from lengthwise.builders.training_data import PackingRequest, pack_training_data

    report = pack_training_data(
        PackingRequest(
            dataset=args.dataset,
            text_column=args.text_column,
            summary_column=args.summary_column,
            lower=args.lower,
            upper=args.upper,
            tokenizer=args.tokenizer,
            seed=args.seed,
            split=args.split,
        ),
        args.out,
    )
    print(
        f"packed {report['packed_pairs']} of {report['pairs']} pairs into "
        f"{report['samples']} samples; dropped: {report['dropped'] or 'none'}"
    )
    print(args.out)
    return 0


COMMANDS = (
    Command(
        "inspect",
        help="read books, clean them, find chapters and report what was found",
        description=(
            "Read files or folders (.txt .md .html .epub, any encoding), clean them, detect "
            "chapters and report per book: encoding, chapter count, printed numbers, gaps, "
            "duplicates, what cleaning removed, and token totals. Nothing is written."
        ),
        handler=_inspect,
        options=(
            opt("paths", nargs="+", type=Path, help="files or folders"),
            opt(
                "--lang",
                default="auto",
                metavar="CODE",
                help="auto (detect), or a language code: zh, en, ja have rule sets of their "
                "own, any other (de, fr, ...) goes the generic path",
            ),
            opt(
                "--tokenizer",
                action="append",
                default=[],
                metavar="ID",
                help="count tokens with this tokenizer id (repeatable), e.g. qwen2.5",
            ),
            opt("--json", action="store_true", help='print one JSON object {"books": [...]}'),
            WORKERS,
            *EXECUTOR_OPTIONS,
        ),
    ),
    Command(
        "build",
        help="run ingestion through selection for a spec and write samples per subset",
        description=(
            "Read the spec's sources, clean, detect chapters, count tokens, cut contiguous "
            "chapter runs into each subset's interval and select a balanced set. Writes "
            "WORK/samples/<subset>.parquet, WORK/build_report.json and build_report.md. "
            "With [[tasks]] in the spec, then builds the task families (see `lengthwise "
            "tasks`). A rerun with unchanged inputs does nothing."
        ),
        handler=_build,
        options=(
            *STAGE_OPTIONS,
            WORKERS,
            *EXECUTOR_OPTIONS,
            opt("--quiet", action="store_true", help="no progress bars"),
        ),
    ),
    Command(
        "demo-corpus",
        help="write the small synthetic zh/en demo corpus and its spec",
        description=(
            "Write a deterministic synthetic multi-chapter corpus (labelled synthetic) and a "
            "spec for it into DIR, so the pipeline can run offline."
        ),
        handler=_demo_corpus,
        options=(opt("dir", type=Path),),
    ),
    Command(
        "pack-training",
        help="pack short (text, summary) pairs into long training samples (CNNSum-style)",
        description=(
            "Concatenate short (excerpt, summary) pairs from a dataset with text/summary "
            "columns into long samples whose context has between --lower and --upper tokens. "
            "Writes OUT (JSONL: context, target, members, tokens) and OUT.report.json."
        ),
        handler=_pack_training,
        options=(
            opt("dataset", help="local json/jsonl/csv/parquet file or folder, or a Hub id"),
            opt("--text-column", default="text"),
            opt("--summary-column", default="summary"),
            opt("--split", default="train"),
            opt("--lower", type=int, default=14_000),
            opt("--upper", type=int, default=18_000),
            opt("--tokenizer", default="qwen2.5"),
            opt("--seed", type=int, default=0),
            opt("--out", type=Path, required=True),
        ),
    ),
    Command(
        "tokenizers",
        help="encoding efficiency table: characters per token per tokenizer and language",
        description="Count a spec's corpus (or files) with tokenizers, like CNNSum's Table 1.",
        handler=_tokenizers,
        options=(
            opt("paths", nargs="+", type=Path, help="files or folders"),
            opt("--tokenizer", action="append", required=True, metavar="ID"),
        ),
    ),
)
