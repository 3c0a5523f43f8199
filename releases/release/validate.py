"""Validation before anything leaves the machine.

A release folder passes when (1) every file matches manifest.json, (2) no secret from
the environment and nothing shaped like a credential appears in any file (unless a
person accepted that match: secret_decisions.py), and (3)
``datasets.load_dataset(folder, config)`` loads every config with the manifest's
sample ids, in order — through the same resolution code the Hub uses.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

from lengthwise.releases.release.layout import SPLIT, ReleaseError
from lengthwise.releases.release.manifest import VerifiedRelease, verify_release
from lengthwise.releases.release.secret_decisions import (
    Acceptance,
    acceptance_lines,
    accepted_in_manifest,
    is_accepted,
    refusal_message,
    unmatched,
)
from lengthwise.releases.release.secret_scan import SecretFinding, scan_folder
from lengthwise.stage_state import crash_point, scratch_folder

log = logging.getLogger(__name__)


class ReleaseValidationError(ReleaseError):
    """The release folder failed validation; nothing may be published from it."""


def check_loads(release: VerifiedRelease, work_dir: Path | None = None) -> list[str]:
    """Load every config with `datasets` and compare ids with the manifest; return problems.

    `datasets` gets a throwaway cache (validation must leave no copy in the user's HF
    cache) in WORK/tmp/ (`scratch_folder`): a run killed while loading leaves it where the
    next run removes it. Without `work_dir` (a library call) it goes to the system's
    temporary folder.
    """
    import datasets

    datasets.disable_progress_bars()
    datasets.logging.set_verbosity_error()
    problems: list[str] = []
    scratch = (
        scratch_folder(work_dir, "validate")
        if work_dir is not None
        else tempfile.TemporaryDirectory(prefix="lengthwise-validate-")
    )
    with scratch as cache_folder:
        cache_dir = str(cache_folder)
        crash_point("release:validating")  # test hook: a kill while the cache exists
        for name, expected in release.configs.items():
            try:
                loaded = datasets.load_dataset(str(release.folder), name, cache_dir=cache_dir)
            except Exception as exc:  # datasets raises many types; each is a failed load
                problems.append(f"config {name}: datasets.load_dataset failed: {exc}")
                continue
            if list(loaded) != [SPLIT]:
                problems.append(f"config {name}: splits {list(loaded)}, expected ['{SPLIT}']")
                continue
            ids = loaded[SPLIT]["id"]
            if len(ids) != len(expected):
                problems.append(
                    f"config {name}: {len(ids)} rows loaded, manifest lists {len(expected)}"
                )
            elif list(ids) != expected:
                problems.append(f"config {name}: loaded sample ids differ from the manifest")
    return problems


def check_secrets(
    folder: Path,
    environ: Mapping[str, str] | None,
    extra_secret_names: Iterable[str],
    accepted: Collection[Acceptance],
) -> list[SecretFinding]:
    """Raise on any finding not accepted; return the accepted ones (for the manifest)."""
    findings = scan_folder(folder, environ, extra_secret_names)
    blocking = [f for f in findings if not is_accepted(f, accepted)]
    if blocking:
        raise ReleaseValidationError(
            refusal_message(folder, blocking), verbatim=acceptance_lines(blocking)
        )
    stale = unmatched(findings, accepted)
    if stale:
        log.warning(
            "%d accepted findings match nothing in %s (stale): %s",
            len(stale),
            folder,
            "; ".join(stale),
        )
    return findings  # every one left is an accepted pattern finding


def validate_release(
    folder: Path,
    expected_version: str | None = None,
    environ: Mapping[str, str] | None = None,
    extra_secret_names: Iterable[str] = (),
    accepted: Collection[Acceptance] | None = None,
    work_dir: Path | None = None,
) -> VerifiedRelease:
    """Checksums, secret scan and a real load of every config; raise on any failure.

    `accepted` names the pattern findings a person accepted; None takes the decisions
    recorded in the folder's manifest.json (what `publish` checks). `work_dir` holds the
    temporary files of the load (WORK/tmp/, see `check_loads`).
    """
    release = verify_release(folder, expected_version)
    if accepted is None:
        accepted = accepted_in_manifest(release.manifest)
    release.accepted_findings = check_secrets(folder, environ, extra_secret_names, accepted)
    problems = check_loads(release, work_dir)
    if problems:
        raise ReleaseValidationError(
            f"{folder}: does not load with datasets:\n  " + "\n  ".join(problems)
        )
    log.info("validated %s: %d configs", folder, len(release.configs))
    return release
