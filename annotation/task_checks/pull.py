"""`annotate tasks pull`: each checked task's decisions into WORK/tasks/<task>/validations.jsonl.

One `TaskValidation` per annotation, keyed by annotation id. A pulled version replaces
the stored one only if it is at least as new (`updated_at`), and rows that disappeared
from Label Studio are kept: a person's decision is never lost by pulling from a stale
server. QA: the question and answer are the texts in the editor (the model's prefill,
as edited), or the model's when the editor was left empty; recall chunks: the names in
the editor, one per line. A skipped task is recorded as decision "skipped".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from lengthwise.annotation.labelstudio.payloads import (
    CheckDataJson,
    ExportedAnnotationJson,
    ResultItemJson,
)
from lengthwise.annotation.labelstudio.pull import _parse_time, _user_id
from lengthwise.annotation.labelstudio.sdk import LabelStudioAPI
from lengthwise.annotation.task_checks.interface import ANSWER, COMMENT, DECISION, NAMES, QUESTION
from lengthwise.annotation.task_checks.push import (
    check_project_title,
    checked_tasks,
    load_task_state,
)
from lengthwise.spec import Spec
from lengthwise.store import WorkStore
from lengthwise.task_checks import TaskValidation
from lengthwise.task_spec import TaskSpec
from lengthwise.workdir import WorkDir


@dataclass
class TaskPullResult:
    task: str
    project_id: int | None  # None: never pushed (nothing pulled)
    annotations: int = 0
    new: int = 0
    updated: int = 0
    kept_newer_local: int = 0
    decisions: Counter[str] = field(default_factory=Counter)  # over the stored rows
    unknown_tasks: int = 0  # Label Studio tasks without an item id


def pull_task_checks(spec: Spec, work_dir: Path, api: LabelStudioAPI) -> list[TaskPullResult]:
    work = WorkDir(work_dir)
    return [_pull_task(spec, work, api, task) for task in checked_tasks(spec)]


def _pull_task(spec: Spec, work: WorkDir, api: LabelStudioAPI, task: TaskSpec) -> TaskPullResult:
    project_id = _project_id(spec, work, api, task.name)
    result = TaskPullResult(task.name, project_id)
    if project_id is None:
        return result
    users = api.users()
    pulled: dict[int, TaskValidation] = {}
    for remote in api.export_json(project_id):
        data = remote.get("data") or {}
        if not isinstance(data.get("item_id"), str):
            result.unknown_tasks += 1
            continue
        for raw in remote.get("annotations") or []:
            # item_id checked above; validation reads every other key defensively
            record = validation(task.name, cast(CheckDataJson, data), raw, users)
            pulled[record.annotation_id] = record
    result.annotations = len(pulled)
    store = WorkStore(work)
    merged = {r.annotation_id: r for r in store.task_validations(task.name)}
    for key, new in pulled.items():
        old = merged.get(key)
        if old is None:
            result.new += 1
        elif _parse_time(new.updated_at) < _parse_time(old.updated_at):
            result.kept_newer_local += 1
            continue
        elif new != old:
            result.updated += 1
        merged[key] = new
    store.write_task_validations(task.name, merged.values())
    result.decisions = Counter(r.decision for r in merged.values())
    return result


def validation(
    task: str, data: CheckDataJson, raw: ExportedAnnotationJson, users: dict[int, str]
) -> TaskValidation:
    """One exported annotation as a typed record (see module docstring)."""
    texts, choices = _controls(raw.get("result") or [])
    shown = [str(a) for a in data.get("shown_answers") or []]
    kind = str(data.get("kind") or "qa")
    if kind == "qa":
        question = texts.get(QUESTION, "").strip() or str(data.get("shown_question") or "")
        typed = texts.get(ANSWER)
        answers = shown if typed is None else ([typed.strip()] if typed.strip() else [])
    else:
        question = ""
        names = texts.get(NAMES)
        answers = shown if names is None else _lines(names)
    decision = "skipped" if raw.get("was_cancelled") or not choices else choices[0]
    annotator_id = _user_id(raw.get("completed_by"))
    return TaskValidation(
        item_id=str(data["item_id"]),
        task=task,
        kind=kind,
        decision=decision,
        question=question,
        answers=answers,
        shown_answers=shown,
        shown_sha256=str(data.get("shown_sha256") or ""),
        annotator=users.get(annotator_id, f"user:{annotator_id}") if annotator_id else "unknown",
        annotation_id=int(raw["id"]),
        updated_at=str(raw.get("updated_at") or raw.get("created_at") or ""),
        comment=texts.get(COMMENT, "").strip(),
    )


def _controls(result: list[ResultItemJson]) -> tuple[dict[str, str], list[str]]:
    texts: dict[str, str] = {}
    choices: list[str] = []
    for item in result:
        value = item.get("value") or {}
        if item.get("from_name") == DECISION:
            choices = [str(c) for c in value.get("choices") or []]
        elif "text" in value:
            texts[str(item.get("from_name"))] = "\n".join(str(t) for t in value["text"] or [])
    return texts, choices


def _lines(text: str) -> list[str]:
    seen: list[str] = []
    for line in text.splitlines():
        name = line.strip(" \t,，、;；")
        if name and name not in seen:
            seen.append(name)
    return seen


def _project_id(spec: Spec, work: WorkDir, api: LabelStudioAPI, task: str) -> int | None:
    stored = load_task_state(work).get(task, {})
    project_id = stored.get("project_id")
    if stored.get("url") == api.url and isinstance(project_id, int) and api.get_project(project_id):
        return project_id
    found = api.find_projects(check_project_title(spec, task))
    return found[0].id if found else None
