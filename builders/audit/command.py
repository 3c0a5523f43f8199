"""`lengthwise audit WORK_DIR`: the residual-noise table of an existing build."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from lengthwise.builders.audit.report import render_audit_section
from lengthwise.builders.audit.stage import audit_file, read_audits, summarize
from lengthwise.builders.audit.summary import AuditSummary
from lengthwise.builders.build_record import read_build_report
from lengthwise.workdir import WorkDir


class NotBuilt(FileNotFoundError):
    """The folder is not a finished build's work directory."""


def register_audit(subparsers: Any) -> None:
    audit = subparsers.add_parser(
        "audit",
        help="residual-noise audit of a built work directory (worst samples, share with findings)",
        description=(
            "Print the residual-noise audit of the samples `lengthwise build` selected: per "
            "class (URLs, site and licence vocabulary, page markers, repeated lines, contents "
            "lists, damaged characters, long headings) how many samples and findings, and the "
            "worst samples with their first snippet. Reads WORK/audit/samples.jsonl."
        ),
    )
    audit.add_argument("work", type=Path, help="the build's work directory")
    audit.add_argument("--json", action="store_true", help="print the summary as JSON")
    audit.set_defaults(handler=_audit)


def audit_summary(work_dir: Path) -> AuditSummary:
    """The audit summary of a finished build; NotBuilt names what is missing."""
    work = WorkDir(work_dir)
    if not work.root.is_dir():
        raise NotBuilt(f"{work.root}: no such work directory")
    if not work.build_report.is_file():
        raise NotBuilt(
            f"{work.root}: not a built work directory (no build_report.json); "
            "run `lengthwise build SPEC.toml --work DIR` first"
        )
    if not audit_file(work.root).is_file():
        raise NotBuilt(
            f"{audit_file(work.root)}: missing; this build predates the audit, rebuild it"
        )
    settings = read_build_report(work).body.audit.settings
    return summarize(read_audits(work.root), settings)


def _audit(args: argparse.Namespace) -> int:
    summary = audit_summary(args.work)
    if args.json:
        print(json.dumps(summary.to_json(), ensure_ascii=False, indent=1))
    else:
        print(render_audit_section(summary, heading="#"))
    return 0
