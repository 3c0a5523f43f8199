"""Question answering by position: questions from the beginning, middle and end thirds.

For each sample-like chapter run inside the length (context_runs.py), the chapters are
placed in thirds of the context by the character position of their midpoint; one
chapter is drawn (seeded) from each third, and the drafting model writes one question
of each kind in `task.kinds` from that chapter alone (qa_prompts.py). Each reply is
read and checked mechanically (qa_checks.py); a failing one is dropped with its reason.

`depth` is the chapter's midpoint relative to the context (0.0 start, 1.0 end).
`details`: kind, third ("beginning" / "middle" / "end"), chapter (0-based index in the
book), chapter_heading, chapter_start / chapter_end (character offsets of the chapter
in the context), validated (false: a person accepts, edits or rejects every item in
Label Studio before a release; see annotation/task_checks), and per kind: verdict and
reason (yes-no), proposed_answer and key_facts (unanswerable).
`answers`: [answer] for abstractive and extractive, ["Yes. <reason>"] for yes-no,
[] for unanswerable.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from lengthwise.builders.sampling.selection import stable_seed
from lengthwise.builders.tasks.base import TaskBuildContext, register_family
from lengthwise.builders.tasks.context_runs import ContextRun, context_runs
from lengthwise.builders.tasks.drafting import InstanceIds, drafting_model
from lengthwise.builders.tasks.qa_checks import DraftQuestion, check_question, read_question
from lengthwise.builders.tasks.qa_prompts import question_request
from lengthwise.llm.types import ChatRequest
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import QATask, TaskLength

THIRDS = ("beginning", "middle", "end")
QUESTION_REPLY_TOKENS = 512


@dataclass(frozen=True)
class ChapterPick:
    """One chapter of a run, drawn for one third of its context."""

    run: ContextRun
    third: str
    position: int  # in the run, 0-based
    start: int  # character offsets of the chapter in the context
    end: int

    @property
    def depth(self) -> float:
        return round((self.start + self.end) / 2 / len(self.run.text), 4)

    @property
    def chapter_text(self) -> str:
        return self.run.text[self.start : self.end]


def third_of(depth: float) -> str:
    return THIRDS[min(2, int(depth * 3))]


def pick_chapters(ctx: TaskBuildContext, length: TaskLength, run: ContextRun) -> list[ChapterPick]:
    """One chapter per third (seeded); a third no chapter's midpoint falls in is counted."""
    name = f"{ctx.task.name}:{length.name}:{run.book.id}:{run.first}-{run.last}"
    rng = random.Random(stable_seed(ctx.seed, name))
    by_third: dict[str, list[ChapterPick]] = {third: [] for third in THIRDS}
    for position in range(run.last - run.first + 1):
        start, end = run.span(position)
        pick = ChapterPick(run, "", position, start, end)
        by_third[third_of(pick.depth)].append(pick)
    picks = []
    for third, candidates in by_third.items():
        if not candidates:
            ctx.drops.drop(f"{length.name}: no chapter in the {third} third", example=name)
            continue
        chosen = rng.choice(candidates)
        picks.append(ChapterPick(run, third, chosen.position, chosen.start, chosen.end))
    return picks


@register_family("qa")
def build_qa(ctx: TaskBuildContext, length: TaskLength) -> list[TaskInstance]:
    task = ctx.task
    if not isinstance(task, QATask):
        raise TypeError(f"task {task.name!r} is not a qa task")
    client = drafting_model(ctx)
    jobs = [
        (pick, kind)
        for run in context_runs(ctx, length)
        for pick in pick_chapters(ctx, length, run)
        for kind in task.kinds
    ]
    requests = [_request(pick, kind) for pick, kind in jobs]
    ids = InstanceIds(task.name, length.name)
    instances = []
    for (pick, kind), result in zip(jobs, client.complete_many(requests), strict=True):
        language = pick.run.book.language
        if result.outcome != "ok":
            ctx.drops.drop(f"{length.name}: {kind}: model outcome {result.outcome}")
            continue
        item = read_question(kind, result.text, language)
        problem = item if isinstance(item, str) else check_question(
            item, pick.chapter_text, pick.run.text
        )  # fmt: skip
        if problem is not None or isinstance(item, str):
            ctx.drops.drop(f"{length.name}: {kind}: {problem}", example=result.text[:200])
            continue
        instances.append(_instance(ctx, task, length, ids.next(pick.run.book.id), pick, item))
    return instances


def _request(pick: ChapterPick, kind: str) -> ChatRequest:
    meta = f"{pick.run.book.id}:{pick.run.first + pick.position}:{kind}"
    language = pick.run.book.language
    return question_request(pick.chapter_text, kind, language, QUESTION_REPLY_TOKENS, meta)


def _instance(
    ctx: TaskBuildContext,
    task: QATask,
    length: TaskLength,
    instance_id: str,
    pick: ChapterPick,
    item: DraftQuestion,
) -> TaskInstance:
    run = pick.run
    chapter = run.chapters[pick.position]
    return TaskInstance(
        id=instance_id,
        task=task.name,
        family="qa",
        length=length.name,
        language=run.book.language,
        book_id=run.book.id,
        context=run.text,
        question=item.question,
        answers=item.answers,
        tokens=run.tokens,
        tokenizer=ctx.tokenizer,
        target=length.target,
        lower=length.lower,
        upper=length.upper,
        depth=pick.depth,
        source_ids=run.source_ids,
        details={
            "kind": item.kind,
            "third": pick.third,
            "chapter": chapter.index,
            "chapter_heading": chapter.heading,
            "chapter_start": pick.start,
            "chapter_end": pick.end,
            "validated": False,
            **item.details,
        },
    )
