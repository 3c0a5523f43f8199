"""`annotate tasks push`: one Label Studio project per model-written task, one task per item.

QA tasks send every built instance (SWiM: no QA item is released unvalidated); recall
tasks send the chunks the builder sampled for a check (`check` in chunk_labels.jsonl)
of the instances that were built. Like `annotate push`, it is idempotent: the project is
found by the id in WORK/labelstudio/task_checks.json, else by title, else created;
items are matched by `data.item_id`; an item whose content changed is refreshed only
while nobody touched its task; duplicates (lost import responses) are removed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

from typing_extensions import TypedDict

from lengthwise.annotation.labelstudio.payloads import CheckImportJson
from lengthwise.annotation.labelstudio.push import deduplicated_tasks, project_title
from lengthwise.annotation.labelstudio.sdk import LabelStudioAPI, RemoteProject
from lengthwise.annotation.task_checks.interface import (
    MODEL_VERSION,
    QA_CONFIG,
    RECALL_CONFIG,
    chunk_payload,
    qa_payload,
)
from lengthwise.errors import InputFileError, MissingInputError
from lengthwise.spec import Spec
from lengthwise.storage import atomic_write_json, read_json
from lengthwise.store import WorkStore
from lengthwise.task_spec import TaskSpec
from lengthwise.workdir import WorkDir

CHECKED_FAMILIES = ("qa", "recall")
BATCH_SIZE = 50


@dataclass
class TaskPushResult:
    task: str
    family: str
    project_id: int
    project_title: str
    created_project: bool = False
    items: Counter[str] = field(default_factory=Counter)  # by question kind or "chunk"
    imported: int = 0
    updated: int = 0
    kept: int = 0  # content changed, but a person already worked on the task: left alone
    unchanged: int = 0
    removed_duplicates: int = 0

    def to_dict(self) -> TaskPushJson:
        return {
            "task": self.task,
            "family": self.family,
            "project_id": self.project_id,
            "project_title": self.project_title,
            "created_project": self.created_project,
            "items": dict(sorted(self.items.items())),
            "imported": self.imported,
            "updated": self.updated,
            "kept": self.kept,
            "unchanged": self.unchanged,
            "removed_duplicates": self.removed_duplicates,
        }


class TaskPushJson(TypedDict):
    """A push's result, as WORK/labelstudio/task_checks.json keeps it (field order)."""

    task: str
    family: str
    project_id: int
    project_title: str
    created_project: bool
    items: dict[str, int]
    imported: int
    updated: int
    kept: int
    unchanged: int
    removed_duplicates: int


class LastPushJson(TaskPushJson):
    at: str


class TaskCheckStateJson(TypedDict, total=False):
    """One task's entry in WORK/labelstudio/task_checks.json."""

    url: str
    project_id: int
    project_title: str
    last_push: LastPushJson


def checked_tasks(spec: Spec) -> list[TaskSpec]:
    return [task for task in spec.tasks if task.family in CHECKED_FAMILIES]


TITLE_LIMIT = 50  # Label Studio refuses longer project titles (HTTP 400)


def check_project_title(spec: Spec, task: str) -> str:
    """The benchmark's project title, cut to leave room, then " · check <task>"."""
    suffix = f" · check {task}"
    return project_title(spec)[: max(0, TITLE_LIMIT - len(suffix))].rstrip() + suffix


def push_task_checks(spec: Spec, work_dir: Path, api: LabelStudioAPI) -> list[TaskPushResult]:
    """Bring every checked task's project in line with its built items (module docstring)."""
    work = WorkDir(work_dir)
    api.whoami()  # fail early, with a clear message, when the server or token is wrong
    return [_push_task(spec, work, api, task) for task in checked_tasks(spec)]


def task_payloads(work: WorkDir, task: TaskSpec) -> dict[str, CheckImportJson]:
    """Import rows by item id: every QA instance, or the sampled chunks of built instances."""
    store = WorkStore(work)
    instances = store.task_instances(task.name)
    if not instances:
        raise MissingInputError(
            f"{work.tasks / task.name}: task {task.name!r} not built; run `lengthwise build SPEC`"
        )
    if task.family == "qa":
        return {i.id: qa_payload(i) for i in instances}
    built = {i.id for i in instances}
    chunks = [c for c in store.chunk_labels(task.name) if c.check and c.instance_id in built]
    return {c.id: chunk_payload(c) for c in chunks}


def _push_task(spec: Spec, work: WorkDir, api: LabelStudioAPI, task: TaskSpec) -> TaskPushResult:
    payloads = task_payloads(work, task)
    config = QA_CONFIG if task.family == "qa" else RECALL_CONFIG
    project, created = _project(spec, work, api, task.name, config)
    result = TaskPushResult(task.name, task.family, project.id, project.title, created)
    description = f"lengthwise: check the model-written items of task {task.name}"
    api.update_project(project.id, label_config=config, maximum_annotations=1,
                       description=description)  # fmt: skip
    remote = deduplicated_tasks(api, api.list_tasks(project.id), result, key="item_id")
    missing = []
    for item_id, payload in payloads.items():
        data = payload["data"]
        result.items[str(data.get("question_kind") or "chunk")] += 1
        found = remote.get(item_id)
        if found is None:
            missing.append(payload)
        elif found.data.get("payload_sha256") == data["payload_sha256"]:
            result.unchanged += 1
        elif found.human_touched:
            result.kept += 1
        else:
            api.update_task_data(found.id, data)
            if payload["predictions"]:
                api.replace_predictions(found, payload["predictions"][0]["result"], MODEL_VERSION)
            result.updated += 1
    for start in range(0, len(missing), BATCH_SIZE):
        api.import_tasks(project.id, missing[start : start + BATCH_SIZE])
        result.imported += len(missing[start : start + BATCH_SIZE])
    if payloads:
        api.set_prelabel_model_version(project.id, MODEL_VERSION)
    at = datetime.now(UTC).isoformat(timespec="seconds")
    _update_state(work, task.name, {"last_push": {"at": at, **result.to_dict()}})
    return result


def _project(
    spec: Spec, work: WorkDir, api: LabelStudioAPI, task: str, config: str
) -> tuple[RemoteProject, bool]:
    title = check_project_title(spec, task)
    stored = load_task_state(work).get(task, {})
    if stored.get("url") == api.url and isinstance(stored.get("project_id"), int):
        project = api.get_project(stored["project_id"])
        if project is not None and project.title == title:
            return project, False
    found = api.find_projects(title)
    created = not found
    project = found[0] if found else api.create_project(title, config, 1, title)
    # Stored at once: a rerun after a crash finds the project even if renamed later.
    _update_state(work, task, {"url": api.url, "project_id": project.id, "project_title": title})
    return project, created


def load_task_state(work: WorkDir) -> dict[str, TaskCheckStateJson]:
    """WORK/labelstudio/task_checks.json: per task, its project and the last push."""
    path = work.labelstudio.task_checks_state
    if not path.is_file():
        return {}
    try:
        state = read_json(path)
    except ValueError as exc:
        raise InputFileError(f"{path}: not valid JSON ({exc}); delete it to start over") from None
    if not isinstance(state, dict):
        raise InputFileError(f"{path}: expected a JSON object")
    return cast(dict[str, TaskCheckStateJson], state)  # read defensively where used


def _update_state(work: WorkDir, task: str, values: TaskCheckStateJson) -> None:
    state = load_task_state(work)
    state[task] = {**state.get(task, {}), **values}
    atomic_write_json(work.labelstudio.task_checks_state, state)
