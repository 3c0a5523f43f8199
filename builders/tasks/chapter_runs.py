"""Chapter runs inside a task length, and the seeded draw of candidates into instances.

Families whose context is a run of whole chapters (synopsis ordering, sections) cut
their runs the way samples are cut: the spec's sampling policy over the chapters'
token counts in the primary tokenizer, never across a gap in the printed numbering
(unless the spec allows it). A family that adds text around the chapters (section
markers) reserves those tokens, and every context is then counted exactly: a run
outside [lower, upper] once rendered is dropped with a reason.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from lengthwise.builders.duplicates.build_stage import sampling_lengths
from lengthwise.builders.joining import joins_exactly, render_chapter
from lengthwise.builders.sampling.windows import policy_windows
from lengthwise.builders.tasks.base import TaskBuildContext
from lengthwise.records import Book
from lengthwise.reports import StageReport
from lengthwise.spec import SubsetSpec
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import TaskLength

NOT_DRAWN = "not drawn: the length's count was reached"
NO_RUN = "no chapter run of the book fits the length"
OUTSIDE_LENGTH = "outside the length once rendered"


@dataclass(frozen=True)
class Run:
    """Chapters `first..last` (0-based, inclusive) of `book`."""

    book: Book
    first: int
    last: int

    @property
    def key(self) -> str:
        return f"{self.book.id}:{self.first:04d}-{self.last:04d}"


def with_counts(ctx: TaskBuildContext, book: Book) -> Book:
    """`book` with every chapter counted in the primary tokenizer (counted here if the
    corpus stage did not)."""
    missing = [c for c in book.chapters if ctx.tokenizer not in c.token_counts]
    if missing:
        counts = ctx.count_tokens([render_chapter(c) for c in missing])
        for chapter, count in zip(missing, counts, strict=True):
            chapter.token_counts[ctx.tokenizer] = count
    return book


def _sum_field(ctx: TaskBuildContext, books: Sequence[Book]) -> str:
    """The counts windows add up: with the separator after each chapter where known."""
    followed = all(ctx.tokenizer in c.token_counts_followed for b in books for c in b.chapters)
    return "token_counts_followed" if joins_exactly(ctx.tokenizer) and followed else "token_counts"


def candidate_runs(ctx: TaskBuildContext, length: TaskLength, reserve: int = 0) -> list[Run]:
    """Every chapter run of every book inside [lower - reserve, upper - reserve] by summed
    counts, in (book id, chapter) order; books without one are dropped with a reason."""
    books = [with_counts(ctx, ctx.books[k]) for k in sorted(ctx.books)]
    field = _sum_field(ctx, books)
    allow_gaps = ctx.spec.sampling.allow_number_gaps
    lengths = sampling_lengths(books, ctx.tokenizer, field, allow_gaps)
    lower = max(1, length.lower - reserve)
    upper = max(lower, length.upper - reserve)
    window = SubsetSpec(
        name=length.name,
        target=min(max(length.target - reserve, lower), upper),
        lower=lower,
        upper=upper,
        count=length.count,
    )
    runs: list[Run] = []
    for book, book_lengths in zip(books, lengths, strict=True):
        windows = policy_windows(
            book_lengths.chapter_tokens, window, ctx.spec.sampling.policy, book_lengths.breaks
        )
        if not windows:
            ctx.drops.drop(NO_RUN, example=f"{length.name}: {book.id}")
        runs.extend(Run(book, first, last) for first, last in windows)
    return runs


Candidate = TypeVar("Candidate")


def draw(
    candidates: Sequence[Candidate],
    rng: random.Random,
    count: int,
    build: Callable[[Candidate], TaskInstance | None],
    drops: StageReport,
    name: Callable[[Candidate], str],
) -> list[TaskInstance]:
    """Instances from candidates taken in a seeded order until `count` are built.

    `build` returns None after dropping a candidate with its reason; the candidates left
    when the count is reached are dropped as not drawn. Instances come back sorted by id.
    """
    order = list(range(len(candidates)))
    rng.shuffle(order)
    instances: list[TaskInstance] = []
    for index in order:
        candidate = candidates[index]
        if len(instances) >= count:
            drops.drop(NOT_DRAWN, example=name(candidate))
            continue
        instance = build(candidate)
        if instance is not None:
            instances.append(instance)
    return sorted(instances, key=lambda i: i.id)


def exact_tokens(ctx: TaskBuildContext, length: TaskLength, text: str, example: str) -> int | None:
    """The count of `text`, or None (dropped with a reason) when outside the length."""
    tokens = ctx.count_tokens([text])[0]
    if length.lower <= tokens <= length.upper:
        return tokens
    ctx.drops.drop(OUTSIDE_LENGTH, example=f"{example} ({tokens} tokens)")
    return None
