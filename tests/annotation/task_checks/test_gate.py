"""The release gate keeps only what a person checked (validations written as pull writes them)."""

from __future__ import annotations

from lengthwise.annotation.task_checks.gate import label_agreement, released_instances
from lengthwise.store import WorkStore
from lengthwise.task_checks import TaskValidation, shown_sha256
from lengthwise.task_records import TaskInstance
from lengthwise.workdir import WorkDir
from tests.annotation.task_checks.conftest import BuiltTasks


def decision(item: TaskInstance, choice: str, number: int, **changes: object) -> TaskValidation:
    values: dict[str, object] = {
        "item_id": item.id,
        "task": item.task,
        "kind": "qa",
        "decision": choice,
        "question": item.question,
        "answers": list(item.answers),
        "shown_answers": list(item.answers),
        "shown_sha256": shown_sha256(item.context, item.question, item.answers),
        "annotator": "ann@example.org",
        "annotation_id": number,
        "updated_at": f"2026-11-24T10:00:{number:02d}+00:00",
    }
    values.update(changes)
    return TaskValidation(**values)  # type: ignore[arg-type]


def test_only_accepted_or_edited_qa_items_are_released(built_tasks: BuiltTasks) -> None:
    work = WorkDir(built_tasks.work)
    qa = built_tasks.qa
    extractive = [i for i in qa if i.details["kind"] == "extractive"]
    abstractive = [i for i in qa if i.details["kind"] == "abstractive"]
    records = [
        decision(abstractive[0], "accept", 1),
        decision(abstractive[1], "edit", 2, answers=["A better answer."]),
        decision(abstractive[2], "reject", 3),
        decision(abstractive[3], "accept", 4, shown_sha256="stale"),
        decision(extractive[0], "edit", 5, answers=["words the chapter never had"]),
        decision(extractive[1], "skipped", 6),
    ]
    WorkStore(work).write_task_validations("qa", records)
    kept, dropped = released_instances(work, "qa", "qa", qa)
    assert [i.id for i in kept] == [abstractive[0].id, abstractive[1].id]
    assert kept[1].answers == ["A better answer."]
    assert all(i.details["validated"] is True for i in kept)
    assert kept[0].details["validated_by"] == "ann@example.org"
    assert dropped == {
        "not validated by a person": len(qa) - 5,  # the skipped one included
        "rejected by a person": 1,
        "validated version differs from the built item (rebuilt since the check)": 1,
        "person's version fails the check: extractive answer is not a span of its chapter": 1,
    }
    assert sum(dropped.values()) + len(kept) == len(qa)


def test_recall_waits_for_every_sampled_chunk(built_tasks: BuiltTasks) -> None:
    work = WorkDir(built_tasks.work)
    store = WorkStore(work)
    sampled = [c for c in store.chunk_labels("recall") if c.check]
    assert len(sampled) >= 2
    kept, dropped = released_instances(work, "recall", "recall", built_tasks.recall)
    assert kept == [] and sum(dropped.values()) == len(built_tasks.recall)
    assert next(iter(dropped)).startswith("recall chunk checks not all done (0 of")

    def check(number: int, choice: str, names: list[str]) -> TaskValidation:
        chunk = sampled[number]
        return TaskValidation(
            item_id=chunk.id, task="recall", kind="recall-chunk", decision=choice, question="",
            answers=names, shown_answers=chunk.names, shown_sha256=chunk.shown_sha256,
            annotator="ann@example.org", annotation_id=number + 1, updated_at="2026-11-24",
        )  # fmt: skip

    confirmed = [check(k, "confirm", sampled[k].names) for k in range(len(sampled) - 1)]
    store.write_task_validations("recall", confirmed)
    assert released_instances(work, "recall", "recall", built_tasks.recall)[0] == []
    last = sampled[-1]
    store.write_task_validations(
        "recall", [*confirmed, check(len(sampled) - 1, "correct", [*last.names, "Somebody Else"])]
    )
    kept, dropped = released_instances(work, "recall", "recall", built_tasks.recall)
    assert len(kept) == len(built_tasks.recall) and not dropped
    agreement = label_agreement(work, "recall")
    assert agreement.checked == agreement.sampled == len(sampled)
    assert agreement.corrected == 1 and agreement.mean_f1 is not None
    assert 0.9 < agreement.mean_f1 < 1.0
    assert {i.details["label_agreement_f1"] for i in kept} == {agreement.mean_f1}


def test_other_families_pass_unchanged(built_tasks: BuiltTasks) -> None:
    work = WorkDir(built_tasks.work)
    kept, dropped = released_instances(work, "ordering", "ordering", built_tasks.qa)
    assert kept == built_tasks.qa and not dropped
