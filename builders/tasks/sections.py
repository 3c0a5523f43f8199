"""ETHIC per-section summarizing: a context split into K sections, one summary per section.

A context is a run of whole chapters inside the length (cut as samples are, with the
tokens of the section markers reserved). It is split into `task.sections` sections
balanced by tokens at chapter boundaries, so every section is whole chapters: the
references are chapter synopses, and a synopsis belongs to exactly one section's text.
A run with fewer chapters than sections is not built (dropped, counted: "fewer chapters
than sections"): cutting a chapter would give several sections the same reference.

Each section starts with a marker line so the model knows the division (en
`[Section 1]`, zh `【第1部分】`), sections separated by a blank line:

    [Section 1]
    <chapters of section 1>

    [Section 2]
    ...

`answers[k]` is the reference of section k+1: the synopses (human-reviewed when present)
of the chapters it holds, merged in reading order one per line. Runs whose chapters
lack synopses (and no drafting model is configured), runs with fewer chapters than
sections, and runs outside the length once counted with their markers are dropped with
their reason.

details: `sections` (K), `boundaries`, `section_first_chapter` and
`section_last_chapter` (0-based chapter of each section's first and last text),
`section_tokens` (each section's text alone), `first_chapter`, `last_chapter`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lengthwise.builders.joining import CHAPTER_SEPARATOR, render_chapter
from lengthwise.builders.tasks.base import TaskBuildContext, register_family
from lengthwise.builders.tasks.chapter_runs import Run, candidate_runs, draw, exact_tokens
from lengthwise.builders.tasks.shuffling import task_rng
from lengthwise.builders.tasks.synopses import chapter_synopses
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import SectionsTask, TaskLength

FEW_CHAPTERS = "fewer chapters than sections (a chapter synopsis cannot be split)"
SECTION_SEPARATOR = "\n\n"


def section_marker(number: int, language: str) -> str:
    """The marker line opening section `number` (1-based)."""
    return f"【第{number}部分】" if language == "zh" else f"[Section {number}]"


def balanced_cuts(tokens: Sequence[int], parts: int) -> list[int]:
    """Start indices of `parts` non-empty contiguous groups of `tokens`, each cut placed
    where the running total is closest to its share (k/parts of the total)."""
    if len(tokens) < parts:
        raise ValueError(f"cannot cut {len(tokens)} items into {parts} non-empty groups")
    prefix = [0]
    for value in tokens:
        prefix.append(prefix[-1] + value)
    cuts = [0]
    for k in range(1, parts):
        goal = prefix[-1] * k / parts
        lowest, highest = cuts[-1] + 1, len(tokens) - (parts - k)
        cuts.append(min(range(lowest, highest + 1), key=lambda j: (abs(prefix[j] - goal), j)))
    return cuts


@dataclass(frozen=True)
class Piece:
    """A unit sections are made of: a rendered chapter, with its index."""

    text: str
    chapter: int  # 0-based index in the book
    tokens: int


def _pieces(ctx: TaskBuildContext, run: Run) -> list[Piece]:
    chapter_list = [run.book.chapters[i] for i in range(run.first, run.last + 1)]
    counts = [c.token_counts[ctx.tokenizer] for c in chapter_list]
    texts = [render_chapter(c) for c in chapter_list]
    indices = range(run.first, run.last + 1)
    return [Piece(t, i, n) for t, i, n in zip(texts, indices, counts, strict=True)]


def _groups(pieces: list[Piece], parts: int) -> list[list[Piece]]:
    cuts = [*balanced_cuts([p.tokens for p in pieces], parts), len(pieces)]
    return [pieces[cuts[k] : cuts[k + 1]] for k in range(parts)]


def _references(synopses: dict[int, str], groups: list[list[Piece]]) -> list[str]:
    out = []
    for group in groups:
        held = sorted({p.chapter for p in group})
        out.append("\n".join(synopses[i] for i in held))
    return out


def _build(ctx: TaskBuildContext, length: TaskLength, run: Run, parts: int) -> TaskInstance | None:
    example = f"{length.name}: {run.key}"
    if run.last - run.first + 1 < parts:
        ctx.drops.drop(FEW_CHAPTERS, example=f"{example} ({run.last - run.first + 1})")
        return None
    groups = _groups(_pieces(ctx, run), parts)
    texts = [CHAPTER_SEPARATOR.join(p.text for p in group) for group in groups]
    language = run.book.language
    context = SECTION_SEPARATOR.join(
        f"{section_marker(k + 1, language)}\n{text}" for k, text in enumerate(texts)
    )
    tokens = exact_tokens(ctx, length, context, example)
    if tokens is None:
        return None
    chapters = run.book.chapters[run.first : run.last + 1]
    synopses, reason = chapter_synopses(ctx, chapters, language)
    if synopses is None:
        ctx.drops.drop(reason, example=example)
        return None
    by_index = dict(zip(range(run.first, run.last + 1), synopses, strict=True))
    return TaskInstance(
        id=f"{ctx.task.name}:{length.name}:{run.book.id}:{run.first}",
        task=ctx.task.name,
        family="sections",
        length=length.name,
        language=language,
        book_id=run.book.id,
        context=context,
        question="",
        answers=_references(by_index, groups),
        tokens=tokens,
        tokenizer=ctx.tokenizer,
        target=length.target,
        lower=length.lower,
        upper=length.upper,
        source_ids=[c.sha256 for c in chapters],
        details={
            "sections": parts,
            "boundaries": "chapters",
            "section_first_chapter": [g[0].chapter for g in groups],
            "section_last_chapter": [g[-1].chapter for g in groups],
            "section_tokens": ctx.count_tokens(texts),
            "first_chapter": run.first,
            "last_chapter": run.last,
        },
    )


def _marker_tokens(ctx: TaskBuildContext, parts: int, language: str) -> int:
    markers = [f"{section_marker(k + 1, language)}\n" for k in range(parts)]
    return sum(ctx.count_tokens(markers)) + parts  # + the blank lines between sections


@register_family("sections")
def build_sections(ctx: TaskBuildContext, length: TaskLength) -> list[TaskInstance]:
    task = ctx.task
    if not isinstance(task, SectionsTask):
        raise TypeError(f"task {task.name!r} is not a sections task")
    languages = {b.language for b in ctx.books.values()} or {"en"}
    reserve = max(_marker_tokens(ctx, task.sections, lang) for lang in languages)
    runs = candidate_runs(ctx, length, reserve=reserve)
    return draw(
        runs,
        task_rng(ctx.seed, task.name, length),
        length.count,
        lambda run: _build(ctx, length, run, task.sections),
        ctx.drops,
        lambda run: f"{length.name}: {run.key}",
        lambda run: run.book.id,
    )
