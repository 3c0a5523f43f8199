"""`lengthwise annotate ...`: the human review loop in Label Studio.

annotate serve   start a local Label Studio for a work dir (foreground; Ctrl-C stops it)
annotate push    create/find the project, import one task per sample with the drafts
annotate pull    export annotations, check them, merge them into samples_annotated/
annotate status  progress per subset and annotator, quality flags (from the last pull)
annotate review  pick the final summary per sample (rule or review file), agreement
annotate locate  find the passage that supports or contradicts a claim
annotate tasks push|pull   human checks of model-written task items (qa, recall)
annotate demo-references   synthetic references for the synthetic demo corpus only
"""

from __future__ import annotations

import argparse
import json
import urllib.parse
from pathlib import Path
from typing import Any

from lengthwise.annotation.task_checks.commands import TASKS
from lengthwise.cli_options import (
    OPTIONAL_SPEC,
    SPEC,
    STAGE_OPTIONS,
    WORK,
    Command,
    add_commands,
    opt,
)
from lengthwise.errors import UserError
from lengthwise.spec import Spec, load_spec


def register(subparsers: Any) -> None:
    add_commands(subparsers, COMMANDS)


def work_dir_for(spec: Spec | None, work: Path | None) -> Path:
    from lengthwise.workdir import default_work_dir

    if work is not None:
        return work
    if spec is None:
        raise UserError("give a spec file or --work DIR")
    return default_work_dir(spec)


def label_studio_api(spec: Spec, work: Path, url: str | None) -> Any:
    from lengthwise.annotation.labelstudio.credentials import resolve_token
    from lengthwise.annotation.labelstudio.paths import LabelStudioPaths
    from lengthwise.annotation.labelstudio.sdk import LabelStudioAPI
    from lengthwise.annotation.labelstudio.server import read_server_url

    paths = LabelStudioPaths(work.resolve())
    chosen = url or read_server_url(paths) or spec.annotation.label_studio_url
    token = resolve_token(paths.credentials, spec.annotation.api_key_env)
    return LabelStudioAPI(chosen, token)


_work_dir = work_dir_for
_api = label_studio_api


def _serve(args: argparse.Namespace) -> int:
    from lengthwise.annotation.labelstudio.credentials import load_or_create_credentials
    from lengthwise.annotation.labelstudio.paths import LabelStudioPaths
    from lengthwise.annotation.labelstudio.server import LabelStudioServerError
    from lengthwise.annotation.labelstudio.serving import serve_foreground
    from lengthwise.errors import UserError

    spec = load_spec(args.spec) if args.spec else None
    work = _work_dir(spec, args.work).resolve()
    port = args.port
    if port is None:
        parsed = urllib.parse.urlparse(spec.annotation.label_studio_url) if spec else None
        port = parsed.port if parsed and parsed.port else 8080
    token_env = spec.annotation.api_key_env if spec else "LABEL_STUDIO_API_KEY"
    credentials = load_or_create_credentials(LabelStudioPaths(work).credentials, token_env)
    try:
        return serve_foreground(work, credentials, port)
    except LabelStudioServerError as exc:
        raise UserError(str(exc)) from None


def _push(args: argparse.Namespace) -> int:
    from lengthwise.annotation.labelstudio.push import push

    spec = load_spec(args.spec)
    work = _work_dir(spec, args.work)
    api = _api(spec, work, args.url)
    result = push(spec, work, api)
    state = "created" if result.created_project else "found"
    print(f"project {result.project_title!r} (id {result.project_id}, {state}) at {api.url}")
    print(
        f"  imported {result.imported}, refreshed {result.updated}, unchanged {result.unchanged}, "
        f"kept (human work, drafts changed) {result.kept}, duplicates removed "
        f"{result.removed_duplicates}"
    )
    print("  tasks per subset: " + ", ".join(f"{k} {v}" for k, v in result.tasks_by_subset.items()))
    if result.without_drafts:
        print(f"  {len(result.without_drafts)} samples without drafts were not pushed")
    if not result.chapter_links:
        print("  original chapter links do not open on this server (see the warning above)")
    print(f"open {api.url}/projects/{result.project_id}/data to annotate")
    return 0


def _pull(args: argparse.Namespace) -> int:
    from lengthwise.annotation.labelstudio.pull import pull
    from lengthwise.annotation.review.finalize import render_report

    spec = load_spec(args.spec)
    work = _work_dir(spec, args.work)
    result = pull(spec, work, _api(spec, work, args.url))
    print(
        f"pulled {result.annotations} annotations from {result.tasks} tasks: {result.new} new, "
        f"{result.updated} updated, {result.unchanged} unchanged"
        + (f", {result.kept_newer_local} kept (newer here)" if result.kept_newer_local else "")
        + (f", {result.gone_from_server} gone from the server" if result.gone_from_server else "")
    )
    assert result.finalized is not None
    paths = result.finalized.paths
    print(render_report(result.finalized.report))
    print(f"annotations: {paths.annotations}")
    print(f"samples:     {paths.samples_annotated}/<subset>.parquet")
    print(f"report:      {paths.report_md}")
    return 0


