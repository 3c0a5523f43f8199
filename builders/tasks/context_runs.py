"""Sample-like contexts of one task length: chapter runs chosen and joined as samples are.

The candidate runs and the selection are the build's own (`candidates_for_subset`,
`select_samples`, the spec's sampling policy and numbering-gap rule), applied to the
task's length as if it were a subset, so a task whose lengths default to the spec's
subsets sees the same runs as the samples. The text is `joining.sample_text` and is
recounted exactly with the primary tokenizer; a run outside the length after the
recount, and every candidate the selection left out, is counted in `ctx.drops`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from lengthwise.builders.duplicates.build_stage import sampling_lengths
from lengthwise.builders.joining import CHAPTER_SEPARATOR, joins_exactly, render_chapter
from lengthwise.builders.sampling.candidates import candidates_for_subset
from lengthwise.builders.sampling.selection import select_samples, stable_seed
from lengthwise.builders.tasks.base import TaskBuildContext
from lengthwise.errors import UserError
from lengthwise.records import Book, Chapter
from lengthwise.spec import SubsetSpec
from lengthwise.task_spec import TaskLength


@dataclass(frozen=True)
class ContextRun:
    """Chapters first..last of one book, joined as a sample's text."""

    book: Book
    first: int
    last: int
    text: str
    tokens: int  # of `text`, exact, in the primary tokenizer
    starts: tuple[int, ...]  # character offset of each chapter's rendered text in `text`

    @property
    def chapters(self) -> list[Chapter]:
        return self.book.chapters[self.first : self.last + 1]

    def span(self, position: int) -> tuple[int, int]:
        """[start, end) of the `position`-th chapter of the run (0-based) in `text`."""
        start = self.starts[position]
        if position + 1 < len(self.starts):
            return start, self.starts[position + 1] - len(CHAPTER_SEPARATOR)
        return start, len(self.text)

    @property
    def source_ids(self) -> list[str]:
        return [c.sha256 for c in self.chapters]


def context_runs(ctx: TaskBuildContext, length: TaskLength) -> list[ContextRun]:
    """Up to `length.count` runs inside the length, in (book, first chapter) order."""
    books = [ctx.books[key] for key in sorted(ctx.books)]
    _check_counts(books, ctx.tokenizer)
    field = "token_counts_followed" if joins_exactly(ctx.tokenizer) else "token_counts"
    lengths = sampling_lengths(books, ctx.tokenizer, field, ctx.spec.sampling.allow_number_gaps)
    subset = SubsetSpec(
        name=length.name,
        target=length.target,
        lower=length.lower,
        upper=length.upper,
        count=length.count,
    )
    candidates = candidates_for_subset(lengths, subset, ctx.spec.sampling.policy)
    seed = stable_seed(ctx.seed, ctx.task.name)
    selection = select_samples(candidates.runs, subset, seed, ctx.spec.sampling.q1_min_ratio)
    for _ in range(len(candidates.runs) - len(selection.samples)):
        ctx.drops.drop(f"{length.name}: candidate run not selected (the length's count reached)")
    if selection.shortfall:
        ctx.drops.warn(f"{ctx.task.name} {selection.shortfall}")
    by_id = {b.id: b for b in books}
    joined = [_joined(by_id[run.book_id], run.first, run.last) for run in selection.samples]
    counts = ctx.count_tokens([text for text, _ in joined])
    runs: list[ContextRun] = []
    for run, (text, starts), tokens in zip(selection.samples, joined, counts, strict=True):
        if not length.lower <= tokens <= length.upper:
            ctx.drops.drop(
                f"{length.name}: joined text recount outside [lower, upper]",
                example=f"{run.id} ({tokens} tokens)",
            )
            continue
        runs.append(ContextRun(by_id[run.book_id], run.first, run.last, text, tokens, starts))
    return runs


def _joined(book: Book, first: int, last: int) -> tuple[str, tuple[int, ...]]:
    """`joining.sample_text` plus where each chapter starts in it."""
    rendered = [render_chapter(c) for c in book.chapters[first : last + 1]]
    widths = [len(r) + len(CHAPTER_SEPARATOR) for r in rendered]
    starts = (0, *accumulate(widths[:-1]))
    return CHAPTER_SEPARATOR.join(rendered), tuple(starts)


def _check_counts(books: Sequence[Book], tokenizer: str) -> None:
    for book in books:
        for chapter in book.chapters:
            if tokenizer not in chapter.token_counts:
                raise UserError(
                    f"book {book.id!r} chapter {chapter.index}: no {tokenizer} token count; "
                    "rebuild the corpus with `lengthwise build SPEC`"
                )
