"""The `[[tasks]]` tables of a spec: which task families a build writes, at which lengths.

```toml
[[tasks]]
name = "ordering"          # release configs "ordering-<length>"
family = "ordering"
segments = 4
lengths = [{ name = "8k", target = 8192, lower = 6500, upper = 9000, count = 20 }]
```

`lengths` defaults to the spec's `[[subsets]]` (same names, bounds and counts), so every
family is length-adaptable without repeating the table. Options not listed for a family
are rejected like any unknown key.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from lengthwise.names import Name, TaskName


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TaskLength(_Strict):
    """One length of a task: instances are kept when their context lies in [lower, upper]."""

    name: Name  # part of the release config name <task>-<length>
    target: int = Field(gt=0)
    lower: int = Field(gt=0)
    upper: int = Field(gt=0)
    count: int = Field(ge=0)  # instances wanted at this length (fewer when the corpus runs out)

    @model_validator(mode="after")
    def _bounds(self) -> TaskLength:
        if not self.lower <= self.target <= self.upper:
            raise ValueError(
                f"target ({self.target}) must lie within [lower, upper] = "
                f"[{self.lower}, {self.upper}]"
            )
        return self


class _TaskBase(_Strict):
    name: TaskName  # WORK/tasks/<name>/; no '-': configs are <name>-<length>
    lengths: list[TaskLength] | None = None  # None: the spec's [[subsets]]


class OrderingTask(_TaskBase):
    """Ada-LEval TSort: N shuffled segments of contiguous chapters, hints around them."""

    family: Literal["ordering"]
    # 3 or more: the parts are never shown in reading order, so 2 would give the answer
    segments: int = Field(default=4, ge=3, le=10)
    hint_paragraphs: int = Field(default=1, ge=0)  # paragraphs shown before and after
    # paragraphs left out at every boundary (segments, hints): nothing shown is adjacent
    gap_paragraphs: int = Field(default=2, ge=0)
    # boundaries moved to sentence stops, away from transition formulae (order_boundaries)
    clean_boundaries: bool = True
    stride_paragraphs: int = Field(default=20, ge=1)  # between instances' starting paragraphs


class SynopsisOrderingTask(_TaskBase):
    """ETHIC's ordering variant: the whole context's per-chunk synopses, shuffled.

    The chunks are the context's chapters, so that the reviewed chapter synopses serve.
    """

    family: Literal["synopsis-ordering"]
    # fewer chapters in a run: not built (counted); 3 or more, as for `ordering.segments`
    min_items: int = Field(default=3, ge=3, le=26)


class RecallTask(_TaskBase):
    """ETHIC recall: every character name, labelled per chunk by the drafting model."""

    family: Literal["recall"]
    chunk_tokens: int = Field(default=1024, gt=0, le=1024)
    human_check_share: float = Field(default=0.1, ge=0, le=1)  # chunk labels sent for a check


class SectionsTask(_TaskBase):
    """ETHIC per-section summarizing: K sections, one summary expected per section."""

    family: Literal["sections"]
    sections: int = Field(default=4, ge=2, le=20)


QuestionKind = Literal["abstractive", "extractive", "yes-no", "unanswerable"]
QUESTION_KINDS: list[QuestionKind] = ["abstractive", "extractive", "yes-no", "unanswerable"]


class QATask(_TaskBase):
    """Questions from one chapter each of the beginning, middle and end thirds."""

    family: Literal["qa"]
    kinds: list[QuestionKind] = Field(default_factory=lambda: list(QUESTION_KINDS))
    judge_check_share: float = Field(default=0.1, ge=0, le=1)  # verdicts sent for a human check


class NeedlesTask(_TaskBase):
    """SWiM: a question's document among shuffled distractors, at set depths or fills."""

    family: Literal["needles"]
    # "chapters": the corpus's chapters; else a folder of documents + questions (SWiM's layout)
    documents: str = "chapters"
    depths: list[float] = Field(default_factory=lambda: [0.0, 0.25, 0.5, 0.75, 1.0])
    fills: list[float] = Field(default_factory=list)  # the distractor-fill series, when wanted


class IncrementalTask(_TaskBase):
    """One book prefix grown in fixed token steps; each step is a length."""

    family: Literal["incremental"]
    start_tokens: int = Field(default=8192, gt=0)
    step_tokens: int = Field(default=8192, gt=0)
    max_tokens: int = Field(default=131072, gt=0)
    books: int = Field(default=5, ge=1)


TaskSpec = Annotated[
    OrderingTask
    | SynopsisOrderingTask
    | RecallTask
    | SectionsTask
    | QATask
    | NeedlesTask
    | IncrementalTask,
    Field(discriminator="family"),
]
