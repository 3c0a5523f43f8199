"""The task-family configs of a release: which configs hold `TaskInstance` rows, read as samples.

A release ships each task at each length as the config ``<task>-<length>``
(lengthwise.task_records.release_config_name) with exactly the columns of
`task_arrow_schema()`, its parquet at ``<config>/test-00000-of-00001.parquet`` and the
config listed in manifest.json (under ``tasks``, or under ``subsets`` beside the summary
subsets). A config is a task config when the manifest lists it under ``tasks``, its
entry names a ``family``, or its parquet has the task columns; the summary subsets are
the others. `--tasks NAME` selects the configs whose rows have ``task == NAME`` or
``family == NAME``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lengthwise.errors import InputFileError
from lengthwise.releases.release.layout import data_file
from lengthwise.task_records import TASK_COLUMNS, TaskInstance

_TASK_MARKERS = ("task", "family")


@dataclass(frozen=True)
class TaskConfig:
    """One task at one length, as released."""

    name: str  # the config: "<task>-<length>"
    task: str
    family: str
    length: str
    target: int
    path: Path

    def matches(self, wanted: str) -> bool:
        return wanted in (self.task, self.family)


def _config_path(folder: Path, name: str, entry: object) -> Path:
    listed = entry.get("data_file") if isinstance(entry, Mapping) else None
    return folder / (str(listed) if listed else data_file(name))


def _has_task_columns(path: Path) -> bool:
    import pyarrow.parquet as pq

    return path.is_file() and set(_TASK_MARKERS) <= set(pq.read_schema(path).names)


def split_configs(
    folder: Path, manifest: Mapping[str, object]
) -> tuple[list[str], dict[str, TaskConfig]]:
    """(summary subsets in manifest order, task configs by name) of a release folder."""
    subsets = manifest.get("subsets")
    tasks = manifest.get("tasks")
    listed_subsets = dict(subsets) if isinstance(subsets, Mapping) else {}
    listed_tasks = dict(tasks) if isinstance(tasks, Mapping) else {}
    summary: list[str] = []
    found: dict[str, TaskConfig] = {}
    for name, entry in {**listed_subsets, **listed_tasks}.items():
        path = _config_path(folder, str(name), entry)
        named = isinstance(entry, Mapping) and "family" in entry
        if name in listed_tasks or named or _has_task_columns(path):
            found[str(name)] = _describe(str(name), path)
        else:
            summary.append(str(name))
    return summary, found


def _describe(name: str, path: Path) -> TaskConfig:
    import pyarrow.parquet as pq

    if not path.is_file():
        raise InputFileError(f"{path}: the release lists task config {name!r} but has no file")
    columns = ["task", "family", "length", "target"]
    table = pq.read_table(path, columns=columns)
    missing = [c for c in columns if c not in table.column_names]
    if missing:
        raise InputFileError(f"{path}: missing columns {missing} (not a task config)")
    rows = table.slice(0, 1).to_pylist()
    if not rows:
        return TaskConfig(name, name, "", "", 0, path)
    row = rows[0]
    return TaskConfig(
        name, str(row["task"]), str(row["family"]), str(row["length"]), int(row["target"]), path
    )


def read_instances(config: TaskConfig, limit: int | None) -> list[TaskInstance]:
    """The config's instances in released order (the first `limit` when given)."""
    import pyarrow.parquet as pq

    table = pq.read_table(config.path)
    missing = [c for c in TASK_COLUMNS if c not in table.column_names]
    if missing:
        raise InputFileError(f"{config.path}: missing columns {missing}")
    if limit is not None:
        table = table.slice(0, limit)
    return [
        TaskInstance.from_row(row, f"{config.path}: row {number}")
        for number, row in enumerate(table.to_pylist())
    ]


def select_configs(
    configs: Mapping[str, TaskConfig], wanted: Sequence[str], lengths: Sequence[str] | None
) -> list[TaskConfig]:
    """Configs matching any name in `wanted` (task or family), at `lengths` when given,
    grouped in the order asked and shortest first inside each task."""
    chosen: list[TaskConfig] = []
    for name in wanted:
        matching = [
            c
            for c in configs.values()
            if c.matches(name) and (lengths is None or c.length in lengths) and c not in chosen
        ]
        chosen += sorted(matching, key=lambda c: (c.task, c.target, c.name))
    return chosen
