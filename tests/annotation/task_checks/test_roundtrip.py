"""push -> a person decides in Label Studio (through the API, as the UI does) -> pull -> gate,
against the real Label Studio server of the annotation end-to-end tests."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import pytest

from lengthwise.annotation.labelstudio.sdk import LabelStudioAPI, RemoteTask
from lengthwise.annotation.task_checks.gate import released_instances
from lengthwise.annotation.task_checks.interface import (
    ANSWER,
    DECISION,
    NAMES,
    OBJECT,
    QUESTION,
)
from lengthwise.annotation.task_checks.push import check_project_title, push_task_checks
from lengthwise.cli import main
from lengthwise.spec import load_spec
from lengthwise.store import WorkStore
from lengthwise.workdir import WorkDir
from tests.annotation.task_checks.conftest import BuiltTasks

if TYPE_CHECKING:
    from tests.annotation.labelstudio.conftest import RunningServer

pytestmark = pytest.mark.slow


def answer(choice: str, texts: dict[str, str]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = [
        {"from_name": DECISION, "to_name": OBJECT, "type": "choices",
         "value": {"choices": [choice]}}
    ]  # fmt: skip
    result += [
        {"from_name": name, "to_name": OBJECT, "type": "textarea", "value": {"text": [text]}}
        for name, text in texts.items()
    ]
    return result


def tasks_by_item(api: LabelStudioAPI, project_id: int) -> dict[str, RemoteTask]:
    return {str(t.data["item_id"]): t for t in api.list_tasks(project_id)}


def test_push_pull_round_trip_releases_only_checked_items(
    built_tasks: BuiltTasks, ls_server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = LabelStudioAPI(ls_server.url, ls_server.credentials.token)
    # A spec named after this test's folder: projects of their own (titles derive from it).
    spec_file = built_tasks.work.parent / "spec.toml"
    text = built_tasks.spec_path.read_text(encoding="utf-8")
    name = f"checks-{built_tasks.work.parent.name}"
    spec_file.write_text(text.replace('name = "model-tasks"', f'name = "{name}"'), "utf-8")
    spec = load_spec(spec_file)
    first = {r.task: r for r in push_task_checks(spec, built_tasks.work, api)}
    qa_project, recall_project = first["qa"].project_id, first["recall"].project_id
    assert first["qa"].imported == len(built_tasks.qa)
    assert first["qa"].items == Counter(str(i.details["kind"]) for i in built_tasks.qa)
    sampled = [c for c in WorkStore(WorkDir(built_tasks.work)).chunk_labels("recall") if c.check]
    assert first["recall"].imported == len(sampled) >= 2
    again = {r.task: r for r in push_task_checks(spec, built_tasks.work, api)}
    assert (again["qa"].imported, again["qa"].unchanged) == (0, len(built_tasks.qa))
    assert api.find_projects(check_project_title(spec, "qa"))[0].id == qa_project

    qa_tasks = tasks_by_item(api, qa_project)
    assert all(t.prediction_ids for t in qa_tasks.values())  # the model's texts prefill
    abstractive = [i for i in built_tasks.qa if i.details["kind"] == "abstractive"]
    api.create_annotation(qa_tasks[abstractive[0].id].id, answer("accept", {}))
    edited = {QUESTION: abstractive[1].question, ANSWER: "Edited by a person."}
    api.create_annotation(qa_tasks[abstractive[1].id].id, answer("edit", edited))
    api.create_annotation(qa_tasks[abstractive[2].id].id, answer("reject", {}))
    api.create_annotation(qa_tasks[abstractive[3].id].id, [], was_cancelled=True)
    chunks = tasks_by_item(api, recall_project)
    for chunk in sampled[:-1]:
        api.create_annotation(chunks[chunk.id].id, answer("confirm", {}))
    corrected = "\n".join([*sampled[-1].names, "A Missed Name"])
    api.create_annotation(chunks[sampled[-1].id].id, answer("correct", {NAMES: corrected}))

    monkeypatch.setenv("LABEL_STUDIO_API_KEY", ls_server.credentials.token)
    code = main(["annotate", "tasks", "pull", str(spec_file), "--work", str(built_tasks.work),
                 "--url", ls_server.url])  # fmt: skip
    assert code == 0
    work = WorkDir(built_tasks.work)
    records = WorkStore(work).task_validations("qa")
    assert Counter(r.decision for r in records) == {"accept": 1, "edit": 1, "reject": 1,
                                                    "skipped": 1}  # fmt: skip
    kept, dropped = released_instances(work, "qa", "qa", built_tasks.qa)
    assert [i.id for i in kept] == [abstractive[0].id, abstractive[1].id]
    assert kept[0].answers == abstractive[0].answers  # accepted: the model's answer
    assert kept[1].answers == ["Edited by a person."]
    assert dropped == {"not validated by a person": len(built_tasks.qa) - 3,
                       "rejected by a person": 1}  # fmt: skip
    kept, dropped = released_instances(work, "recall", "recall", built_tasks.recall)
    assert len(kept) == len(built_tasks.recall) and not dropped
    names = {r.item_id: r.answers for r in WorkStore(work).task_validations("recall")}
    assert names[sampled[-1].id][-1] == "A Missed Name"
