"""Needles in real documents (SWiM): a question's answering document among shuffled
distractor documents filling the length, at each requested depth; and, when `fills` is
set, the distractor-fill series (that share of the window filled).

Documents are the corpus's chapters (a question per chapter written by the drafting
model; distractors from other books of the same language first, then other chapters of
the same book when the language has too few) or a SWiM-style folder
(needle_documents.py; distractors from the answering document's collection). A
question's distractors are one seeded shuffle: every depth shows the same documents,
only the answering document moves; the fill series takes growing prefixes of it.

`depth` is the answering document's relative start in characters: its start offset
divided by (context length - its length), so 0.0 is first and 1.0 last. The distractors
before it are chosen to bring that as close to the requested depth as whole documents
allow; the requested value is in `details["depth_requested"]`. Other details:
`answer_document` (its id), `documents` (how many are shown), `collection`,
`question_key` (question file entry or chapter sha256).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TypeVar

from lengthwise.builders.tasks.base import FamilyUnavailable, TaskBuildContext, register_family
from lengthwise.builders.tasks.needle_documents import (
    Document,
    NeedleQuestion,
    chapter_documents,
    folder_documents,
    folder_questions,
)
from lengthwise.builders.tasks.needle_questions import chapter_questions
from lengthwise.storage import canonical_hash
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import NeedlesTask, TaskLength

SEPARATOR = "\n\n"
MAX_QUESTION_ROUNDS = 3  # rounds of asking the model when some replies are unreadable
FILL_DEPTH = 0.5  # where the answering document sits in the fill series
T = TypeVar("T")


@dataclass(frozen=True)
class _Sized:
    document: Document
    tokens: int


@register_family("needles")
def build_needles(ctx: TaskBuildContext, length: TaskLength) -> list[TaskInstance]:
    task = ctx.task
    assert isinstance(task, NeedlesTask)
    documents = _documents(ctx, task)
    tokens = _token_counts(ctx, documents)
    questions = _questions(ctx, task, length, documents, tokens)
    instances = []
    for question in questions:
        instances += _question_instances(ctx, task, length, question, documents, tokens)
    return instances


def _documents(ctx: TaskBuildContext, task: NeedlesTask) -> list[Document]:
    if task.documents == "chapters":
        return chapter_documents(ctx.books)
    return folder_documents(ctx.spec.resolve(task.documents), ctx.spec.language)


def _token_counts(ctx: TaskBuildContext, documents: list[Document]) -> dict[str, int]:
    counts = ctx.count_tokens([d.text for d in documents])
    return {d.id: n for d, n in zip(documents, counts, strict=True)}


def _questions(
    ctx: TaskBuildContext,
    task: NeedlesTask,
    length: TaskLength,
    documents: list[Document],
    tokens: dict[str, int],
) -> list[NeedleQuestion]:
    """The questions this length uses: enough for `count` instances, a seeded choice among
    those whose answering document takes at most half the window."""
    per_question = max(1, len(task.depths) + len(task.fills))
    needed = math.ceil(length.count / per_question)
    fits = [d for d in documents if tokens[d.id] <= length.target // 2]
    if task.documents == "chapters":
        if len(fits) < len(documents):
            ctx.drops.warn(
                f"{len(documents) - len(fits)} of {len(documents)} chapters are longer than "
                "half the window: not used as answering documents at this length"
            )
        order = _shuffled(fits, ctx.seed, task.name, "questions")
        return _asked(ctx, order, needed)
    folder = ctx.spec.resolve(task.documents)
    questions = folder_questions(folder, documents, ctx.drops)
    fitting = {d.id for d in fits}
    usable = []
    for question in questions:
        if question.document.id in fitting:
            usable.append(question)
        else:
            ctx.drops.drop("answering document longer than half the window", question.key)
    return _shuffled(usable, ctx.seed, task.name, "questions")[:needed]


def _asked(ctx: TaskBuildContext, order: list[Document], needed: int) -> list[NeedleQuestion]:
    if ctx.llm is None or ctx.spec.llm.drafter is None:
        raise FamilyUnavailable(
            "needles over chapters need a model to write the questions; set [llm.drafter]"
        )
    questions: list[NeedleQuestion] = []
    start = 0
    for _ in range(MAX_QUESTION_ROUNDS):
        batch = order[start : start + needed - len(questions)]
        if not batch:
            break
        start += len(batch)
        questions += chapter_questions(batch, ctx.llm, ctx.spec.llm.drafter, ctx.drops)
        if len(questions) >= needed:
            break
    return questions


def _shuffled(items: list[T], *key: object) -> list[T]:
    shuffled = list(items)
    random.Random(canonical_hash([str(k) for k in key])).shuffle(shuffled)
    return shuffled


def _question_instances(
    ctx: TaskBuildContext,
    task: NeedlesTask,
    length: TaskLength,
    question: NeedleQuestion,
    documents: list[Document],
    tokens: dict[str, int],
) -> list[TaskInstance]:
    answer = question.document
    pool = [
        _Sized(d, tokens[d.id])
        for d in documents
        if d.collection == answer.collection and d.id != answer.id
    ]
    pool = _shuffled(pool, ctx.seed, task.name, length.name, question.key)
    # Chapters of other books first; the answering book's own only to top up (stable sort).
    pool.sort(key=lambda item: bool(answer.book_id) and item.document.book_id == answer.book_id)
    room = length.target - tokens[answer.id]
    distractors = _fill(pool, room)
    instances = []
    for depth in task.depths:
        bounds = (length.target, length.lower, length.upper)
        instance = _instance(ctx, length, question, distractors, depth, None, bounds)
        if instance is not None:
            instances.append(instance)
    for fill in task.fills:
        share = _fill(pool, round(fill * length.target) - tokens[answer.id])
        bounds = _fill_bounds(length, fill, tokens[answer.id])
        instance = _instance(ctx, length, question, share, FILL_DEPTH, fill, bounds)
        if instance is not None:
            instances.append(instance)
    return instances


def _fill(pool: list[_Sized], room: int) -> list[_Sized]:
    """Documents of `pool`, in its order, while they fit in `room` tokens (a separator
    counted as one token each): greedy, so small documents top up the end."""
    chosen, used = [], 0
    for item in pool:
        if used + item.tokens + 1 <= room:
            chosen.append(item)
            used += item.tokens + 1
    return chosen


def _fill_bounds(length: TaskLength, fill: float, answer_tokens: int) -> tuple[int, int, int]:
    """(target, lower, upper) of a fill instance: that share of the length's interval, but
    never below the answering document alone nor above the length's upper bound."""
    upper = min(length.upper, max(round(fill * length.upper), answer_tokens))
    lower = min(max(1, round(fill * length.lower)), upper)
    target = min(max(round(fill * length.target), lower), upper)
    return target, lower, upper


