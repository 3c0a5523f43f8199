"""`annotate pull`: export annotations, check them, merge them into the samples.

The project's JSON export is normalised into WORK/annotations/annotations.jsonl (one
row per annotation, quality flags included; the raw export is kept beside it as
labelstudio_export.json), then the review pass writes WORK/samples_annotated/.

Rows are keyed by the annotation's ``unique_id`` (stable across edits). A pulled
version replaces the stored one only if it is at least as new (``updated_at``), so
pulling from a stale server or an old backup never undoes a newer human edit; rows
that disappeared from Label Studio are kept and marked ``in_label_studio: false``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from lengthwise.annotation.labelstudio.interface import COMMENT, FLAGS, SUMMARY
from lengthwise.annotation.labelstudio.paths import LabelStudioPaths, load_state
from lengthwise.annotation.labelstudio.push import project_title
from lengthwise.annotation.labelstudio.sdk import LabelStudioAPI
from lengthwise.annotation.review.finalize import (
    AnnotationPaths,
    FinalizeResult,
    finalize,
    limit_for,
    quality_settings,
)
from lengthwise.annotation.review.quality import check_summary
from lengthwise.annotation.review.records import AnnotationRecord
from lengthwise.errors import UserError
from lengthwise.spec import Spec
from lengthwise.storage import atomic_write_json
from lengthwise.store import WorkStore
from lengthwise.workdir import WorkDir

log = logging.getLogger(__name__)


@dataclass
class PullResult:
    project_id: int
    tasks: int = 0
    annotations: int = 0  # in the export
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    kept_newer_local: int = 0
    gone_from_server: int = 0
    unknown_tasks: list[int] = field(default_factory=list)  # tasks without a known sample id
    finalized: FinalizeResult | None = None


def record_key(record: AnnotationRecord) -> str:
    return record.unique_id or f"id:{record.annotation_id}"


def parse_result(result: list[dict[str, Any]]) -> tuple[str, list[str], str]:
    """(summary, choices, comment) from a Label Studio annotation result."""
    summary, comment, choices = "", "", []
    for item in result or []:
        value = item.get("value") or {}
        name = item.get("from_name")
        if name == SUMMARY:
            summary = "\n".join(str(t) for t in value.get("text") or [])
        elif name == COMMENT:
            comment = "\n".join(str(t) for t in value.get("text") or [])
        elif name == FLAGS:
            choices = [str(c) for c in value.get("choices") or []]
    return summary, choices, comment


def _parse_time(value: str) -> datetime:
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def pull(spec: Spec, work_dir: Path, api: LabelStudioAPI) -> PullResult:
    """Export, check and merge (see module docstring); then run the review pass."""
    work = WorkDir(work_dir)
    ls_paths = LabelStudioPaths(work.root.resolve())
    out = AnnotationPaths(work)
    project_id = _project_id(spec, ls_paths, api)
    exported = api.export_json(project_id)
    users = api.users()
    atomic_write_json(out.labelstudio_export, exported)

    result = PullResult(project_id, tasks=len(exported))
    now = datetime.now(UTC).isoformat(timespec="seconds")
    pulled: dict[str, AnnotationRecord] = {}
    for task in exported:
        records = _task_records(spec, task, users, now)
        if records is None:
            result.unknown_tasks.append(int(task.get("id") or 0))
            continue
        pulled.update((record_key(r), r) for r in records)
    result.annotations = len(pulled)
    store = WorkStore(work)
    store.write_annotations(_merge(store.annotations(), pulled, result).values())
    result.finalized = finalize(spec, work.root)
    return result


def _task_records(
    spec: Spec, task: Mapping[str, Any], users: Mapping[int, str], now: str
) -> list[AnnotationRecord] | None:
    """The annotations of one exported task, checked; None for a task push did not make."""
    data = task.get("data") or {}
    sample_id = data.get("sample_id")
    if not isinstance(sample_id, str):
        return None
    drafts = [str(d.get("text") or "") for d in data.get("drafts") or []]
    subset, language = str(data.get("subset") or ""), str(data.get("language") or "")
    limit = limit_for(spec, subset)
    settings = quality_settings(spec)
    records = []
    for raw in task.get("annotations") or []:
        summary, choices, comment = parse_result(raw.get("result") or [])
        cancelled = bool(raw.get("was_cancelled"))
        quality = check_summary(
            summary, drafts=drafts, language=language, limit=limit, settings=settings,
            cancelled=cancelled,
        )  # fmt: skip
        annotator_id = _user_id(raw.get("completed_by"))
        records.append(
            AnnotationRecord(
                annotation_id=int(raw["id"]),
                unique_id=str(raw.get("unique_id") or ""),
                task_id=int(task["id"]),
                sample_id=sample_id,
                subset=subset,
                language=language,
                limit=limit,
                annotator_id=annotator_id,
                annotator=users.get(annotator_id, f"user:{annotator_id}")
                if annotator_id is not None
                else "unknown",
                created_at=str(raw.get("created_at") or ""),
                updated_at=str(raw.get("updated_at") or raw.get("created_at") or ""),
                was_cancelled=cancelled,
                summary=summary,
                choices=choices,
                comment=comment,
                lead_time=raw.get("lead_time"),
                drafts_sha256=str(data.get("drafts_sha256") or ""),
                flags=list(quality.flags),
                units=quality.units,
                copied_share=quality.copied_share,
                commentary_hits=list(quality.commentary_hits),
                pulled_at=now,
            )
        )
    return records


def _merge(
    stored_records: list[AnnotationRecord],
    pulled: dict[str, AnnotationRecord],
    result: PullResult,
) -> dict[str, AnnotationRecord]:
    """Stored annotations updated with the pulled ones (counted in `result`); a stored
    annotation gone from the server is kept, marked, and a newer local one wins."""
    stored = {record_key(r): r for r in stored_records}
    merged: dict[str, AnnotationRecord] = {}
    for key, old in stored.items():
        new = pulled.get(key)
        if new is None:
            if old.in_label_studio:
                result.gone_from_server += 1
            old.in_label_studio = False
            merged[key] = old
        elif _parse_time(new.updated_at) < _parse_time(old.updated_at):
            log.warning(
                "annotation %d of %s: Label Studio has an older version (%s) than the one "
                "stored (%s); keeping the stored one", old.annotation_id, old.sample_id,
                new.updated_at, old.updated_at,
            )  # fmt: skip
            result.kept_newer_local += 1
            merged[key] = old
        elif _same(old, new):
            result.unchanged += 1
            merged[key] = old
        else:
            result.updated += 1
            merged[key] = new
    for key, new in pulled.items():
        if key not in stored:
            result.new += 1
            merged[key] = new
    return merged


def _same(old: AnnotationRecord, new: AnnotationRecord) -> bool:
    """Equal apart from when it was pulled (keeps reruns byte-identical)."""
    return {**old.to_dict(), "pulled_at": ""} == {**new.to_dict(), "pulled_at": ""}


def _user_id(value: Any) -> int | None:
    if isinstance(value, dict):
        value = value.get("id")
    return int(value) if isinstance(value, int | str) and str(value).isdigit() else None


def _project_id(spec: Spec, paths: LabelStudioPaths, api: LabelStudioAPI) -> int:
    state = load_state(paths)
    stored = state.get("project_id")
    if isinstance(stored, int) and state.get("url") == api.url and api.get_project(stored):
        return stored
    found = api.find_projects(project_title(spec))
    if not found:
        raise UserError(
            f"no Label Studio project {project_title(spec)!r} at {api.url}; "
            "run `lengthwise annotate push SPEC` first"
        )
    return found[0].id
