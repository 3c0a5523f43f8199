"""Chapter runs inside a task length, and the seeded draw of candidates into instances.

Families whose context is a run of whole chapters (synopsis ordering, sections) cut
their runs the way samples are cut: the spec's sampling policy over the chapters'
token counts in the primary tokenizer, never across a gap in the printed numbering
(unless the spec allows it). A family that adds text around the chapters (section
markers) reserves those tokens, and every context is then counted exactly: a run
outside [lower, upper] once rendered is dropped with a reason.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from lengthwise.builders.duplicates.build_stage import sampling_lengths
from lengthwise.builders.joining import joins_exactly, render_chapter
from lengthwise.builders.sampling.selection import MAX_BOOK_SHARE, MIN_BOOKS_FOR_CAP
from lengthwise.builders.sampling.windows import policy_windows
from lengthwise.builders.tasks.base import TaskBuildContext
from lengthwise.records import Book
from lengthwise.reports import StageReport
from lengthwise.spec import SubsetSpec
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import TaskLength

NOT_DRAWN = "not drawn: the length's count was reached"
OVER_BOOK_CAP = "not drawn: the book's cap was reached"
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


def book_cap(books: int, count: int, share: float = MAX_BOOK_SHARE) -> int | None:
    """The most instances one book may give a length: `share` of `count` when at least
    three books have candidates, as for the summary subsets (raised to count / books so
    that the number of books alone never leaves the length short); else None."""
    if books < MIN_BOOKS_FOR_CAP:
        return None
    return max(1, math.floor(share * count + 1e-9), math.ceil(count / books))


def draw(
    candidates: Sequence[Candidate],
    rng: random.Random,
    count: int,
    build: Callable[[Candidate], TaskInstance | None],
    drops: StageReport,
    name: Callable[[Candidate], str],
    book: Callable[[Candidate], str],
) -> list[TaskInstance]:
    """Instances from candidates, balanced by book, until `count` are built.

    The candidates are taken in a seeded order, round-robin over the books (one instance
    per book per round, so no book gives more than the fewest possible), and no book
    beyond `book_cap`. `build` returns None after dropping a candidate with its reason;
    the candidates left are dropped as not drawn (the count reached) or over the cap.
    Instances come back sorted by id.
    """
    order = list(range(len(candidates)))
    rng.shuffle(order)
    queues: dict[str, deque[Candidate]] = {}
    for index in order:  # books in the order of their first candidate in the draw
        queues.setdefault(book(candidates[index]), deque()).append(candidates[index])
    cap = book_cap(len(queues), count)
    taken: Counter[str] = Counter()
    instances: list[TaskInstance] = []
    while queues and len(instances) < count:
        for key in list(queues):
            queue = queues[key]
            while queue and len(instances) < count:
                instance = build(queue.popleft())
                if instance is not None:
                    instances.append(instance)
                    taken[key] += 1
                    break
            if not queue:
                del queues[key]
            elif cap is not None and taken[key] >= cap and len(instances) < count:
                reason = f"{OVER_BOOK_CAP} ({cap} per book)"
                for left in queues.pop(key):
                    drops.drop(reason, example=name(left))
    for queue in queues.values():
        for left in queue:
            drops.drop(NOT_DRAWN, example=name(left))
    return sorted(instances, key=lambda i: i.id)


def exact_tokens(ctx: TaskBuildContext, length: TaskLength, text: str, example: str) -> int | None:
    """The count of `text`, or None (dropped with a reason) when outside the length."""
    tokens = ctx.count_tokens([text])[0]
    if length.lower <= tokens <= length.upper:
        return tokens
    ctx.drops.drop(OUTSIDE_LENGTH, example=f"{example} ({tokens} tokens)")
    return None
