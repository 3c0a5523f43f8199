"""Release subcommands: release (build + validate a folder), publish (Hub or local git), fetch."""

from __future__ import annotations

import argparse
import logging
import os
from pathlib import Path
from typing import Any

from lengthwise.cli_options import SPEC, Command, add_commands, opt
from lengthwise.names import repo_id_arg, version_arg
from lengthwise.spec import Spec, load_spec


def register(subparsers: Any) -> None:
    add_commands(subparsers, COMMANDS)


def _quiet_http_logs(args: argparse.Namespace) -> None:
    """huggingface_hub's HTTP client logs every request at INFO; keep that for -v."""
    if not getattr(args, "verbose", False):
        for name in ("httpx", "httpx2", "huggingface_hub"):
            logging.getLogger(name).setLevel(logging.WARNING)


def _work_dir(spec: Spec, work: Path | None) -> Path:
    from lengthwise.workdir import default_work_dir

    return work or default_work_dir(spec)


def _release(args: argparse.Namespace) -> int:
    from lengthwise.releases.release.build import build_release
    from lengthwise.releases.release.secret_decisions import read_accept_file

    spec = load_spec(args.spec)
    accepted = read_accept_file(args.accept_findings) if args.accept_findings else set()
    result = build_release(
        spec,
        _work_dir(spec, args.work),
        args.release_version,
        allow_unannotated=args.allow_unannotated,
        spec_path=args.spec,
        accepted_findings=accepted,
        long_context_check=args.long_context_check,
    )
    subsets = result.manifest["subsets"]
    for name, entry in subsets.items():
        print(f"  {name}: {entry['rows']} samples")
    for name, entry in (result.manifest.get("tasks") or {}).items():
        print(f"  {name}: {entry['rows']} {entry['family']} instances")
    if result.replaced:
        print(f"  replaced an earlier local build of v{result.manifest['version']}")
    if result.skipped_subsets:
        print(f"  not released (empty): {', '.join(result.skipped_subsets)}")
    if result.missing_summaries:
        print(f"  WARNING: {result.missing_summaries} samples have no human summary")
    totals = result.diff["totals"]
    since = f"since v{result.diff['from']}" if result.diff["from"] else "(first release)"
    print(
        f"  changes {since}: {totals['added']} added, {totals['removed']} removed, "
        f"{totals['changed']} changed"
    )
    if result.accepted_findings:
        print(
            f"  secret scan: {result.accepted_findings} pattern matches accepted from "
            f"{args.accept_findings} (recorded in manifest.json)"
        )
    print("validated: datasets.load_dataset per config, checksums, secret scan")
    print(result.folder)
    return 0


def _publish(args: argparse.Namespace) -> int:
    from lengthwise.errors import UserError
    from lengthwise.releases.hub import check_before_publish, publish_to_git_mirror, publish_to_hub
    from lengthwise.releases.hub.card_repo import load_line, name_repo_in_card
    from lengthwise.releases.release.build import secret_variable_names
    from lengthwise.releases.release.layout import release_folder

    _quiet_http_logs(args)
    spec = load_spec(args.spec)
    repo_id = args.repo or spec.release.repo_id
    if not repo_id:
        raise UserError(f"{args.spec}: release.repo_id is not set; pass --repo ORG/NAME")
    work = _work_dir(spec, args.work)
    folder = release_folder(work, args.release_version).root
    names = secret_variable_names(spec)
    if name_repo_in_card(folder, repo_id):
        print(f"  the card now names {repo_id} (load_dataset and fetch lines)")
    verified = check_before_publish(folder, args.release_version, os.environ, names, work_dir=work)
    if args.mirror_root is not None:
        result = publish_to_git_mirror(
            folder, args.mirror_root, repo_id, args.release_version, work_dir=work
        )
    else:
        result = publish_to_hub(
            folder, repo_id, args.release_version, token=os.environ.get("HF_TOKEN")
        )
    print(f"published {result}")
    configs = list(verified.manifest.get("subsets") or {})
    if configs:
        print("load it with:")
        print("  from datasets import load_dataset")
        print(f"  {load_line(repo_id, configs[0], args.release_version)}")
    return 0


