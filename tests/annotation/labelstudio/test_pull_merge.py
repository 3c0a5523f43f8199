"""How pull merges exports into stored annotations (a stand-in server, no network)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow.parquet as pq

from lengthwise.annotation.labelstudio.pull import pull
from lengthwise.annotation.labelstudio.sdk import RemoteProject
from lengthwise.annotation.review.inputs import read_drafts
from lengthwise.spec import load_spec

if TYPE_CHECKING:
    from tests.annotation.labelstudio.conftest import DemoWork


class FakeLabelStudio:
    """Answers what pull asks: the project, its JSON export and the users."""

    url = "http://fake.invalid"

    def __init__(self, tasks: list[dict[str, Any]]) -> None:
        self.tasks = tasks

    def get_project(self, project_id: int) -> RemoteProject | None:
        return RemoteProject(7, "lengthwise e2e", "", 2, None) if project_id == 7 else None

    def find_projects(self, title: str) -> list[RemoteProject]:
        return [RemoteProject(7, title, "", 2, None)]

    def export_json(self, project_id: int) -> list[dict[str, Any]]:
        return self.tasks

    def users(self) -> dict[int, str]:
        return {5: "ann@example.org", 6: "ben@example.org"}


def annotation(uid: str, user: int, summary: str, updated: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": int(uid.removeprefix("u")), "unique_id": uid, "completed_by": user,
        "result": [{"from_name": "summary", "to_name": "drafts", "type": "textarea",
                    "value": {"text": [summary]}}],
        "was_cancelled": False, "created_at": "2026-01-01T00:00:00Z", "updated_at": updated,
        "lead_time": 10.0, **extra,
    }  # fmt: skip


def task(
    sample: dict[str, Any], drafts: list[str], annotations: list[dict[str, Any]]
) -> dict[str, Any]:
    data = {"sample_id": sample["id"], "subset": sample["subset"], "language": sample["language"],
            "drafts": [{"text": d} for d in drafts], "drafts_sha256": "x"}  # fmt: skip
    return {"id": 1, "data": data, "annotations": annotations}


def test_pull_keeps_newer_stored_versions_and_annotations_gone_from_the_server(
    demo_work: DemoWork, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    for folder in ("samples", "corpus", "drafts"):
        shutil.copytree(demo_work.work / folder, work / folder)
    spec = load_spec(demo_work.spec_path)
    sample = pq.read_table(work / "samples" / "S.parquet").to_pylist()[0]
    drafts = read_drafts(work / "drafts" / "samples.jsonl")[sample["id"]].texts

    def run(*annotations: dict[str, Any]) -> Any:
        stray = {"id": 2, "data": {"text": "not ours"}, "annotations": []}
        return pull(spec, work, FakeLabelStudio([task(sample, drafts, list(annotations)), stray]))  # type: ignore[arg-type]

    def final_summary() -> str | None:
        rows = pq.read_table(work / "samples_annotated" / "S.parquet").to_pylist()
        return next(r for r in rows if r["id"] == sample["id"])["summary"]

    first = run(annotation("u1", 5, "Version two.", "2026-01-02T00:00:00Z"),
                annotation("u2", 6, "Another view.", "2026-01-02T00:00:00Z"))  # fmt: skip
    assert (first.new, first.unknown_tasks) == (2, [2])
    stored = [json.loads(line) for line in (work / "annotations" / "annotations.jsonl").open()]
    assert {r["annotator"] for r in stored} == {"ann@example.org", "ben@example.org"}

    # An older version of u1 (a stale server or backup) never replaces the stored one.
    older = run(annotation("u1", 5, "Version one.", "2026-01-01T12:00:00Z"),
                annotation("u2", 6, "Another view.", "2026-01-02T00:00:00Z"))  # fmt: skip
    assert older.kept_newer_local == 1 and older.unchanged == 1
    stored = {
        r["unique_id"]: r
        for r in map(json.loads, (work / "annotations" / "annotations.jsonl").open())
    }
    assert stored["u1"]["summary"] == "Version two."

    # A newer version replaces it.
    newer = run(annotation("u1", 5, "Version three.", "2026-01-03T00:00:00Z"),
                annotation("u2", 6, "Another view.", "2026-01-02T00:00:00Z"))  # fmt: skip
    assert newer.updated == 1

    # Annotations deleted on the server stay here, marked, and still count.
    gone = run()
    assert gone.gone_from_server == 2
    stored = {
        r["unique_id"]: r
        for r in map(json.loads, (work / "annotations" / "annotations.jsonl").open())
    }
    assert stored["u1"]["summary"] == "Version three." and stored["u1"]["in_label_studio"] is False
    assert final_summary() in ("Version three.", "Another view.")
