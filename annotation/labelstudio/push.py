"""`annotate push`: create or find the project and import one task per sample.

Idempotent and restartable:
- the project is found by the id in WORK/labelstudio/state.json, else by title, else
  created (and its id stored at once);
- before importing, the project's tasks are listed and matched by ``data.sample_id``:
  a sample that has a task is never imported again, so a push interrupted by a server
  restart is completed by rerunning it;
- a task whose drafts (or layout) changed is updated only while no human touched it
  (no annotation, no skipped annotation, no saved draft); otherwise it is left alone
  and counted as ``kept``;
- duplicate tasks of one sample (only possible from an import whose response was lost)
  are removed when untouched.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from lengthwise.annotation.labelstudio.interface import (
    LABEL_CONFIG,
    summary_result,
    task_data,
    task_payload,
    write_chapter_pages,
)
from lengthwise.annotation.labelstudio.paths import LabelStudioPaths, load_state, save_state
from lengthwise.annotation.labelstudio.payloads import TaskDataJson, TaskImportJson
from lengthwise.annotation.labelstudio.sdk import (
    LabelStudioAPI,
    LabelStudioError,
    RemoteProject,
    RemoteTask,
)
from lengthwise.annotation.review.finalize import limit_for
from lengthwise.annotation.review.inputs import (
    SampleDrafts,
    drafter_identity,
    read_books,
    read_samples,
    sample_chapters,
    subset_order,
)
from lengthwise.json_records import JsonRecord
from lengthwise.records import Sample
from lengthwise.spec import Spec
from lengthwise.storage import canonical_hash
from lengthwise.store import WorkStore
from lengthwise.workdir import WorkDir

log = logging.getLogger(__name__)

BATCH_SIZE = 50


def project_title(spec: Spec) -> str:
    return spec.annotation.project_title or f"{spec.name} {spec.version}"


def project_description(spec: Spec) -> str:
    return (
        f"lengthwise benchmark {spec.name} {spec.version}: merge the chapter synopses into one "
        "summary and rewrite it in your own words (plot only, within the limit shown)."
    )


@dataclass
class PushResult(JsonRecord):
    project_id: int
    project_title: str
    created_project: bool = False
    imported: int = 0
    updated: int = 0  # untouched tasks refreshed with new drafts
    kept: int = 0  # drafts changed but a human already worked on the task: left alone
    unchanged: int = 0
    removed_duplicates: int = 0
    without_drafts: list[str] = field(default_factory=list)
    chapter_links: bool = False  # the original chapters open from the tasks
    tasks_by_subset: dict[str, int] = field(default_factory=dict)


def push(
    spec: Spec,
    work_dir: Path,
    api: LabelStudioAPI,
    *,
    batch_size: int = BATCH_SIZE,
    after_batch: Callable[[int], None] | None = None,
) -> PushResult:
    """Bring the project in line with the samples and drafts (see module docstring).

    `after_batch(imported_so_far)` is called after each import request.
    """
    work = WorkDir(work_dir)
    paths = LabelStudioPaths(work.root.resolve())
    samples = read_samples(work, subset_order(work, [s.name for s in spec.subsets]))
    drafts = WorkStore(work).drafts()
    drafter = drafter_identity(work, drafts.values())
    api.whoami()  # fail early, with a clear message, when the server or token is wrong

    project, created = _find_or_create_project(spec, paths, api)
    result = PushResult(project.id, project.title, created_project=created)
    api.update_project(
        project.id,
        label_config=LABEL_CONFIG,
        maximum_annotations=spec.annotation.annotators_per_sample,
        description=project_description(spec),
    )
    paths.texts.mkdir(parents=True, exist_ok=True)
    payloads = _payloads(spec, work, paths, samples, drafts, drafter, result)
    result.chapter_links = _check_chapter_links(api, project.id, paths, payloads)
    tasks = deduplicated_tasks(api, api.list_tasks(project.id), result)
    missing = _refresh_tasks(api, tasks, payloads, drafter, result)
    for start in range(0, len(missing), batch_size):
        batch = missing[start : start + batch_size]
        api.import_tasks(project.id, batch)
        result.imported += len(batch)
        if after_batch is not None:
            after_batch(result.imported)

    if payloads:
        # The merged drafts prefill the summary only for predictions of this model version.
        api.set_prelabel_model_version(project.id, drafter)
    result.tasks_by_subset = dict(
        sorted(Counter(str(d["subset"]) for d, _ in payloads.values()).items())
    )
    _record_push(paths, api, project, result)
    return result


def _refresh_tasks(
    api: LabelStudioAPI,
    tasks: dict[str, RemoteTask],
    payloads: dict[str, tuple[TaskDataJson, TaskImportJson]],
    drafter: str,
    result: PushResult,
) -> list[TaskImportJson]:
    """Update untouched tasks whose payload changed; return the payloads with no task."""
    missing = []
    for sample_id, (data, payload) in payloads.items():
        task = tasks.get(sample_id)
        if task is None:
            missing.append(payload)
        elif task.data.get("payload_sha256") == data.get("payload_sha256"):
            result.unchanged += 1
        elif task.human_touched:
            result.kept += 1
        else:
            api.update_task_data(task.id, data)
            api.replace_predictions(task, payload["predictions"][0]["result"], drafter)
            result.updated += 1
    return missing


def _record_push(
    paths: LabelStudioPaths, api: LabelStudioAPI, project: RemoteProject, result: PushResult
) -> None:
    """state.json: the project, and what this push did (`annotate status` shows it)."""
    state = load_state(paths)
    state.update(
        {
            "url": api.url,
            "project_id": project.id,
            "project_title": project.title,
            "last_push": {"at": datetime.now(UTC).isoformat(timespec="seconds"),
                          **result.to_json()},
        }
    )  # fmt: skip
    save_state(paths, state)


def _find_or_create_project(
    spec: Spec, paths: LabelStudioPaths, api: LabelStudioAPI
) -> tuple[RemoteProject, bool]:
    title = project_title(spec)
    state = load_state(paths)
    stored = state.get("project_id")
    if isinstance(stored, int) and state.get("url") == api.url:
        project = api.get_project(stored)
        if project is not None and project.title == title:
            return project, False
    found = api.find_projects(title)
    if len(found) > 1:
        log.warning(
            "%d projects are titled %r; using the oldest (id %d)", len(found), title, found[0].id
        )
    if found:
        project, created = found[0], False
    else:
        project = api.create_project(
            title, LABEL_CONFIG, spec.annotation.annotators_per_sample, project_description(spec)
        )
        created = True
    # Store the id at once: a rerun after a crash finds the project even if renamed later.
    save_state(paths, {**state, "url": api.url, "project_id": project.id, "project_title": title})
    return project, created


def _payloads(
    spec: Spec,
    work: WorkDir,
    paths: LabelStudioPaths,
    samples: list[Sample],
    drafts: dict[str, SampleDrafts],
    drafter: str,
    result: PushResult,
) -> dict[str, tuple[TaskDataJson, TaskImportJson]]:
    """Task data and import payload per sample id (chapter pages written on the way)."""
    books = read_books(work, {s.book_id for s in samples})
    payloads: dict[str, tuple[TaskDataJson, TaskImportJson]] = {}
    for sample in samples:
        sample_id = sample.id
        sample_drafts = drafts.get(sample_id)
        if sample_drafts is None:
            result.without_drafts.append(sample_id)
            continue
        links = write_chapter_pages(
            paths,
            sample.book_id,
            sample.book_title or sample.book_id,
            sample_chapters(sample, books),
        )
        data = task_data(sample, sample_drafts, links, limit_for(spec, sample.subset), drafter)
        data["payload_sha256"] = canonical_hash(
            {"data": data, "prediction": summary_result(sample_drafts.merged)}
        )
        payloads[sample_id] = (data, task_payload(data, sample_drafts, drafter))
    if result.without_drafts:
        log.warning(
            "%d samples have no drafts and were not pushed (run `lengthwise draft SPEC`): %s",
            len(result.without_drafts),
            ", ".join(result.without_drafts[:5]),
        )
    return payloads


def _check_chapter_links(
    api: LabelStudioAPI,
    project_id: int,
    paths: LabelStudioPaths,
    payloads: dict[str, tuple[TaskDataJson, TaskImportJson]],
) -> bool:
    """Register the chapter pages as local storage and check that one page opens.

    Label Studio serves local files only under its document root, which `annotate serve`
    sets to this work dir. Against another server the tasks still work, without links.
    """
    try:
        api.ensure_local_storage(project_id, str(paths.texts), "lengthwise chapter texts")
    except LabelStudioError as exc:
        log.warning("original chapters will not open from the tasks: %s", exc)
        return False
    url = next(
        (d["url"] for data, _ in payloads.values() for d in data["drafts"] if d["url"]), None
    )
    if url is None:
        return False
    status = api.fetch_status(url)
    if status != 200:
        log.warning(
            "original chapters will not open from the tasks (%s answered %d): serve this work "
            "dir with `lengthwise annotate serve --work %s`",
            url, status, paths.work_root,
        )  # fmt: skip
        return False
    return True


class DuplicateCount(Protocol):
    removed_duplicates: int


def deduplicated_tasks(
    api: LabelStudioAPI, tasks: list[RemoteTask], result: DuplicateCount, key: str = "sample_id"
) -> dict[str, RemoteTask]:
    """One task per `data[key]` (a sample id); extra untouched copies are deleted."""
    by_sample: dict[str, list[RemoteTask]] = defaultdict(list)
    for task in tasks:
        sample_id = task.data.get(key)
        if isinstance(sample_id, str):
            by_sample[sample_id].append(task)
    kept: dict[str, RemoteTask] = {}
    for sample_id, group in by_sample.items():
        group.sort(key=lambda t: (not t.human_touched, t.id))  # human work first, then oldest
        kept[sample_id] = group[0]
        for extra in group[1:]:
            if extra.human_touched:
                log.warning(
                    "sample %s has annotations on tasks %d and %d; keeping both",
                    sample_id, group[0].id, extra.id,
                )  # fmt: skip
                continue
            api.delete_task(extra.id)
            result.removed_duplicates += 1
    return kept
