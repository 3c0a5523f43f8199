"""ETHIC's ordering variant: the shuffled per-chunk synopses of the whole context.

A context is a run of whole chapters inside the length, cut as samples are
(`chapter_runs.candidate_runs`) and rendered as samples render them
(`joining.sample_text`); its chunks are its chapters. The question shows the chapters'
synopses (`synopses.chapter_synopses`: human-reviewed or drafted, written by the
drafting model when missing) shuffled with the seed, one per line under a letter label:

    [A] <synopsis>
    [B] <synopsis>

`answers` holds the labels in the chapters' reading order (`FAMILY_ANSWERS`).

Dropped, each with its reason in the task report: books without a run inside the
length, runs of fewer than `min_items` chapters (3 by default: with 2 the never-in-order
rule of `shuffle_items` would give the answer away), runs with a chapter that has no
synopsis, runs outside the length once counted exactly, and runs not drawn once the
length's count is reached.

details: `chunks` (chapters shown), `shown_order` (reading position of each shown
synopsis), `labels` (as shown), `first_chapter`, `last_chapter` (0-based, inclusive).
"""

from __future__ import annotations

from lengthwise.builders.joining import sample_text
from lengthwise.builders.tasks.base import TaskBuildContext, register_family
from lengthwise.builders.tasks.chapter_runs import Run, candidate_runs, draw, exact_tokens
from lengthwise.builders.tasks.shuffling import shown, shuffle_items, task_rng
from lengthwise.builders.tasks.synopses import chapter_synopses
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import SynopsisOrderingTask, TaskLength

FEW_CHAPTERS = "fewer chapters than min_items"


def synopsis_question(synopses: list[str], shown_labels: list[str]) -> str:
    """The labelled synopses, one per line (line breaks inside a synopsis flattened)."""
    return "\n".join(
        f"[{label}] {' '.join(text.split())}"
        for label, text in zip(shown_labels, synopses, strict=True)
    )


def _build(
    ctx: TaskBuildContext, length: TaskLength, run: Run, seed_name: str
) -> TaskInstance | None:
    chapters = run.book.chapters[run.first : run.last + 1]
    task = ctx.task
    least = task.min_items if isinstance(task, SynopsisOrderingTask) else 3
    if len(chapters) < least:
        ctx.drops.drop(FEW_CHAPTERS, example=f"{length.name}: {run.key} ({len(chapters)})")
        return None
    context = sample_text(run.book, run.first, run.last)
    tokens = exact_tokens(ctx, length, context, f"{length.name}: {run.key}")
    if tokens is None:
        return None
    # Counted first: a run outside the length asks the model for nothing.
    synopses, reason = chapter_synopses(ctx, chapters, run.book.language)
    if synopses is None:
        ctx.drops.drop(reason, example=f"{length.name}: {run.key}")
        return None
    # One RNG per run: the permutation does not depend on which other runs were drawn.
    shuffled = shuffle_items(len(chapters), task_rng(ctx.seed, f"{seed_name}:{run.key}", length))
    return TaskInstance(
        id=f"{ctx.task.name}:{length.name}:{run.book.id}:{run.first}",
        task=ctx.task.name,
        family="synopsis-ordering",
        length=length.name,
        language=run.book.language,
        book_id=run.book.id,
        context=context,
        question=synopsis_question(shown(synopses, shuffled), shuffled.labels),
        answers=shuffled.answer,
        tokens=tokens,
        tokenizer=ctx.tokenizer,
        target=length.target,
        lower=length.lower,
        upper=length.upper,
        source_ids=[c.sha256 for c in chapters],
        details={
            "chunks": len(chapters),
            "shown_order": shuffled.shown_order,
            "labels": shuffled.labels,
            "first_chapter": run.first,
            "last_chapter": run.last,
        },
    )


@register_family("synopsis-ordering")
def build_synopsis_ordering(ctx: TaskBuildContext, length: TaskLength) -> list[TaskInstance]:
    runs = candidate_runs(ctx, length)
    rng = task_rng(ctx.seed, ctx.task.name, length)
    return draw(
        runs,
        rng,
        length.count,
        lambda run: _build(ctx, length, run, ctx.task.name),
        ctx.drops,
        lambda run: f"{length.name}: {run.key}",
        lambda run: run.book.id,
    )