def arrange(
    distractors: list[_Sized], answer: Document, depth: float
) -> tuple[list[Document], float]:
    """Documents in shown order and the answering document's achieved relative start.

    Which distractors go before it: largest first while they fit under the goal, then the
    smallest left over if overshooting by it lands closer; the error is at most half the
    smallest distractor left out. Both sides keep the seeded shuffle's order.
    """
    weights = {d.document.id: len(d.document.text) + len(SEPARATOR) for d in distractors}
    total = sum(weights.values())
    goal = depth * total
    before: set[str] = set()
    start = 0
    for item in sorted(distractors, key=lambda d: -weights[d.document.id]):
        if start + weights[item.document.id] <= goal:
            before.add(item.document.id)
            start += weights[item.document.id]
    rest = [d.document.id for d in distractors if d.document.id not in before]
    if rest:
        smallest = min(rest, key=lambda i: weights[i])
        if abs(start + weights[smallest] - goal) < abs(goal - start):
            before.add(smallest)
            start += weights[smallest]
    shown = [d.document for d in distractors if d.document.id in before]
    shown += [answer] + [d.document for d in distractors if d.document.id not in before]
    return shown, (start / total if total else 0.0)


def _instance(
    ctx: TaskBuildContext,
    length: TaskLength,
    question: NeedleQuestion,
    distractors: list[_Sized],
    depth: float,
    fill: float | None,
    bounds: tuple[int, int, int],
) -> TaskInstance | None:
    target, lower, upper = bounds
    shown, achieved = arrange(distractors, question.document, depth)
    context = SEPARATOR.join(d.text for d in shown)
    tokens = ctx.count_tokens([context])[0]
    label = f"fill{round(fill * 100)}" if fill is not None else f"depth{round(depth * 100)}"
    instance_id = f"{ctx.task.name}:{length.name}:q{canonical_hash(question.key)[:12]}:{label}"
    if not lower <= tokens <= upper:
        reason = "distractors too few to fill the length" if tokens < lower else "over the length"
        ctx.drops.drop(reason, f"{instance_id} ({tokens} tokens)")
        return None
    answer = question.document
    return TaskInstance(
        id=instance_id,
        task=ctx.task.name,
        family="needles",
        length=length.name,
        language=answer.language,
        book_id=answer.book_id,
        context=context,
        question=question.question,
        answers=list(question.answers),
        tokens=tokens,
        tokenizer=ctx.tokenizer,
        target=target,
        lower=lower,
        upper=upper,
        depth=round(achieved, 6),
        fill=fill,
        source_ids=[d.id for d in shown],
        details={
            "answer_document": answer.id,
            "depth_requested": depth,
            "documents": len(shown),
            "collection": answer.collection,
            "question_key": question.key,
        },
    )
