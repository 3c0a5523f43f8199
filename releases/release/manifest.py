"""manifest.json: what a release is made of, and the check that a copy is intact.

The manifest names the tool version, the spec and corpus it was built from, every
file with its sha256, and every sample with a hash of its released row, so that a
downloaded copy can be verified and two versions can be compared sample by sample.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lengthwise.json_records import validate_json
from lengthwise.releases.release.layout import MANIFEST, ReleaseError
from lengthwise.releases.release.manifest_record import (
    FileEntryJson,
    ManifestJson,
    SampleEntryJson,
)
from lengthwise.releases.release.schema import ReleaseRow
from lengthwise.releases.release.secret_scan import SecretFinding
from lengthwise.storage import canonical_hash, read_json, sha256_file, sha256_text

FORMAT = "lengthwise-release/1"
# Files a download or a checkout may add beside the release's own files.
_TOLERATED_EXTRAS = (".gitattributes",)
_TOLERATED_DIRS = (".cache", ".git", ".huggingface")


class ManifestError(ReleaseError):
    """A release folder does not match its manifest (missing, changed or extra files)."""


def row_entry(row: Mapping[str, object], context: str, summary: str | None) -> SampleEntryJson:
    """A released row's id and hashes: the whole row, its context and its summary (task
    instances have none)."""
    return {
        "id": str(row["id"]),
        "sha256": canonical_hash(dict(row)),
        "context_sha256": sha256_text(context),
        "summary_sha256": sha256_text(summary) if summary is not None else None,
    }


def sample_entry(row: ReleaseRow) -> SampleEntryJson:
    """A released summary row's entry (`row_entry`)."""
    summary = row["summary"]
    return row_entry(row, row["context"], summary if isinstance(summary, str) else None)


def _is_tolerated(relative: str) -> bool:
    return relative in _TOLERATED_EXTRAS or relative.split("/", 1)[0] in _TOLERATED_DIRS


def release_files(folder: Path) -> list[str]:
    """Paths (POSIX, relative) of the release's files: everything but the manifest."""
    paths = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        if path.is_file() and relative != MANIFEST and not _is_tolerated(relative):
            paths.append(relative)
    return paths


def file_entries(folder: Path) -> dict[str, FileEntryJson]:
    return {
        relative: {
            "sha256": sha256_file(folder / relative),
            "bytes": (folder / relative).stat().st_size,
        }
        for relative in release_files(folder)
    }


def read_manifest(folder: Path) -> dict[str, Any]:
    """manifest.json of a release folder as plain JSON (format and required keys checked);
    `read_typed_manifest` validates it against the manifest's types."""
    path = folder / MANIFEST
    if not path.is_file():
        raise ManifestError(f"{path}: no manifest; this is not a lengthwise release folder")
    try:
        manifest = read_json(path)
    except ValueError as exc:
        raise ManifestError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise ManifestError(f"{path}: not a {FORMAT} manifest")
    for key in ("version", "files", "subsets"):
        if key not in manifest:
            raise ManifestError(f"{path}: missing key {key!r}")
    return manifest


def read_typed_manifest(folder: Path) -> ManifestJson:
    """manifest.json of a release folder, validated (ManifestError names the bad key)."""
    data = read_manifest(folder)
    try:
        return validate_json(ManifestJson, data, str(folder / MANIFEST))
    except ValueError as exc:
        raise ManifestError(str(exc)) from None


@dataclass
class VerifiedRelease:
    folder: Path
    manifest: ManifestJson
    # Pattern findings of the secret scan a person accepted (set by validate_release).
    accepted_findings: list[SecretFinding] = field(default_factory=list)

    @property
    def version(self) -> str:
        return self.manifest["version"]

    @property
    def subsets(self) -> dict[str, list[str]]:
        """Subset -> sample ids in released order."""
        return {
            name: [s["id"] for s in entry["samples"]]
            for name, entry in self.manifest["subsets"].items()
        }

    @property
    def configs(self) -> dict[str, list[str]]:
        """Every config (subsets, then task configs) -> row ids in released order."""
        tasks = self.manifest.get("tasks") or {}
        return {**self.subsets, **{n: [s["id"] for s in e["samples"]] for n, e in tasks.items()}}


def verify_release(folder: Path, expected_version: str | None = None) -> VerifiedRelease:
    """Check every file against the manifest; raise ManifestError listing each problem."""
    manifest = read_typed_manifest(folder)
    problems: list[str] = []
    if expected_version is not None and manifest["version"] != expected_version.removeprefix("v"):
        problems.append(f"manifest says version {manifest['version']}, expected {expected_version}")
    listed = manifest.get("files", {})
    for relative, entry in sorted(listed.items()):
        path = folder / relative
        if not path.is_file():
            problems.append(f"{relative}: missing")
        elif sha256_file(path) != entry["sha256"]:
            problems.append(f"{relative}: sha256 differs from the manifest (file changed)")
    for relative in release_files(folder):
        if relative not in listed:
            problems.append(f"{relative}: not listed in the manifest (unexpected file)")
    if problems:
        raise ManifestError(
            f"{folder}: release does not match its manifest:\n  " + "\n  ".join(problems)
        )
    return VerifiedRelease(folder=folder, manifest=manifest)
