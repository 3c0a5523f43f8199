"""Question answering by position on real chapters, scripted drafting model, real checks."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from lengthwise.builders.tasks.base import family_builder
from lengthwise.builders.tasks.qa import third_of
from lengthwise.builders.tasks.qa_checks import DraftQuestion, check_question, read_question
from lengthwise.spec import Spec
from lengthwise.store import WorkStore
from lengthwise.task_records import DetailValue
from lengthwise.task_spec import QATask, TaskLength
from lengthwise.workdir import WorkDir
from tests.fixtures.model_tasks import LENGTH, QuestionWriter, task_context

TASK = QATask(name="qa", family="qa")
# Runs of several chapters, so that every third holds a chapter's midpoint.
LONG = TaskLength(name="M", target=50000, lower=40000, upper=60000, count=2)


def test_one_chapter_per_third_and_one_question_per_kind(books_work: tuple[Spec, Path]) -> None:
    spec, work = books_work
    with task_context(spec, work, TASK, QuestionWriter()) as ctx:
        instances = family_builder("qa")(ctx, LONG)
    runs = Counter(i.source_ids[0] for i in instances)
    assert len(runs) == 2 and set(runs.values()) == {3 * len(TASK.kinds)}
    for instance in instances:
        details = instance.details
        start, end = int(str(details["chapter_start"])), int(str(details["chapter_end"]))
        chapter = instance.context[start:end]
        assert chapter.startswith(str(details["chapter_heading"]))
        assert instance.depth == round((start + end) / 2 / len(instance.context), 4)
        assert details["third"] == third_of(instance.depth)
        assert details["validated"] is False
        if details["kind"] == "extractive":
            assert instance.answers[0] in chapter
        if details["kind"] == "unanswerable":
            assert instance.answers == []
    by_run: dict[str, list[float]] = {}
    for instance in instances:
        if instance.details["kind"] == "abstractive":
            by_run.setdefault(instance.source_ids[0], []).append(instance.depth or 0.0)
    for depths in by_run.values():  # beginning, middle, end: in reading order
        assert [third_of(d) for d in depths] == ["beginning", "middle", "end"]


def test_positions_follow_the_seed(books_work: tuple[Spec, Path]) -> None:
    spec, work = books_work
    with task_context(spec, work, TASK, QuestionWriter()) as ctx:
        first = family_builder("qa")(ctx, LONG)
        second = family_builder("qa")(ctx, LONG)
    assert first == second
    reseeded = spec.model_copy(update={"seed": spec.seed + 1})
    with task_context(reseeded, work, TASK, QuestionWriter()) as ctx:
        other = family_builder("qa")(ctx, LONG)
    assert [i.details["chapter"] for i in other] != [i.details["chapter"] for i in first]


def test_a_third_without_a_chapter_is_counted(books_work: tuple[Spec, Path]) -> None:
    spec, work = books_work
    with task_context(spec, work, TASK, QuestionWriter()) as ctx:
        instances = family_builder("qa")(ctx, LENGTH)  # two-chapter runs: no middle chapter
        dropped = ctx.drops.dropped
    assert dropped["S: no chapter in the middle third"] == 2
    assert Counter(i.details["third"] for i in instances) == {"beginning": 8, "end": 8}


def test_an_invented_extractive_span_is_dropped_with_its_reason(
    books_work: tuple[Spec, Path],
) -> None:
    spec, work = books_work
    task = QATask(name="qa", family="qa", kinds=["extractive"])
    with task_context(spec, work, task, QuestionWriter(invent_spans=True)) as ctx:
        instances = family_builder("qa")(ctx, LENGTH)
        dropped = ctx.drops.dropped
    assert instances == []
    assert dropped["S: extractive: extractive answer is not a span of its chapter"] == 4


@pytest.mark.parametrize(("fact", "language"), [("ELIZABETH", "en"), ("宝玉", "zh")])
def test_an_unanswerable_question_answered_in_the_context_is_rejected(
    books_work: tuple[Spec, Path], fact: str, language: str
) -> None:
    spec, work = books_work
    task = QATask(name="qa", family="qa", kinds=["unanswerable"])
    # Elizabeth and 宝玉 are in every chosen run of their book: such a question is answerable.
    with task_context(spec, work, task, QuestionWriter(unanswerable_fact=fact)) as ctx:
        instances = family_builder("qa")(ctx, LENGTH)
        dropped = ctx.drops.dropped
    assert {i.language for i in instances} == {"en", "zh"} - {language}
    assert dropped["S: unanswerable: unanswerable question's answer occurs in the context"] == 2


def test_the_validator_checks_spans_against_the_real_chapter(
    books_work: tuple[Spec, Path],
) -> None:
    _, work = books_work
    book = WorkStore(WorkDir(work)).books()["hongloumeng_utf8"]
    chapter = book.chapters[3].text
    context = "\n\n".join(c.text for c in book.chapters[2:6])
    span = chapter[200:215]
    kept = DraftQuestion("extractive", "谁？", [span.replace("，", "，\n")])
    assert check_question(kept, chapter, context) is None  # a line break inside is no matter
    invented = DraftQuestion("extractive", "谁？", ["孙悟空大闹天宫"])
    assert check_question(invented, chapter, context) == (
        "extractive answer is not a span of its chapter"
    )
    facts: dict[str, DetailValue] = {"proposed_answer": "", "key_facts": [span]}
    answered = DraftQuestion("unanswerable", "谁？", [], facts)
    assert check_question(answered, chapter, context) == (
        "unanswerable question's answer occurs in the context"
    )
    unchecked = DraftQuestion("unanswerable", "谁？", [], {"proposed_answer": "", "key_facts": []})
    assert "without a proposed answer" in str(check_question(unchecked, chapter, context))


def test_replies_are_read_robustly() -> None:
    reply = 'Sure!\n```json\n{"question": "Is it?", "answer": "no", "reason": "He left",}\n```'
    item = read_question("yes-no", reply, "en")
    assert isinstance(item, DraftQuestion)
    assert item.answers == ["No. He left"] and item.details["verdict"] == "no"
    assert read_question("yes-no", '{"question": "Q", "answer": "maybe", "reason": "r"}', "en") == (
        "yes/no answer is neither yes nor no"
    )
    assert read_question("abstractive", "I cannot help with that.", "en") == (
        "unreadable reply (no JSON object)"
    )
    single_quoted = "{'question': '他走了吗？', 'answer': '是', 'reason': '他走了'}"
    zh = read_question("yes-no", single_quoted, "zh")
    assert isinstance(zh, DraftQuestion) and zh.answers == ["是。他走了"]
