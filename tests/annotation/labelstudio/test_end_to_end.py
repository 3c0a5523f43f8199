"""The annotation loop against a real Label Studio server (see conftest.py).

push -> annotators submit through the API with their own tokens -> pull -> samples;
reruns create no duplicates, human work is never overwritten, and a push interrupted
by a server crash completes when rerun.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow.parquet as pq
import pytest
import requests

from lengthwise.annotation.labelstudio.interface import COMMENT, FLAGS, OBJECT, SUMMARY
from lengthwise.annotation.labelstudio.pull import pull
from lengthwise.annotation.labelstudio.push import push
from lengthwise.annotation.labelstudio.sdk import LabelStudioAPI, LabelStudioError, RemoteTask
from lengthwise.annotation.review.inputs import drafter_identity, read_drafts
from lengthwise.cli import main
from lengthwise.spec import Spec, load_spec
from lengthwise.workdir import WorkDir

if TYPE_CHECKING:
    from tests.annotation.labelstudio.conftest import DemoWork, RunningServer

pytestmark = pytest.mark.slow


def spec_titled(demo: DemoWork, title: str) -> Spec:
    spec = load_spec(demo.spec_path)
    annotation = spec.annotation.model_copy(update={"project_title": title})
    return spec.model_copy(update={"annotation": annotation})


def all_sample_ids(work: Path) -> list[str]:
    ids = []
    for path in sorted((work / "samples").glob("*.parquet")):
        ids += [str(row["id"]) for row in pq.read_table(path).to_pylist()]
    return sorted(ids)


def copy_work(demo: DemoWork, target: Path) -> Path:
    """A separate work dir with the same build and drafts (own project state)."""
    for folder in ("samples", "corpus", "drafts"):
        shutil.copytree(demo.work / folder, target / folder)
    return target


def result(
    summary: str, choices: list[str] | None = None, comment: str = ""
) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = [
        {"from_name": SUMMARY, "to_name": OBJECT, "type": "textarea", "value": {"text": [summary]}}
    ]
    if choices:
        items.append(
            {
                "from_name": FLAGS,
                "to_name": OBJECT,
                "type": "choices",
                "value": {"choices": choices},
            }
        )
    if comment:
        items.append(
            {
                "from_name": COMMENT,
                "to_name": OBJECT,
                "type": "textarea",
                "value": {"text": [comment]},
            }
        )
    return items


def by_sample(api: LabelStudioAPI, project_id: int) -> dict[str, list[RemoteTask]]:
    tasks: dict[str, list[RemoteTask]] = {}
    for task in api.list_tasks(project_id):
        tasks.setdefault(str(task.data["sample_id"]), []).append(task)
    return tasks


def annotated_rows(work: Path) -> dict[str, dict[str, Any]]:
    rows = {}
    for path in sorted((work / "samples_annotated").glob("*.parquet")):
        rows.update({str(r["id"]): r for r in pq.read_table(path).to_pylist()})
    return rows


def get(server: RunningServer, path: str) -> requests.Response:
    return requests.get(
        server.url + path,
        headers={"Authorization": f"Token {server.credentials.token}"},
        timeout=60,
    )


def test_push_imports_each_sample_once_with_drafts_links_and_settings(
    demo_work: DemoWork,
    ls_server: RunningServer,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec = load_spec(demo_work.spec_path)
    api = LabelStudioAPI(ls_server.url, ls_server.credentials.token)
    first = push(spec, demo_work.work, api)
    samples = all_sample_ids(demo_work.work)
    assert first.imported + first.unchanged == len(samples)
    assert first.chapter_links, "the original chapters should open from the tasks"

    tasks = by_sample(api, first.project_id)
    assert sorted(tasks) == samples and all(len(t) == 1 for t in tasks.values())
    drafts = read_drafts(demo_work.work / "drafts" / "samples.jsonl")
    some_id = samples[0]
    task = tasks[some_id][0]
    assert [d["heading"] for d in task.data["drafts"]] == [
        c.heading for c in drafts[some_id].chapters
    ]
    assert task.data["limit"] == 500 and task.data["limit_label"] in ("≤ 500 字", "≤ 500 words")

    # The merged drafts are the task's one prediction, under the drafter's identity.
    predictions = get(ls_server, f"/api/predictions/?task={task.id}").json()
    assert len(predictions) == 1
    assert predictions[0]["model_version"] == drafter_identity(WorkDir(demo_work.work))
    assert predictions[0]["result"][0]["value"]["text"] == [drafts[some_id].merged]
    project = get(ls_server, f"/api/projects/{first.project_id}/").json()
    assert project["maximum_annotations"] == 2  # annotators_per_sample
    assert project["model_version"] == predictions[0]["model_version"]  # prefills the editor

    # The original chapter opens for a logged-in user.
    link = task.data["drafts"][0]["url"]
    page = get(ls_server, link)
    assert page.status_code == 200 and task.data["drafts"][0]["heading"] in page.text

    # Pushing again (here through the CLI) imports nothing and duplicates nothing.
    monkeypatch.setenv("LABEL_STUDIO_API_KEY", ls_server.credentials.token)
    code = main(["annotate", "push", str(demo_work.spec_path), "--work", str(demo_work.work),
                 "--url", ls_server.url])  # fmt: skip
    assert code == 0
    assert "imported 0" in capsys.readouterr().out
    again = by_sample(api, first.project_id)
    assert sorted(again) == samples and all(len(t) == 1 for t in again.values())


def test_annotations_are_pulled_into_samples_with_annotators_and_flags(
    demo_work: DemoWork,
    ls_server: RunningServer,
    sign_up: Callable[[str], str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = load_spec(demo_work.spec_path)
    admin = LabelStudioAPI(ls_server.url, ls_server.credentials.token)
    project_id = push(spec, demo_work.work, admin).project_id
    alice = LabelStudioAPI(ls_server.url, sign_up("alice@example.com"))
    bob = LabelStudioAPI(ls_server.url, sign_up("bob@example.com"))
    tasks = by_sample(admin, project_id)
    drafts = read_drafts(demo_work.work / "drafts" / "samples.jsonl")
    zh_id = next(s for s in sorted(tasks) if tasks[s][0].data["language"] == "zh")
    en_id = next(s for s in sorted(tasks) if tasks[s][0].data["language"] == "en")
    zh_task, en_task = tasks[zh_id][0].id, tasks[en_id][0].id

    rewritten = "林清与赵远在渡口相遇，二人为一把旧钥匙争执不下，最后决定一同前往北山驿寻找真相。"
    conflict = result(rewritten, ["synopsis conflict"], "第二章梗概与原文不符")
    alice.create_annotation(zh_task, conflict, lead_time=120.0)
    bob.create_annotation(zh_task, result(drafts[zh_id].merged), lead_time=15.0)  # copied drafts
    opinion = "In my opinion the author writes a moving story: Ada hides the key and flees."
    alice.create_annotation(en_task, result(opinion, ["needs original text"]), lead_time=80.0)
    bob.create_annotation(en_task, [], was_cancelled=True)  # skipped

    pulled = pull(spec, demo_work.work, admin)
    assert pulled.new == 4 and pulled.annotations == 4

    rows = annotated_rows(demo_work.work)
    assert sorted(rows) == all_sample_ids(demo_work.work)  # every sample, annotated or not
    zh = rows[zh_id]
    assert zh["summary"] == rewritten and zh["summary_source"] == "rule"
    assert zh["summary_annotator"] == "alice@example.com"
    assert set(zh["annotators"]) == {"alice@example.com", "bob@example.com"}
    assert len(zh["annotator_ids"]) == 2 and zh["annotation_count"] == 2
    assert zh["quality_flags"] == [] and zh["choice_flags"] == ["synopsis conflict"]
    assert zh["comments"] == ["第二章梗概与原文不符"]
    assert zh["agreement"] is not None and 0.0 <= zh["agreement"] < 0.5
    assert zh["synopses"] == drafts[zh_id].texts
    per_annotator = {a["annotator"]: a for a in json.loads(zh["annotations"])}
    assert "not_rewritten" in per_annotator["bob@example.com"]["flags"]
    assert per_annotator["bob@example.com"]["copied_share"] == pytest.approx(1.0)

    en = rows[en_id]
    assert en["summary"] == opinion and en["quality_flags"] == ["commentary"]
    assert en["cancelled_count"] == 1 and en["annotation_count"] == 1
    untouched = next(r for sid, r in rows.items() if sid not in (zh_id, en_id))
    assert untouched["summary"] is None and untouched["summary_source"] == "none"

    report = json.loads((demo_work.work / "annotations" / "report.json").read_text("utf-8"))
    assert report["flags"]["not_rewritten"] >= 1 and report["flags"]["commentary"] == 1
    assert report["flags"]["cancelled"] == 1
    assert report["annotators"]["bob@example.com"]["cancelled"] == 1

    # A second pull changes nothing on disk.
    files = [demo_work.work / "annotations" / "annotations.jsonl",
             *sorted((demo_work.work / "samples_annotated").glob("*.parquet"))]  # fmt: skip
    before = [f.read_bytes() for f in files]
    again = pull(spec, demo_work.work, admin)
    assert again.new == 0 and again.unchanged == 4
    assert [f.read_bytes() for f in files] == before

    assert (
        main(["annotate", "status", str(demo_work.spec_path), "--work", str(demo_work.work)]) == 0
    )
    out = capsys.readouterr().out
    assert "alice@example.com" in out and "not_rewritten" in out


def test_human_work_is_never_overwritten(
    demo_work: DemoWork, ls_server: RunningServer, sign_up: Callable[[str], str], tmp_path: Path
) -> None:
    work = copy_work(demo_work, tmp_path / "work")
    spec = spec_titled(demo_work, "lengthwise e2e edits")
    admin = LabelStudioAPI(ls_server.url, ls_server.credentials.token)
    project_id = push(spec, work, admin).project_id
    tasks = by_sample(admin, project_id)
    edited_id, untouched_id = sorted(tasks)[:2]
    carol = LabelStudioAPI(ls_server.url, sign_up("carol@example.com"))
    annotation = carol.create_annotation(tasks[edited_id][0].id, result("Version one."))

    # New drafts arrive for both samples: only the untouched task is refreshed.
    drafts_file = work / "drafts" / "samples.jsonl"
    rows = [json.loads(line) for line in drafts_file.read_text("utf-8").splitlines()]
    for row in rows:
        if row["id"] in (edited_id, untouched_id):
            for chapter in row["chapters"]:
                chapter["draft"] += " REVISED"
    drafts_file.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    second = push(spec, work, admin)
    assert (second.kept, second.updated, second.imported) == (1, 1, 0)
    after = by_sample(admin, project_id)
    assert all(len(t) == 1 for t in after.values())
    assert "REVISED" not in json.dumps(after[edited_id][0].data)
    assert all(d["text"].endswith("REVISED") for d in after[untouched_id][0].data["drafts"])
    predictions = get(ls_server, f"/api/predictions/?task={after[untouched_id][0].id}").json()
    assert len(predictions) == 1 and "REVISED" in predictions[0]["result"][0]["value"]["text"][0]

    # The annotator edits her summary: the pull takes the newer version.
    carol.update_annotation(annotation, result("Version two, rewritten."))
    assert pull(spec, work, admin).updated == 0  # first pull of this work dir: all new
    assert annotated_rows(work)[edited_id]["summary"] == "Version two, rewritten."

    # A stored version newer than the server's (a stale server or backup) is kept.
    stored_file = work / "annotations" / "annotations.jsonl"
    stored = [json.loads(line) for line in stored_file.read_text("utf-8").splitlines()]
    stored[0].update(summary="Edited later elsewhere.", updated_at="2999-01-01T00:00:00Z")
    stored_file.write_text("".join(json.dumps(r) + "\n" for r in stored), "utf-8")
    third = pull(spec, work, admin)
    assert third.kept_newer_local == 1
    assert annotated_rows(work)[edited_id]["summary"] == "Edited later elsewhere."


def test_push_interrupted_by_a_server_crash_completes_when_rerun(
    demo_work: DemoWork, ls_server: RunningServer, tmp_path: Path
) -> None:
    work = copy_work(demo_work, tmp_path / "work")
    spec = spec_titled(demo_work, "lengthwise e2e restart")
    api = LabelStudioAPI(ls_server.url, ls_server.credentials.token)

    def crash(imported: int) -> None:
        ls_server.server.kill()  # after the first batch: the project and some tasks exist

    try:
        with pytest.raises(LabelStudioError, match="cannot reach Label Studio"):
            push(spec, work, api, batch_size=4, after_batch=crash)
    finally:
        ls_server.server.start(timeout=300)
    state = json.loads((work / "labelstudio" / "state.json").read_text("utf-8"))
    rerun = push(spec, work, api, batch_size=4)
    assert rerun.project_id == state["project_id"] and not rerun.created_project
    samples = all_sample_ids(work)
    assert rerun.imported == len(samples) - 4
    counts = Counter(str(t.data["sample_id"]) for t in api.list_tasks(rerun.project_id))
    assert sorted(counts) == samples and set(counts.values()) == {1}
