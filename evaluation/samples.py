"""The samples an evaluation runs on: a verified release folder or a pinned Hub revision.

A release is read through the releases area (`fetch_release` verifies every file
against manifest.json), so a run can name exactly what it scored: the folder or
``ORG/NAME@REV`` plus the sha256 of the manifest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lengthwise.errors import InputFileError, UserError
from lengthwise.evaluation.task_configs import (
    TaskConfig,
    read_instances,
    select_configs,
    split_configs,
)
from lengthwise.releases.hub.fetch import fetch_release, parse_release_ref
from lengthwise.releases.release.layout import data_file
from lengthwise.releases.release.manifest import read_manifest
from lengthwise.releases.release.summaries import synthetic_references
from lengthwise.storage import sha256_file
from lengthwise.task_records import DetailValue, TaskInstance

SUMMARIZATION = "summarization"
# kind, path (or repo_id, revision), version, manifest_sha256, primary_tokenizer,
# synthetic_references: written to results.json as is.
ReleaseIdentity = dict[str, str | int | None]

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
    # Task families (lengthwise.evaluation.tasks); a summary sample keeps the defaults.
    task: str = "summarization"  # the [[tasks]] entry's name
    family: str = "summarization"
    length: str = ""  # the length's name ("" = the subset: summary subsets are lengths)
    question: str = ""  # the instance's question or instruction
    answers: tuple[str, ...] = ()  # the family's references (TaskInstance.answers)
    depth: float | None = None  # where the evidence sits, 0.0 .. 1.0
    fill: float | None = None  # share of the window filled with distractors
    details: Mapping[str, DetailValue] = field(default_factory=dict)
    # Filled into the task's template beside the context ({question}, {example}, ...).
    prompt_fields: tuple[tuple[str, str], ...] = ()

    @property
    def length_name(self) -> str:
        return self.length or self.subset


@dataclass(frozen=True)
class ReleaseData:
    """Samples per subset (in subset length order) and where they came from."""

    identity: ReleaseIdentity  # kind, path or repo_id@revision, version, manifest_sha256
    subsets: dict[str, list[EvalSample]]
    unscorable: dict[str, int]  # subset -> rows without a reference summary (generated, not scored)

    @property
    def manifest_sha256(self) -> str:
        return str(self.identity["manifest_sha256"])

    @property
    def primary_tokenizer(self) -> str:
        return str(self.identity.get("primary_tokenizer") or "")

    def subset_targets(self) -> dict[str, int]:
        return {name: rows[0].target_tokens if rows else 0 for name, rows in self.subsets.items()}


def normalise_language(value: str) -> str:
    """'zh-Hans', 'zh_CN' -> 'zh'; 'en-GB' -> 'en'; others unchanged (lower case)."""
    lowered = value.strip().lower().replace("_", "-")
    return lowered.split("-", 1)[0] if lowered else lowered


def resolve_release(ref: str, download_dir: Path | None = None) -> tuple[Path, ReleaseIdentity]:
    """(verified local folder, identity) for a release folder or ``ORG/NAME@REV``."""
    local = Path(ref).expanduser()
    if local.is_dir():
        folder = fetch_release(str(local))
        identity: ReleaseIdentity = {"kind": "folder", "path": str(folder.resolve())}
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


def _read_subset(folder: Path, subset: str) -> list[dict[str, object]]:
    import pyarrow.parquet as pq

    path = folder / data_file(subset)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: the release has no subset {subset!r}")
    table = pq.read_table(path)
    missing = [c for c in _REQUIRED_COLUMNS if c not in table.column_names]
    if missing:
        raise InputFileError(f"{path}: missing columns {missing} (is this a lengthwise release?)")
    rows: list[dict[str, object]] = table.to_pylist()
    return rows


def load_release(
    ref: str,
    subsets: list[str] | None = None,
    *,
    limit: int | None = None,
    download_dir: Path | None = None,
    tasks: Sequence[str] = (SUMMARIZATION,),
) -> ReleaseData:
    """Read the configs of `tasks` at `subsets` (default: every length) of a release.

    ``summarization`` reads the summary subsets (shortest first); any other name reads
    the task-family configs whose rows have that task or family name (grouped by task,
    shortest first; lengthwise.evaluation.task_configs). `limit` keeps the first N rows
    of each config in released order (quick checks). Rows without a reference cannot
    be scored: they are generated (outcomes and plans still mean something, and
    answers are ready when references arrive), counted as unscorable, and left out of
    every mean.
    """
    folder, identity = resolve_release(ref, download_dir)
    manifest = read_manifest(folder)
    summary_subsets, task_configs = split_configs(folder, manifest)
    others = [name for name in tasks if name != SUMMARIZATION]
    chosen = select_configs(task_configs, others, subsets)
    _check_task_names(others, chosen, task_configs, subsets)
    loaded: dict[str, list[EvalSample]] = {}
    unscorable: dict[str, int] = {}
    synthetic = 0
    if SUMMARIZATION in tasks:
        wanted = _summary_subsets(summary_subsets, subsets, chosen)
        synthetic = _load_summaries(folder, wanted, limit, loaded, unscorable)
    for config in chosen:
        loaded[config.name] = [task_sample(config, i) for i in read_instances(config, limit)]
        if config.family == "incremental":
            unscorable[config.name] = len(loaded[config.name])
    identity["primary_tokenizer"] = str(manifest.get("spec", {}).get("primary_tokenizer") or "")
    identity["synthetic_references"] = synthetic
    return ReleaseData(identity, loaded, unscorable)


def _summary_subsets(
    available: list[str], subsets: list[str] | None, chosen: Sequence[TaskConfig]
) -> list[str]:
    """The summary subsets asked for; an unknown name is an error unless a task has it."""
    wanted = subsets or available
    unknown = [s for s in wanted if s not in available]
    if unknown and not chosen:
        raise UserError(f"subsets {unknown} are not in the release (it has {available})")
    return [s for s in wanted if s in available]


def _check_task_names(
    names: Sequence[str],
    chosen: Sequence[TaskConfig],
    configs: Mapping[str, TaskConfig],
    lengths: Sequence[str] | None,
) -> None:
    for name in names:
        if not any(c.matches(name) for c in chosen):
            known = sorted(
                {c.task for c in configs.values()} | {c.family for c in configs.values()}
            )
            at = f" at lengths {list(lengths)}" if lengths else ""
            raise UserError(
                f"task {name!r}: no release config holds it{at} (tasks in the release: "
                f"{[SUMMARIZATION, *known]})"
            )


def _load_summaries(
    folder: Path,
    wanted: list[str],
    limit: int | None,
    loaded: dict[str, list[EvalSample]],
    unscorable: dict[str, int],
) -> int:
    """Add the summary subsets to `loaded`, shortest first; return how many references
    are synthetic (the synthetic demo: the report says so)."""
    found: dict[str, list[EvalSample]] = {}
    synthetic = 0
    for subset in wanted:
        rows = _read_subset(folder, subset)
        if limit is not None:
            rows = rows[:limit]
        synthetic += synthetic_references(rows)
        samples = [_summary_sample(subset, row) for row in rows]
        missing = sum(1 for sample in samples if sample.reference is None)
        if missing:
            unscorable[subset] = missing
        found[subset] = samples
    order = sorted(found, key=lambda name: (_target(found[name]), wanted.index(name)))
    loaded.update({name: found[name] for name in order})
    return synthetic


def _summary_sample(subset: str, row: Mapping[str, object]) -> EvalSample:
    summary = row.get(SUMMARY_COLUMN)
    reference = summary if isinstance(summary, str) and summary.strip() else None
    return EvalSample(
        id=str(row["id"]),
        subset=subset,
        language=normalise_language(str(row["language"])),
        context=str(row[CONTEXT_COLUMN]),
        reference=reference,
        target_tokens=_int(row.get("target") or row.get("tokens")),
        book_id=str(row.get("book_id") or ""),
        first_chapter=_int(row.get("first_chapter")),
        drafts=_drafts(row.get(DRAFTS_COLUMN)),
    )


def task_sample(config: TaskConfig, instance: TaskInstance) -> EvalSample:
    """A task instance as the evaluator's sample (its subset is the release config)."""
    return EvalSample(
        id=instance.id,
        subset=config.name,
        language=normalise_language(instance.language),
        context=instance.context,
        reference=None,
        target_tokens=instance.target,
        book_id=instance.book_id,
        task=instance.task,
        family=instance.family,
        length=instance.length,
        question=instance.question,
        answers=tuple(instance.answers),
        depth=instance.depth,
        fill=instance.fill,
        details=dict(instance.details),
    )


def _int(value: object) -> int:
    return int(value) if isinstance(value, int | float | str) and str(value).strip() else 0


def _drafts(value: object) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not value:
        return None
    return tuple(str(d) for d in value)


def _target(samples: list[EvalSample]) -> int:
    return samples[0].target_tokens if samples else 0