def _status(args: argparse.Namespace) -> int:
    from lengthwise.annotation.labelstudio.paths import LabelStudioPaths, load_state
    from lengthwise.annotation.review.finalize import render_report, review_all

    spec = load_spec(args.spec)
    work = _work_dir(spec, args.work)
    if args.pull:
        _pull(args)
        print()
    result = review_all(spec, work)
    state = load_state(LabelStudioPaths(work.resolve()))
    if args.json:
        print(
            json.dumps(
                {"label_studio": state, "report": result.report.to_json()},
                ensure_ascii=False,
                indent=1,
            )
        )
        return 0
    last = state.get("last_push")
    if last:
        print(
            f"Label Studio project {state.get('project_title')!r} (id {state.get('project_id')}) "
            f"at {state.get('url')}; last push {last.get('at')}: "
            + ", ".join(f"{k} {v} tasks" for k, v in (last.get("tasks_by_subset") or {}).items())
        )
    else:
        print("not pushed yet: run `lengthwise annotate push SPEC`")
    pulled = result.paths.annotations
    print(f"as of the last pull ({pulled})" if pulled.is_file() else "nothing pulled yet")
    print(render_report(result.report))
    return 0


def _review(args: argparse.Namespace) -> int:
    from lengthwise.annotation.review.finalize import finalize

    spec = load_spec(args.spec)
    work = _work_dir(spec, args.work)
    result = finalize(spec, work, args.overrides)
    sources: dict[str, int] = {}
    for review in result.reviews.values():
        sources[review.source] = sources.get(review.source, 0) + 1
    print("final summaries by source: " + ", ".join(f"{k} {v}" for k, v in sorted(sources.items())))
    for name, subset in result.report.subsets.items():
        agreement = subset.agreement_mean
        shown = (
            f"{agreement:.3f} over {subset.agreement_samples} samples"
            if agreement is not None
            else "-"
        )
        print(f"  {name}: {subset.final}/{subset.samples} final, agreement (ROUGE-L) {shown}")
    print(f"review:  {result.paths.review}")
    print(f"samples: {result.paths.samples_annotated}/<subset>.parquet")
    return 0


def _import(args: argparse.Namespace) -> int:
    from lengthwise.annotation.review.finalize import finalize, review_all
    from lengthwise.annotation.review.imports import (
        imported_path,
        merged_imports,
        read_import_file,
        store_imports,
    )
    from lengthwise.annotation.review.inputs import read_samples, subset_order
    from lengthwise.workdir import WorkDir

    spec = load_spec(args.spec)
    work = WorkDir(_work_dir(spec, args.work))
    samples = read_samples(work, subset_order(work, [s.name for s in spec.subsets]))
    new = read_import_file(args.file, {s.id for s in samples})
    merged = merged_imports(work, new)
    review_all(spec, work.root, imports=merged)  # every check before anything is written
    store_imports(work, merged)
    result = finalize(spec, work.root)
    final = sum(r.summary is not None for r in result.reviews.values())
    print(f"imported {len(new)} summaries from {args.file} ({imported_path(work)})")
    print(f"final summaries: {final} of {len(result.reviews)} samples")
    print(f"samples: {result.paths.samples_annotated}/<subset>.parquet")
    return 0


def _locate(args: argparse.Namespace) -> int:
    from lengthwise.annotation.locate import locate, render_location

    spec = load_spec(args.spec) if args.spec else None
    work = _work_dir(spec, args.work)
    config = spec.llm.locator if spec else None
    if config is None:
        result = locate(work, args.sample_id, args.claim, None, top=args.top)
    else:
        from lengthwise.llm.factory import make_client
        from lengthwise.llm.work_cache import open_work_cache

        with open_work_cache(work) as cache:
            client = make_client(config, cache)
            result = locate(work, args.sample_id, args.claim, client, top=args.top)
    print(render_location(result))
    return 0


def _demo_references(args: argparse.Namespace) -> int:
    from lengthwise.annotation.demo_references import demo_references
    from lengthwise.annotation.review.finalize import render_report

    spec = load_spec(args.spec)
    result = demo_references(spec, _work_dir(spec, args.work))
    print(f"synthetic references (demo): {result.written} written, {result.unchanged} unchanged")
    print(render_report(result.finalized.report))
    print(f"samples: {result.finalized.paths.samples_annotated}/<subset>.parquet")
    return 0


_URL = opt(
    "--url",
    default=None,
    help="Label Studio URL (default: the server `annotate serve` started for this work "
    "dir, else the spec's annotation.label_studio_url)",
)
_SERVER_OPTIONS = (SPEC, WORK, _URL)  # push, pull, status

