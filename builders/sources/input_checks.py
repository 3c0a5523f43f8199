"""Is there anything to build from? Paths that cannot be read and corpora with no book.

A build or inspection that finds nothing must not print "built" and write empty files: these
checks raise `UserError` (status 2, one line) naming the path, the spec key, or the reasons
every input was dropped, with an example.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from lengthwise.builders.sources.errors import ReasonKey
from lengthwise.errors import UserError
from lengthwise.reports import StageReport


def path_problem(path: Path) -> tuple[str, ReasonKey] | None:
    """Why `path` cannot be read at all (missing, a symlink loop, a broken link), or None."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symlink loop", "symlink-loop"
        if path.is_symlink():
            return f"broken symlink (points to {os.readlink(path)})", "broken-symlink"
        return "no such file or folder", "missing-path"
    return None


def check_path(path: Path, where: str = "") -> None:
    """Raise `UserError` "[WHERE: ]PATH: problem" when `path` cannot be read at all."""
    problem = path_problem(path)
    if problem is not None:
        prefix = f"{where}: " if where else ""
        raise UserError(f"{prefix}{path}: {problem[0]}")


def require_kept(report: StageReport, nothing_left: str) -> None:
    """Raise `UserError` when a stage kept nothing: `nothing_left`, the drop counts by reason
    and one example, e.g. "no readable book in the sources: 2 dropped (2 binary-file); e.g. ..."."""
    if report.kept:
        return
    total = sum(report.dropped.values())
    if not total:
        raise UserError(f"{nothing_left}: the sources list no input")
    reasons = ", ".join(f"{count} {reason}" for reason, count in report.dropped.most_common())
    examples = [e for bucket in report.examples.values() for e in bucket]
    example = f"; e.g. {examples[0]}" if examples else ""
    raise UserError(f"{nothing_left}: {total} dropped ({reasons}){example}")
