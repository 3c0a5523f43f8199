"""Where a release lives: versions, tags and the files of a release folder.

A release folder is laid out exactly like a Hugging Face dataset repository, so the
same folder loads with ``datasets.load_dataset(folder, subset)`` and, once uploaded,
with ``load_dataset(repo_id, subset, revision=tag)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lengthwise.errors import UserError
from lengthwise.names import VERSION_PATTERN as VERSION_PATTERN  # re-exported (fetch)
from lengthwise.names import InvalidNameError, check_name
from lengthwise.names import parse_version as _parse_version
from lengthwise.workdir import WorkDir

SPLIT = "test"

MANIFEST = "manifest.json"
CARD = "README.md"
DIFF = "diff.json"
SPEC_COPY = "spec.toml"
STATS_COPY = "statistics.json"


class ReleaseError(UserError):
    """A release cannot be built, validated or published; the message says why."""


def parse_version(text: str) -> tuple[int, int, int]:
    """'1.2.3' or 'v1.2.3' -> (1, 2, 3); anything else is a ReleaseError."""
    try:
        return _parse_version(text)
    except InvalidNameError as exc:
        raise ReleaseError(str(exc)) from None


def normalise_version(text: str) -> str:
    """The version without a leading 'v', validated."""
    return ".".join(str(part) for part in parse_version(text))


def tag_for(version: str) -> str:
    """The git tag (and Hub revision) of a version: 'v' + X.Y.Z."""
    return f"v{normalise_version(version)}"


def check_config_name(name: str) -> str:
    """Config names become folder names and YAML values: one plain name (names.py)."""
    try:
        return check_name(name, "dataset config name")
    except InvalidNameError as exc:
        raise ReleaseError(str(exc)) from None


def data_file(subset: str) -> str:
    """The repository path of a subset's test split (one parquet shard)."""
    return f"{check_config_name(subset)}/{SPLIT}-00000-of-00001.parquet"


def releases_root(work_root: Path) -> Path:
    return WorkDir(work_root).releases


@dataclass(frozen=True)
class ReleaseFolder:
    root: Path

    @property
    def manifest(self) -> Path:
        return self.root / MANIFEST

    @property
    def card(self) -> Path:
        return self.root / CARD

    @property
    def diff(self) -> Path:
        return self.root / DIFF

    def data(self, subset: str) -> Path:
        return self.root / data_file(subset)


def release_folder(work_root: Path, version: str) -> ReleaseFolder:
    return ReleaseFolder(releases_root(work_root) / tag_for(version))


def released_versions(work_root: Path) -> list[str]:
    """Versions with a finished release folder (one holding a manifest), oldest first."""
    root = releases_root(work_root)
    if not root.is_dir():
        return []
    found: list[tuple[tuple[int, int, int], str]] = []
    for child in root.iterdir():
        if not (child.is_dir() and (child / MANIFEST).is_file()):
            continue
        try:
            found.append((parse_version(child.name), normalise_version(child.name)))
        except ReleaseError:
            continue  # staging folders and anything else that is not a version
    return [version for _, version in sorted(found)]


def previous_version(work_root: Path, version: str) -> str | None:
    """The highest released version below `version`, or None for a first release."""
    current = parse_version(version)
    older = [v for v in released_versions(work_root) if parse_version(v) < current]
    return older[-1] if older else None
