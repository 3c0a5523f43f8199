"""The samples an evaluation runs on: a verified release folder or a pinned Hub revision.

A release is read through the releases area (`fetch_release` verifies every file
against manifest.json), so a run can name exactly what it scored: the folder or
``ORG/NAME@REV`` plus the sha256 of the manifest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lengthwise.errors import InputFileError, UserError
from lengthwise.releases.hub.fetch import fetch_release, parse_release_ref
from lengthwise.releases.release.layout import data_file
from lengthwise.releases.release.manifest import read_manifest
from lengthwise.releases.release.summaries import synthetic_references
from lengthwise.storage import sha256_file

_HUB_REPO = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
# The released columns the evaluator reads (lengthwise.releases.release.schema).
CONTEXT_COLUMN = "context"
SUMMARY_COLUMN = "summary"
DRAFTS_COLUMN = "chapter_drafts"  # optional: the drafts annotators started from
_REQUIRED_COLUMNS = ("id", "subset", "language", CONTEXT_COLUMN, SUMMARY_COLUMN)


@dataclass(frozen=True)
class EvalSample:
    id: str
    subset: str
    language: str  # "zh" or "en" (decides prompt wording and the ROUGE tokenizer)
    context: str
    reference: str | None  # the human summary; None before annotation (generated, not scored)
    target_tokens: int  # the subset's target length, for ordering subsets and plots
    book_id: str = ""
    first_chapter: int = 0
    drafts: tuple[str, ...] | None = None  # chapter drafts, when the release ships them


@dataclass(frozen=True)
class ReleaseData:
    """Samples per subset (in subset length order) and where they came from."""

    identity: dict[str, Any]  # kind, path or repo_id@revision, version, manifest_sha256
    subsets: dict[str, list[EvalSample]]
    unscorable: dict[str, int]  # subset -> rows without a reference summary (generated, not scored)

    def subset_targets(self) -> dict[str, int]:
        return {name: rows[0].target_tokens if rows else 0 for name, rows in self.subsets.items()}


def normalise_language(value: str) -> str:
    """'zh-Hans', 'zh_CN' -> 'zh'; 'en-GB' -> 'en'; others unchanged (lower case)."""
    lowered = value.strip().lower().replace("_", "-")
    return lowered.split("-", 1)[0] if lowered else lowered


def resolve_release(ref: str, download_dir: Path | None = None) -> tuple[Path, dict[str, Any]]:
    """(verified local folder, identity) for a release folder or ``ORG/NAME@REV``."""
    local = Path(ref).expanduser()
    if local.is_dir():
        folder = fetch_release(str(local))
        identity: dict[str, Any] = {"kind": "folder", "path": str(folder.resolve())}
    else:
        repo_id, revision = parse_release_ref(ref)
        if not _HUB_REPO.match(repo_id):
            raise UserError(
                f"--release {ref!r}: no such folder, and not of the form ORG/NAME@REVISION"
            )
        folder = fetch_release(repo_id, revision, out=download_dir)
        identity = {"kind": "hub", "repo_id": repo_id, "revision": revision, "path": str(folder)}
    manifest = read_manifest(folder)
    identity["version"] = str(manifest.get("version", ""))
    identity["manifest_sha256"] = sha256_file(folder / "manifest.json")
    return folder, identity


def _read_subset(folder: Path, subset: str) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    path = folder / data_file(subset)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: the release has no subset {subset!r}")
    table = pq.read_table(path)
    missing = [c for c in _REQUIRED_COLUMNS if c not in table.column_names]
    if missing:
        raise InputFileError(f"{path}: missing columns {missing} (is this a lengthwise release?)")
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


def load_release(
    ref: str,
    subsets: list[str] | None = None,
    *,
    limit: int | None = None,
    download_dir: Path | None = None,
) -> ReleaseData:
    """Read `subsets` (default: all in the manifest) of a release, shortest subset first.

    `limit` keeps the first N samples of each subset in released order (quick checks).
    Rows without a reference summary cannot be scored: they are generated (outcomes and
    plans still mean something, and answers are ready when references arrive), counted as
    unscorable, and left out of every mean.
    """
    folder, identity = resolve_release(ref, download_dir)
    manifest = read_manifest(folder)
    available = list(manifest["subsets"])
    wanted = subsets or available
    unknown = [s for s in wanted if s not in available]
    if unknown:
        raise UserError(f"subsets {unknown} are not in the release (it has {available})")
    loaded: dict[str, list[EvalSample]] = {}
    unscorable: dict[str, int] = {}
    synthetic = 0  # references no person wrote (the synthetic demo): the report says so
    for subset in wanted:
        rows = _read_subset(folder, subset)
        if limit is not None:
            rows = rows[:limit]
        synthetic += synthetic_references(rows)
        samples: list[EvalSample] = []
        for row in rows:
            summary = row.get(SUMMARY_COLUMN)
            if not isinstance(summary, str) or not summary.strip():
                unscorable[subset] = unscorable.get(subset, 0) + 1
                summary = None
            samples.append(
                EvalSample(
                    id=str(row["id"]),
                    subset=subset,
                    language=normalise_language(str(row["language"])),
                    context=str(row[CONTEXT_COLUMN]),
                    reference=summary,
                    target_tokens=int(row.get("target") or row.get("tokens") or 0),
                    book_id=str(row.get("book_id") or ""),
                    first_chapter=int(row.get("first_chapter") or 0),
                    drafts=_drafts(row.get(DRAFTS_COLUMN)),
                )
            )
        loaded[subset] = samples
    identity["primary_tokenizer"] = str(manifest.get("spec", {}).get("primary_tokenizer") or "")
    identity["synthetic_references"] = synthetic
    order = sorted(loaded, key=lambda name: (_target(loaded[name]), wanted.index(name)))
    return ReleaseData(identity, {name: loaded[name] for name in order}, unscorable)


def _drafts(value: Any) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not value:
        return None
    return tuple(str(d) for d in value)


def _target(samples: list[EvalSample]) -> int:
    return samples[0].target_tokens if samples else 0
