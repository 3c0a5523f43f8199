"""The one module that talks to Label Studio through label-studio-sdk (>=2.1,<3).

Everything else in lengthwise uses `LabelStudioAPI` and plain dicts/dataclasses, so an
SDK upgrade touches this file only. Connection failures and HTTP errors become
`LabelStudioError` with a message that says what was being done.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
from label_studio_sdk import LabelStudio
from label_studio_sdk.core.api_error import ApiError

from lengthwise.annotation.labelstudio.payloads import (
    CheckDataJson,
    ResultItemJson,
    TaskDataJson,
    TaskImportJson,
)
from lengthwise.errors import UserError

T = TypeVar("T")
NO_RETRY: Any = {"max_retries": 0}  # imports must not be re-sent blindly: they would duplicate


class LabelStudioError(UserError):
    """Label Studio could not be reached or refused a request: the message names the URL and
    what was being done; the command line shows it as one line (status 2)."""


@dataclass(frozen=True)
class RemoteProject:
    id: int
    title: str
    label_config: str
    maximum_annotations: int | None
    model_version: str | None


@dataclass(frozen=True)
class RemoteTask:
    id: int
    data: dict[str, Any]
    total_annotations: int  # submitted, not cancelled
    cancelled_annotations: int
    has_drafts: bool  # an annotator saved work in progress
    prediction_ids: tuple[int, ...] = field(default_factory=tuple)

    @property
    def human_touched(self) -> bool:
        """Annotations (even skipped) or saved drafts exist: never rewrite this task."""
        return self.total_annotations > 0 or self.cancelled_annotations > 0 or self.has_drafts


class LabelStudioAPI:
    """A Label Studio server at `url`, authenticated with a legacy API token."""

    def __init__(self, url: str, token: str, timeout: float = 120.0) -> None:
        self.url = url.rstrip("/")
        self._token = token
        logging.getLogger("httpx").setLevel(logging.WARNING)  # one INFO line per request
        # The SDK constructor is untyped (Fern keeps *args/**kwargs in the extension class).
        self._client = LabelStudio(  # type: ignore[no-untyped-call]
            base_url=self.url, api_key=token, timeout=timeout
        )

    def _call(self, doing: str, function: Callable[[], T]) -> T:
        try:
            return function()
        except ApiError as exc:
            detail = exc.body if not isinstance(exc.body, dict) else json.dumps(exc.body)[:500]
            hint = ""
            if exc.status_code == 401:
                hint = (
                    " (token refused: is it this server's token, and was the legacy API token "
                    "enabled at its first start?)"
                )
            raise LabelStudioError(
                f"Label Studio at {self.url} refused {doing}: HTTP {exc.status_code} {detail}{hint}"
            ) from None
        except httpx.HTTPError as exc:
            raise LabelStudioError(
                f"cannot reach Label Studio at {self.url} while {doing}: {exc}; "
                "is it running (`lengthwise annotate serve`)?"
            ) from None

    # -- identity ---------------------------------------------------------------------------
    def whoami(self) -> str:
        """The e-mail of the token's user (also checks that the server answers)."""
        user = self._call("checking the token", self._client.users.whoami)
        return str(user.email or user.username or user.id)

    def users(self) -> dict[int, str]:
        """User id -> e-mail for every user of the organisation."""
        found = self._call("listing users", self._client.users.list)
        return {int(u.id): str(u.email or u.username or f"user:{u.id}") for u in found if u.id}

    # -- projects ---------------------------------------------------------------------------
    def _project(self, raw: Any) -> RemoteProject:
        return RemoteProject(
            id=int(raw.id),
            title=str(raw.title or ""),
            label_config=str(raw.label_config or ""),
            maximum_annotations=raw.maximum_annotations,
            model_version=raw.model_version,
        )

    def get_project(self, project_id: int) -> RemoteProject | None:
        """The project with this id, or None when it does not exist (any more)."""

        def fetch() -> RemoteProject | None:
            try:
                return self._project(self._client.projects.get(project_id))
            except ApiError as exc:
                if exc.status_code == 404:
                    return None
                raise

        return self._call(f"reading project {project_id}", fetch)

    def find_projects(self, title: str) -> list[RemoteProject]:
        """Projects whose title is exactly `title`, oldest first."""

        def collect() -> list[RemoteProject]:
            projects: Iterable[Any] = self._client.projects.list()
            return [self._project(p) for p in projects if p.title == title]

        return sorted(self._call("listing projects", collect), key=lambda p: p.id)

    def create_project(
        self, title: str, label_config: str, maximum_annotations: int, description: str
    ) -> RemoteProject:
        raw = self._call(
            f"creating project {title!r}",
            lambda: self._client.projects.create(
                title=title,
                label_config=label_config,
                description=description,
                maximum_annotations=maximum_annotations,
                overlap_cohort_percentage=100,
                show_collab_predictions=True,
                show_skip_button=True,
                enable_empty_annotation=False,
            ),
        )
        return self._project(raw)

    def update_project(
        self,
        project_id: int,
        *,
        label_config: str,
        maximum_annotations: int,
        description: str,
    ) -> None:
        """Settings push owns: the interface and how many annotators see each task."""
        self._call(
            f"updating project {project_id}",
            lambda: self._client.projects.update(
                project_id,
                label_config=label_config,
                maximum_annotations=maximum_annotations,
                overlap_cohort_percentage=100,
                show_collab_predictions=True,
                description=description,
            ),
        )

    def set_prelabel_model_version(self, project_id: int, model_version: str) -> None:
        """Which predictions prefill the editor (Label Studio needs them to exist first)."""
        self._call(
            f"setting the model version of project {project_id}",
            lambda: self._client.projects.update(project_id, model_version=model_version),
        )

    def ensure_local_storage(self, project_id: int, path: str, title: str) -> int:
        """A local-files storage for `path` (Label Studio serves only files under one)."""
        existing = self._call(
            "listing local storages",
            lambda: self._client.import_storage.local.list(project=project_id),
        )
        for storage in existing:
            if storage.path == path and storage.id is not None:
                return int(storage.id)
        created = self._call(
            f"adding local storage {path}",
            lambda: self._client.import_storage.local.create(
                project=project_id, path=path, title=title, use_blob_urls=False
            ),
        )
        return int(created.id or 0)

    def fetch_status(self, relative_url: str) -> int:
        """HTTP status of a GET on a server path with the token (e.g. a chapter page)."""
        try:
            response = httpx.get(
                self.url + relative_url, headers={"Authorization": f"Token {self._token}"},
                timeout=30, follow_redirects=False,
            )  # fmt: skip
        except httpx.HTTPError:
            return 0
        return response.status_code

    # -- tasks ------------------------------------------------------------------------------
    def list_tasks(self, project_id: int) -> list[RemoteTask]:
        def collect() -> list[RemoteTask]:
            tasks = []
            pages: Iterable[Any] = self._client.tasks.list(
                project=project_id, fields="all", page_size=100
            )
            for raw in pages:
                predictions = getattr(raw, "predictions", None) or []
                drafts = getattr(raw, "drafts", None) or []
                tasks.append(
                    RemoteTask(
                        id=int(raw.id),
                        data=dict(raw.data or {}),
                        total_annotations=int(getattr(raw, "total_annotations", 0) or 0),
                        cancelled_annotations=int(getattr(raw, "cancelled_annotations", 0) or 0),
                        has_drafts=bool(drafts) or bool(getattr(raw, "draft_exists", False)),
                        prediction_ids=tuple(
                            int(_get(p, "id")) for p in predictions if _get(p, "id") is not None
                        ),
                    )
                )
            return tasks

        return self._call(f"listing tasks of project {project_id}", collect)

    def import_tasks(
        self, project_id: int, tasks: Sequence[TaskImportJson | Mapping[str, object]]
    ) -> list[int]:
        """Import tasks (with predictions) in one request; returns the new task ids.

        Summary tasks are `TaskImportJson`; the task-family checks (annotation/task_checks)
        send their own data fields."""
        response = self._call(
            f"importing {len(tasks)} tasks",
            lambda: self._client.projects.import_tasks(
                project_id,
                request=list(tasks),  # type: ignore[arg-type]  # plain dicts are accepted
                return_task_ids=True,
                request_options=NO_RETRY,
            ),
        )
        # task_ids is an undeclared ("extra") field of the response model.
        return [int(i) for i in (getattr(response, "task_ids", None) or [])]

    def update_task_data(self, task_id: int, data: TaskDataJson | CheckDataJson) -> None:
        self._call(
            f"updating task {task_id}",
            lambda: self._client.tasks.update(str(task_id), data=dict(data)),
        )

    def delete_task(self, task_id: int) -> None:
        self._call(f"deleting task {task_id}", lambda: self._client.tasks.delete(str(task_id)))

    def replace_predictions(
        self, task: RemoteTask, result: list[ResultItemJson], model_version: str
    ) -> None:
        """Make `result` the task's only prediction."""
        self._call(
            f"adding a prediction to task {task.id}",
            lambda: self._client.predictions.create(
                task=task.id,
                result=[dict(item) for item in result],
                model_version=model_version,
                score=0.0,
            ),
        )
        for prediction_id in task.prediction_ids:
            self._call(
                f"deleting prediction {prediction_id}",
                lambda pid=prediction_id: self._client.predictions.delete(pid),  # type: ignore[misc]
            )

    # -- annotations ------------------------------------------------------------------------
    def export_json(self, project_id: int) -> list[dict[str, Any]]:
        """Every task with its annotations (Label Studio's JSON export)."""

        def download() -> list[dict[str, Any]]:
            chunks: Iterator[bytes] = self._client.projects.exports.download_sync(
                project_id, export_type="JSON", download_all_tasks=True
            )
            return list(json.loads(b"".join(chunks)))

        return self._call(f"exporting project {project_id}", download)

    def create_annotation(
        self,
        task_id: int,
        result: list[ResultItemJson],
        *,
        lead_time: float | None = None,
        was_cancelled: bool = False,
    ) -> int:
        """Submit an annotation as the token's user (what the labeling UI does)."""
        created = self._call(
            f"annotating task {task_id}",
            lambda: self._client.annotations.create(
                id=task_id,
                result=[dict(item) for item in result],
                lead_time=lead_time,
                was_cancelled=was_cancelled,
            ),
        )
        return int(created.id or 0)

    def update_annotation(self, annotation_id: int, result: list[ResultItemJson]) -> None:
        self._call(
            f"updating annotation {annotation_id}",
            lambda: self._client.annotations.update(
                annotation_id, result=[dict(item) for item in result]
            ),
        )


def _get(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)