STEPS = (
    Command(
        "serve",
        help="start a local Label Studio for a work dir (127.0.0.1, SQLite)",
        description=(
            "Start Label Studio from .venv-labelstudio (create it with "
            "scripts/ensure-labelstudio.sh) with its data in WORK/labelstudio, on 127.0.0.1 "
            "only. The admin login and API token are written once to "
            "WORK/labelstudio/credentials.json (mode 0600); WORK/labelstudio is private "
            "(folders 0700, data files 0600). Runs until Ctrl-C. A server an earlier, killed "
            "`serve` left running (WORK/labelstudio/server.json) is reused if it answers, "
            "else stopped and replaced; a port held by another process is named, exit 2."
        ),
        handler=_serve,
        options=(
            OPTIONAL_SPEC,
            WORK,
            opt("--port", type=int, default=None, help="port (default: spec URL's, 8080)"),
        ),
    ),
    Command(
        "push",
        help="create or update the project and import a task per sample",
        description=(
            "Create or find the project (by title), import one task per sample with the "
            "merged drafts as a prediction. Rerunning imports only missing samples, refreshes "
            "drafts of tasks nobody worked on, and never touches tasks with human work."
        ),
        handler=_push,
        options=_SERVER_OPTIONS,
    ),
    Command(
        "pull",
        help="export annotations into WORK/annotations and WORK/samples_annotated",
        description=(
            "Export every annotation, run the quality checks, store them in "
            "WORK/annotations/annotations.jsonl (never replacing a newer stored version) and "
            "write WORK/samples_annotated/<subset>.parquet with the final summaries."
        ),
        handler=_pull,
        options=_SERVER_OPTIONS,
    ),
    Command(
        "status",
        help="progress per subset and annotator, quality flag counts",
        description="Progress and quality flags as of the last pull (`--pull` pulls first).",
        handler=_status,
        options=(
            *_SERVER_OPTIONS,
            opt("--pull", action="store_true", help="pull from Label Studio first"),
            opt("--json", action="store_true", help="print the report as JSON"),
        ),
    ),
    Command(
        "review",
        help="pick the final summary per sample; report agreement",
        description=(
            "Per sample, take the usable annotation with the fewest quality flags, then the "
            "highest mean ROUGE-L agreement with the other annotators. A reviewer overrides "
            "this in WORK/annotations/review_overrides.jsonl, one line per sample: "
            '{"sample_id": ..., "annotation_id": N} or {"sample_id": ..., "summary": "..."} '
            '(optional "reviewer", "note"). Works offline on the last pull.'
        ),
        handler=_review,
        options=(
            *STAGE_OPTIONS,
            opt("--overrides", type=Path, default=None, help="review file to use"),
        ),
    ),
    Command(
        "import",
        help="bring in summaries written elsewhere (JSONL or CSV of id and summary)",
        description=(
            'Read FILE (.jsonl: one {"id": ..., "summary": ...} per line; .csv: a header '
            "with id and summary), check every line (a missing key or column, an empty "
            "summary, a repeated or unknown sample id stops with the file and line, nothing "
            "written), keep the summaries in WORK/annotations/imported.jsonl and review "
            "again. Their provenance is recorded as imported (summary_source 'import', "
            "reference_origin 'imported') and the release card counts them as imported. A "
            "reviewer's overrides file still wins over an import."
        ),
        handler=_import,
        options=(
            *STAGE_OPTIONS,
            opt("file", type=Path, help="JSONL or CSV file of id and summary per sample"),
        ),
    ),
    Command(
        "locate",
        help="which chapter and passage support or contradict a claim",
        description=(
            "Narrow the sample's chapters to the passages that share most words with the "
            "claim, then ask the spec's locator model ([llm.locator]) which passage supports "
            "or contradicts it; the quote is checked against the chapter. Without a locator "
            "model, prints the lexical matches only."
        ),
        handler=_locate,
        options=(
            opt("sample_id"),
            opt("claim"),
            opt("--spec", type=Path, default=None, help="spec TOML file (locator model)"),
            WORK,
            opt("--top", type=int, default=8, help="passages shown to the model"),
        ),
    ),
    TASKS,
    Command(
        "demo-references",
        help="synthetic reference summaries for the demo corpus (refuses any other corpus)",
        description=(
            "For the synthetic demo corpus only (`lengthwise demo-corpus`): merge the "
            "generator's chapter synopses into one summary per sample within the subset's "
            "limit and finalize them like pulled annotations, marked 'synthetic reference "
            "(demo)'. Refuses a work dir whose books are not byte-identical to the demo's."
        ),
        handler=_demo_references,
        options=STAGE_OPTIONS,
    ),
)

COMMANDS = (
    Command(
        "annotate",
        help="human merge-and-rewrite of the drafts in Label Studio (serve, push, pull, ...)",
        description=__doc__,
        raw_description=True,
        subcommands=STEPS,
        subcommand_dest="annotate_command",
    ),
)
