"""The release gate of the model-written families: only what a person checked is released.

- qa (SWiM: validation cannot be skipped): an instance is released only with a person's
  accept or edit of the very version that was built (`shown_sha256`); an edit's question
  and answer replace the model's, and the mechanical checks run again on them (an edited
  extractive answer must still be a span of the context, an unanswerable question must
  stay without an answer). `details.validated` becomes true, `details.decision` and
  `details.validated_by` say by whom and how.
- recall: the task's instances are released only when every sampled chunk of them has a
  person's confirm or correct of the labels that were built; `details.label_agreement_f1`
  then carries the mean F1 between the model's and the person's names on those chunks.
- other families pass unchanged.

Every instance held back is counted by reason; the release prints the counts in its card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from lengthwise.builders.tasks.qa_checks import DraftQuestion, check_question
from lengthwise.builders.tasks.recall_names import name_key
from lengthwise.store import WorkStore
from lengthwise.task_checks import ChunkLabels, TaskValidation, shown_sha256
from lengthwise.task_records import TaskInstance
from lengthwise.workdir import WorkDir


def released_instances(
    work: WorkDir, task: str, family: str, instances: list[TaskInstance]
) -> tuple[list[TaskInstance], Counter[str]]:
    """The instances a release may carry, and every held-back one counted by reason."""
    if family == "qa":
        return _qa_gate(latest_decisions(WorkStore(work).task_validations(task)), instances)
    if family == "recall":
        return _recall_gate(work, task, instances)
    return list(instances), Counter()


def latest_decisions(records: Iterable[TaskValidation]) -> dict[str, TaskValidation]:
    """Per item, the most recent decision that is not a skip."""
    latest: dict[str, TaskValidation] = {}
    for record in sorted(records, key=lambda r: (r.updated_at, r.annotation_id)):
        if record.decision != "skipped":
            latest[record.item_id] = record
    return latest


def _qa_gate(
    decisions: dict[str, TaskValidation], instances: list[TaskInstance]
) -> tuple[list[TaskInstance], Counter[str]]:
    kept: list[TaskInstance] = []
    dropped: Counter[str] = Counter()
    for instance in instances:
        record = decisions.get(instance.id)
        reason = _qa_problem(instance, record)
        if reason is not None or record is None:
            dropped[reason or "not validated by a person"] += 1
            continue
        kept.append(_validated(instance, record))
    return kept, dropped


def _qa_problem(instance: TaskInstance, record: TaskValidation | None) -> str | None:
    if record is None:
        return "not validated by a person"
    if record.shown_sha256 != shown_sha256(instance.context, instance.question, instance.answers):
        return "validated version differs from the built item (rebuilt since the check)"
    if not record.approved:
        return "rejected by a person"
    kind = str(instance.details.get("kind") or "")
    details = dict(instance.details) if kind == "unanswerable" else {}
    edited = DraftQuestion(kind, record.question, list(record.answers), details)
    start = int(str(instance.details.get("chapter_start") or 0))
    end = int(str(instance.details.get("chapter_end") or len(instance.context)))
    problem = check_question(edited, instance.context[start:end], instance.context)
    return f"person's version fails the check: {problem}" if problem else None


def _validated(instance: TaskInstance, record: TaskValidation) -> TaskInstance:
    details = {
        **instance.details,
        "validated": True,
        "decision": record.decision,
        "validated_by": record.annotator,
    }
    return replace(instance, question=record.question, answers=list(record.answers),
                   details=details)  # fmt: skip


@dataclass(frozen=True)
class LabelAgreement:
    """The model's chunk labels against a person's, on the checked chunks."""

    sampled: int  # chunks sampled for a check
    checked: int  # of them, with a current confirm/correct
    confirmed: int
    corrected: int
    mean_f1: float | None  # None before any check

    def describe(self) -> str:
        if self.mean_f1 is None:
            return f"{self.checked} of {self.sampled} sampled chunks checked"
        return (
            f"{self.checked} of {self.sampled} sampled chunks checked ({self.confirmed} "
            f"confirmed, {self.corrected} corrected); label F1 vs the person {self.mean_f1:.3f}"
        )


def label_agreement(
    work: WorkDir, task: str, instance_ids: set[str] | None = None
) -> LabelAgreement:
    """Agreement on the sampled chunks (of `instance_ids` when given)."""
    store = WorkStore(work)
    sampled = [
        c for c in store.chunk_labels(task)
        if c.check and (instance_ids is None or c.instance_id in instance_ids)
    ]  # fmt: skip
    decisions = latest_decisions(store.task_validations(task))
    pairs = [(c, decisions.get(c.id)) for c in sampled]
    current = [(c, r) for c, r in pairs if r is not None and _current(c, r)]
    scores = [_f1(c.names, r.answers) for c, r in current]
    return LabelAgreement(
        sampled=len(sampled),
        checked=len(current),
        confirmed=sum(1 for _, r in current if r.decision == "confirm"),
        corrected=sum(1 for _, r in current if r.decision != "confirm"),
        mean_f1=round(sum(scores) / len(scores), 4) if scores else None,
    )


def _current(chunk: ChunkLabels, record: TaskValidation) -> bool:
    return record.approved and record.shown_sha256 == chunk.shown_sha256


def _recall_gate(
    work: WorkDir, task: str, instances: list[TaskInstance]
) -> tuple[list[TaskInstance], Counter[str]]:
    agreement = label_agreement(work, task, {i.id for i in instances})
    if agreement.checked < agreement.sampled:
        reason = f"recall chunk checks not all done ({agreement.describe()})"
        return [], Counter({reason: len(instances)})
    f1 = agreement.mean_f1
    kept = [replace(i, details={**i.details, "label_agreement_f1": f1}) for i in instances]
    return kept, Counter()


def _f1(model: list[str], person: list[str]) -> float:
    predicted, truth = {name_key(n) for n in model}, {name_key(n) for n in person}
    if not predicted and not truth:
        return 1.0
    hits = len(predicted & truth)
    return 2 * hits / (len(predicted) + len(truth))