def _fetch(args: argparse.Namespace) -> int:
    from lengthwise.releases.hub import fetch_release, parse_release_ref

    _quiet_http_logs(args)
    repo_id, revision = parse_release_ref(args.ref)
    folder = fetch_release(repo_id, revision, args.out, endpoint=args.endpoint)
    print(f"verified {len(list(folder.rglob('*.parquet')))} data files against manifest.json")
    print(folder)
    return 0


# The release commands' --work help predates the shared one: kept word for word.
_WORK = opt("--work", type=Path, default=None, help="work directory")
_VERSION = opt(
    "--version", required=True, dest="release_version", metavar="X.Y.Z", type=version_arg
)

COMMANDS = (
    Command(
        "release",
        help="write and validate a release folder (Hub dataset layout, card, manifest)",
        description=(
            "Turn the build's samples and the human summaries into WORK/releases/vX.Y.Z: one "
            "dataset config per subset (parquet, split 'test'), README.md dataset card, "
            "manifest.json with checksums, diff.json against the previous version. The folder "
            "is validated (datasets.load_dataset per config, checksums, secret scan) before it "
            "is kept. Prints the folder as the last line."
        ),
        handler=_release,
        options=(
            SPEC,
            _VERSION,
            opt(
                "--allow-unannotated",
                action="store_true",
                help="release samples without human summaries (the card says references are "
                "missing)",
            ),
            opt(
                "--accept-findings",
                type=Path,
                default=None,
                metavar="FILE",
                help="secret-scan pattern matches in the text that are not credentials: one "
                "`SAMPLE_ID<TAB>DIGEST` per line, as a refused release prints them (recorded in "
                "manifest.json; environment values can never be accepted)",
            ),
            opt(
                "--long-context-check",
                type=Path,
                default=None,
                metavar="TRUNCATION_JSON",
                help="a `lengthwise analyse truncation` table of runs on this release: the card "
                "says per config whether the score needs the whole context (shipped as "
                "long_context_check.json)",
            ),
            _WORK,
        ),
    ),
    Command(
        "publish",
        help="upload a release folder and tag it vX.Y.Z (Hub, or a local git mirror)",
        description=(
            "Validate WORK/releases/vX.Y.Z again, upload it as one commit and create the tag "
            "vX.Y.Z on exactly that commit. An existing tag refuses. The Hub token is read "
            "from HF_TOKEN only. --mirror-root DIR publishes into the bare git repository "
            "DIR/datasets/ORG/NAME instead (the layout olah serves offline)."
        ),
        handler=_publish,
        options=(
            SPEC,
            _VERSION,
            opt(
                "--repo",
                type=repo_id_arg,
                default=None,
                help="ORG/NAME (default: spec release.repo_id)",
            ),
            _WORK,
            opt(
                "--mirror-root",
                type=Path,
                default=None,
                help="publish to a local git repository under DIR/datasets/ORG/NAME, not the Hub",
            ),
        ),
    ),
    Command(
        "fetch",
        help="download a pinned release (ORG/NAME@vX.Y.Z) and verify its manifest",
        description=(
            "Download a release by tag with huggingface_hub from the Hub, or from a mirror or "
            "other Hub-compatible server (--endpoint URL, else the HF_ENDPOINT environment "
            "variable), or take a local release folder, and verify every file against "
            "manifest.json. Prints the folder as the last line."
        ),
        handler=_fetch,
        options=(
            opt("ref", help="ORG/NAME@vX.Y.Z, or a local release folder"),
            opt("--out", type=Path, default=None, help="download into this folder"),
            opt(
                "--endpoint",
                default=None,
                metavar="URL",
                help="Hub-compatible server to download from, e.g. an olah mirror at "
                "http://127.0.0.1:8090 (default: HF_ENDPOINT, else https://huggingface.co)",
            ),
        ),
    ),
)
