"""One line of a run folder's generations.jsonl: one (sample, prompt) answer or skip.

A skipped pair (the plan left it out) has `skip_reason`; an answered one has
`details`, `backend_outcome`, `latency_seconds`, `error` and what its task read
(`readable`, `copied_example`, `metrics`, `parsed`, `judge`). Every line names its task,
family, length, depth and fill (the subset is the release config). `to_row` writes the
keys in the file's order, so new lines are byte-identical to the dicts written
before this record existed; keys it does not know are kept in `extra`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from lengthwise.errors import InputFileError
from lengthwise.evaluation.json_types import JsonObject

LineKey = tuple[str, str, str]  # (subset, sample id, prompt id)
SKIPPED = "skipped"
_ANSWER_ONLY = ("details", "backend_outcome", "latency_seconds", "error")
_TASK_FIELDS = ("task", "family", "length", "depth", "fill")  # written when `task` is set
_READING = ("readable", "copied_example", "metrics", "parsed", "judge")  # when `readable` is


@dataclass
class Generation:
    sample_id: str
    subset: str
    prompt_id: str
    language: str = ""
    prompt_tokens: int | None = None
    original_prompt_tokens: int | None = None
    max_new_tokens: int | None = None
    action: str = ""
    truncation: JsonObject | None = None
    request_key: str = ""
    prompt_version: str = ""
    outcome: str = ""
    flags: list[str] = field(default_factory=list)
    details: dict[str, float] = field(default_factory=dict)
    backend_outcome: str | None = None
    prediction: str | None = None
    score: float | None = None
    usage: dict[str, int] | None = None
    cached: bool = False
    latency_seconds: float | None = None
    error: str | None = None
    skip_reason: str | None = None
    # Which task, and where in the context the evidence sits (analyses group by these).
    # None on lines written before tasks existed (rewritten without these keys).
    task: str | None = None
    family: str | None = None
    length: str | None = None
    depth: float | None = None
    fill: float | None = None
    # How the task read the answer (lengthwise.evaluation.tasks.base.AnswerScore).
    readable: bool | None = None
    copied_example: bool | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    parsed: list[str] | None = None
    judge: str | None = None  # pending / correct / incorrect, when a judge scores the task
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def key(self) -> LineKey:
        return (self.subset, self.sample_id, self.prompt_id)

    def to_row(self) -> JsonObject:
        skipped = self.outcome == SKIPPED
        left_out = {"extra", *(_ANSWER_ONLY if skipped else ("skip_reason",))}
        if self.task is None:
            left_out.update(_TASK_FIELDS)
        if skipped or self.readable is None:
            left_out.update(_READING)
        row = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in left_out}
        if skipped:  # skip_reason closes a skipped line
            row["skip_reason"] = row.pop("skip_reason")
        row.update(self.extra)
        return row

    @classmethod
    def from_row(cls, row: Mapping[str, Any], where: str) -> Generation:
        """A generation from a JSON line; `where` names the file and line in errors."""
        if not {"subset", "sample_id", "prompt_id"} <= set(row):
            raise InputFileError(f"{where}: not a generations line")
        known = {f.name for f in fields(cls)} - {"extra"}
        values = {k: v for k, v in row.items() if k in known}
        values["flags"] = list(values.get("flags") or [])
        values["details"] = dict(values.get("details") or {})
        values["metrics"] = dict(values.get("metrics") or {})
        for name in ("subset", "sample_id", "prompt_id"):
            values[name] = str(values[name])
        return cls(**values, extra={k: v for k, v in row.items() if k not in known})
