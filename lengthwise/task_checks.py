"""Records of the human checks on model-written task items (recall labels, QA items).

- `ChunkLabels`: the drafting model's character names for one chunk of a recall
  context, a row of WORK/tasks/<task>/chunk_labels.jsonl (written by the recall builder;
  rows with ``check`` true are the seeded share sent to Label Studio);
- `TaskValidation`: one person's decision on one item, a row of
  WORK/tasks/<task>/validations.jsonl (written by `lengthwise annotate tasks pull`).

Both are read and written through `lengthwise.store.WorkStore` only. The release gate
(annotation/task_checks/gate.py) admits a QA item only with an accepting validation of
the very version that was built (``shown_sha256``), and a recall task only when every
sampled chunk has one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any, Literal

from lengthwise.errors import InputFileError
from lengthwise.storage import canonical_hash

CheckKind = Literal["qa", "recall-chunk"]
CHECK_KINDS: tuple[str, ...] = ("qa", "recall-chunk")
# qa: accept / edit / reject; recall chunks: confirm / correct; both: skipped (the person
# pressed Skip: no decision, the item stays unchecked).
DECISIONS: tuple[str, ...] = ("accept", "edit", "reject", "confirm", "correct", "skipped")
APPROVALS = frozenset({"accept", "edit", "confirm", "correct"})


def shown_sha256(text: str, question: str, answers: Sequence[str]) -> str:
    """What a person was shown, hashed: a rebuilt item with other content no longer matches."""
    return canonical_hash({"text": text, "question": question, "answers": list(answers)})


@dataclass(frozen=True)
class ChunkLabels:
    """The drafting model's character names in one chunk of one recall instance."""

    id: str  # "<instance id>#<chunk index, 4 digits>"
    instance_id: str
    task: str
    length: str
    language: str
    chunk: int  # 0-based position of the chunk in the context
    text: str
    names: list[str]  # as the model wrote them, deduplicated, in reply order
    tokens: int  # of `text`, in the primary tokenizer
    attempts: int  # model calls it took to get a readable reply (1, or 2 after a repair)
    check: bool = False  # in the seeded share sent to a human check

    @property
    def shown_sha256(self) -> str:
        return shown_sha256(self.text, "", self.names)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, row: Mapping[str, Any], where: str) -> ChunkLabels:
        values = _values(cls, row, where)
        if not isinstance(values["names"], list):
            raise InputFileError(f"{where}: names: expected a list of strings")
        return cls(**values)


@dataclass(frozen=True)
class TaskValidation:
    """One person's decision on one item (a QA instance or a sampled recall chunk)."""

    item_id: str  # QA: the instance id; recall: the chunk id
    task: str
    kind: str  # one of CHECK_KINDS
    decision: str  # one of DECISIONS
    question: str  # QA: the question as accepted or edited ("" for chunks)
    answers: list[str]  # QA: the answers as accepted or edited; chunks: the names, corrected
    shown_answers: list[str]  # what the model proposed (answers or names)
    shown_sha256: str  # of what the person was shown (see `shown_sha256`)
    annotator: str
    annotation_id: int
    updated_at: str
    comment: str = ""

    @property
    def approved(self) -> bool:
        return self.decision in APPROVALS

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, row: Mapping[str, Any], where: str) -> TaskValidation:
        values = _values(cls, row, where)
        if values["kind"] not in CHECK_KINDS:
            raise InputFileError(f"{where}: kind: expected one of {list(CHECK_KINDS)}")
        if values["decision"] not in DECISIONS:
            raise InputFileError(f"{where}: decision: expected one of {list(DECISIONS)}")
        return cls(**values)


def _values(cls: type, row: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The dataclass's fields from `row`; missing required keys are named."""
    known = {f.name: f for f in fields(cls)}
    missing = [
        name
        for name, spec in known.items()
        if name not in row and spec.default is MISSING and spec.default_factory is MISSING
    ]
    if missing:
        raise InputFileError(f"{where}: missing keys {missing}")
    return {name: row[name] for name in known if name in row}
