"""The JSON objects lengthwise sends to Label Studio: task data, import rows, results.

What comes back (exports, listed tasks) is read defensively where it is parsed (pull,
sdk): another client or an older push may have written it.
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict


class ResultValueJson(TypedDict, total=False):
    text: list[str]  # a text area's lines
    choices: list[str]  # a choices control's picks


class ResultItemJson(TypedDict):
    """One control's value in an annotation or prediction result."""

    from_name: str
    to_name: str
    type: str  # "textarea", "choices"
    value: ResultValueJson


class TaskDraftJson(TypedDict):
    chapter_index: int
    heading: str
    text: str
    drafter: str
    url: str | None  # the chapter's page, when pages are served


class TaskDataJson(TypedDict):
    """A task's data: what the labeling interface shows plus the ids push and pull match on."""

    sample_id: str
    subset: str
    book_id: str
    book_title: str
    language: str
    limit: int
    limit_unit: str
    limit_label: str
    heading: str
    summary_header: str
    drafts: list[TaskDraftJson]
    drafts_html: str
    drafts_sha256: str
    drafter: str
    task_format: int
    payload_sha256: NotRequired[str]  # of the data and the prediction, set by push


class PredictionJson(TypedDict):
    model_version: str
    score: float
    result: list[ResultItemJson]


class TaskImportJson(TypedDict):
    """A row of an import request: the data plus the merged drafts as the prediction."""

    data: TaskDataJson
    predictions: list[PredictionJson]


class CheckDataJson(TypedDict):
    """A task check's item (annotation/task_checks): a QA instance or a recall chunk."""

    item_id: str
    task: str
    kind: str  # "qa" or "recall-chunk"
    question_kind: NotRequired[str]  # QA only
    length: str
    language: str
    heading: str
    guide: str
    answer_header: NotRequired[str]  # QA only
    text_html: str
    shown_question: str
    shown_answers: list[str]
    shown_sha256: str
    task_format: int
    payload_sha256: NotRequired[str]  # of the data and the prediction


class CheckImportJson(TypedDict):
    data: CheckDataJson
    predictions: list[PredictionJson]


class ExportedAnnotationJson(TypedDict, total=False):
    """One annotation of an exported task, as far as pull reads it (read defensively)."""

    id: int
    result: list[ResultItemJson]
    was_cancelled: bool
    completed_by: object  # a user id, or an object holding one
    updated_at: str
    created_at: str
