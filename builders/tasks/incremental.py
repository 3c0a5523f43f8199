"""Incremental context: one book prefix grown in fixed token steps, each step a length.

For each chosen book, step k's context is the longest prefix of the book (chapters
rendered and joined as samples are) that ends on a whole paragraph and has at most the
step's target tokens; a larger step therefore extends the smaller one's prefix, so step
k's context is a prefix of step k+1's. Books are one seeded choice, the same at every
step, among those long enough for the largest step. `answers` is empty: the series
measures what summaries gain and lose as the context grows.

Details: `step` (0-based position of the length among the task's lengths),
`paragraphs` (whole paragraphs shown), `last_chapter` (index of the last chapter
touched), `book_tokens` (the whole book's count).
"""

from __future__ import annotations

import random
from bisect import bisect_right

from lengthwise.builders.joining import CHAPTER_SEPARATOR, render_chapter
from lengthwise.builders.tasks.base import TaskBuildContext, register_family
from lengthwise.builders.tasks.lengths import task_lengths
from lengthwise.records import Book
from lengthwise.storage import canonical_hash
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import IncrementalTask, TaskLength


@register_family("incremental")
def build_incremental(ctx: TaskBuildContext, length: TaskLength) -> list[TaskInstance]:
    task = ctx.task
    assert isinstance(task, IncrementalTask)
    lengths = task_lengths(ctx.spec, task)
    longest = max(item.target for item in lengths)
    step = [item.name for item in lengths].index(length.name)
    instances = []
    for book in _chosen_books(ctx, task, longest):
        instance = _prefix_instance(ctx, book, length, step)
        if instance is not None:
            instances.append(instance)
    return instances


def _book_tokens(book: Book, tokenizer: str) -> int:
    return sum(c.token_counts.get(tokenizer, 0) for c in book.chapters)


def _chosen_books(ctx: TaskBuildContext, task: IncrementalTask, longest: int) -> list[Book]:
    """`task.books` books long enough for the largest step: one seeded choice for all steps."""
    long_enough = []
    for book_id in sorted(ctx.books):
        book = ctx.books[book_id]
        if _book_tokens(book, ctx.tokenizer) >= longest:
            long_enough.append(book)
        else:
            ctx.drops.drop("book shorter than the largest step", book_id)
    random.Random(canonical_hash([ctx.seed, task.name, "books"])).shuffle(long_enough)
    for book in long_enough[task.books :]:
        ctx.drops.drop("more long books than the task's `books`", book.id)
    return long_enough[: task.books]


def book_text(book: Book) -> tuple[str, list[int]]:
    """The whole book as samples render it, and where each chapter starts in it."""
    rendered = [render_chapter(c) for c in book.chapters]
    starts, offset = [], 0
    for text in rendered:
        starts.append(offset)
        offset += len(text) + len(CHAPTER_SEPARATOR)
    return CHAPTER_SEPARATOR.join(rendered), starts


def paragraph_ends(text: str) -> list[int]:
    """Offsets where a whole-paragraph prefix may end: before each line break, and the end."""
    ends = [i for i, ch in enumerate(text) if ch == "\n" and i > 0 and text[i - 1] != "\n"]
    return [*ends, len(text)]


def longest_prefix(ctx: TaskBuildContext, text: str, ends: list[int], limit: int) -> int:
    """How many paragraphs the longest prefix within `limit` tokens holds (binary search;
    prefix counts grow with the prefix)."""
    low, high = 0, len(ends)  # low paragraphs fit; high + 1 do not (or high is all)
    while low < high:
        middle = (low + high + 1) // 2
        if ctx.count_tokens([text[: ends[middle - 1]]])[0] <= limit:
            low = middle
        else:
            high = middle - 1
    return low


def _prefix_instance(
    ctx: TaskBuildContext, book: Book, length: TaskLength, step: int
) -> TaskInstance | None:
    text, chapter_starts = book_text(book)
    ends = paragraph_ends(text)
    paragraphs = longest_prefix(ctx, text, ends, length.target)
    instance_id = f"{ctx.task.name}:{length.name}:{book.id}:0"
    context = text[: ends[paragraphs - 1]] if paragraphs else ""
    tokens = ctx.count_tokens([context])[0] if context else 0
    if tokens < length.lower:
        ctx.drops.drop("whole paragraphs end too far below the step", f"{instance_id} ({tokens})")
        return None
    last_chapter = bisect_right(chapter_starts, len(context) - 1) - 1
    return TaskInstance(
        id=instance_id,
        task=ctx.task.name,
        family="incremental",
        length=length.name,
        language=book.language,
        book_id=book.id,
        context=context,
        question="",
        answers=[],
        tokens=tokens,
        tokenizer=ctx.tokenizer,
        target=length.target,
        lower=length.lower,
        upper=length.upper,
        source_ids=[c.sha256 for c in book.chapters[: last_chapter + 1]],
        details={
            "step": step,
            "paragraphs": paragraphs,
            "last_chapter": last_chapter,
            "book_tokens": _book_tokens(book, ctx.tokenizer),
        },
    )
