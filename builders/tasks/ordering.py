"""Ada-LEval TSort: shuffled segments of contiguous chapters, with hints around them.

For each book that is neither poetry nor letters (`book_form`, dropped with the reason
and its statistics otherwise), the text is the book's paragraphs in reading order with
every clue to their position removed (`order_clues`, `order_free`: headings, numbering
lines, sentences naming a chapter, chapter-opening and -closing formulae learned from
the book). Candidate instances start every `stride_paragraphs` paragraphs (after room
for the hints); the seeded draw (`chapter_runs.draw`) builds them until the length's
count is reached. An instance takes paragraphs from its start until the rendered
context lies in [lower, upper] (closest to the target by the paragraphs' counts, then
counted exactly), cuts them into `segments` pieces at paragraph boundaries balanced by
tokens, and shows them shuffled (seeded per instance) under letter labels. Layout of
`context` (zh markers 【片段之前】, 【片段A】, 【片段之后】):

    [Before the segments]
    <hint_paragraphs paragraphs just before the first segment>

    [Segment C]
    <paragraphs>

    [Segment A]
    ...

    [After the segments]
    <hint_paragraphs paragraphs just after the last segment>

(no hint blocks when hint_paragraphs is 0). Paragraphs are separated by a blank line.
`answers` is the labels in reading order; joining the segments in that order gives
the order-free paragraphs `start_paragraph..end_paragraph` back exactly.

details: `segments`, `shown_order` (reading position of each shown segment), `labels`
(as shown), `start_paragraph`, `end_paragraph` (exclusive; indices into
`order_free_paragraphs(book)`), `segment_paragraphs` (per segment in reading order),
`first_chapter`, `last_chapter`, `hint_paragraphs`, `clues_removed` (sentences and lines
the book lost to clue removal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from lengthwise.builders.tasks.base import TaskBuildContext, register_family
from lengthwise.builders.tasks.book_form import book_form
from lengthwise.builders.tasks.chapter_runs import OUTSIDE_LENGTH, draw
from lengthwise.builders.tasks.order_boundaries import DAMAGED_BOUNDARY, MAX_SHIFT, layout
from lengthwise.builders.tasks.order_free import Paragraph, order_free_paragraphs
from lengthwise.builders.tasks.shuffling import Shuffled, shuffle_items, task_rng
from lengthwise.records import Book
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import OrderingTask, TaskLength

PARAGRAPH_SEPARATOR = "\n\n"
TOO_SHORT = "book too short for the length"
FEW_PARAGRAPHS = "fewer paragraphs than segments (paragraphs too long)"
BOOK_ENDS = "the book ends before the length is reached"
_MAX_FITS = 12  # paragraph adjustments tried before a start is given up


def segment_marker(label: str, language: str) -> str:
    return f"【片段{label}】" if language == "zh" else f"[Segment {label}]"


def hint_markers(language: str) -> tuple[str, str]:
    if language == "zh":
        return "【片段之前】", "【片段之后】"
    return "[Before the segments]", "[After the segments]"


@dataclass(frozen=True)
class PreparedBook:
    book: Book
    paragraphs: list[Paragraph]
    prefix: list[int]  # prefix[i]: tokens of paragraphs[:i] counted one by one
    clues_removed: int


_PREPARED: dict[tuple[str, str, str], PreparedBook] = {}


def prepare(ctx: TaskBuildContext, book: Book) -> PreparedBook:
    """The book's order-free paragraphs and their counts (kept across lengths)."""
    key = (book.id, "".join(c.sha256 for c in book.chapters), ctx.tokenizer)
    if key not in _PREPARED:
        found, removed = order_free_paragraphs(book)
        counts = ctx.count_tokens([p.text for p in found]) if found else []
        if len(_PREPARED) > 64:
            _PREPARED.clear()
        _PREPARED[key] = PreparedBook(book, found, [0, *accumulate(counts)], sum(removed.values()))
    return _PREPARED[key]


def render_context(
    before: Sequence[str], segments: Sequence[tuple[str, str]], after: Sequence[str], language: str
) -> str:
    """The context layout of the module docstring; `segments` are (label, text) as shown."""
    head, tail = hint_markers(language)
    blocks = [f"{head}\n{PARAGRAPH_SEPARATOR.join(before)}"] if before else []
    blocks += [f"{segment_marker(label, language)}\n{text}" for label, text in segments]
    blocks += [f"{tail}\n{PARAGRAPH_SEPARATOR.join(after)}"] if after else []
    return PARAGRAPH_SEPARATOR.join(blocks)


@dataclass(frozen=True)
class _Rendered:
    context: str
    spans: list[tuple[int, int]]  # paragraphs of each segment, in reading order
    shuffled: Shuffled
    first: int  # the first paragraph shown (a hint's or the first segment's)
    last: int  # the last paragraph shown


@dataclass(frozen=True)
class _Start:
    prepared: PreparedBook
    start: int

    @property
    def name(self) -> str:
        return f"{self.prepared.book.id}@{self.start}"


class _Builder:
    def __init__(self, ctx: TaskBuildContext, task: OrderingTask, length: TaskLength) -> None:
        self.ctx, self.task, self.length = ctx, task, length

    def _margin(self) -> int:
        """Paragraphs kept free before a window and after it: hints and their gaps."""
        shift = MAX_SHIFT if self.task.clean_boundaries and self.task.hint_paragraphs else 0
        return self.task.hint_paragraphs + self.task.gap_paragraphs + shift

    def starts(self, prepared: PreparedBook) -> list[_Start]:
        margin, prefix = self._margin(), prepared.prefix
        last = len(prepared.paragraphs) - margin
        return [
            _Start(prepared, s)
            for s in range(margin, max(margin, last), self.task.stride_paragraphs)
            if prefix[last] - prefix[s] >= self.length.lower
        ]

    def _render(self, item: _Start, end: int) -> _Rendered | None:
        paras = [p.text for p in item.prepared.paragraphs]
        prefix, task = item.prepared.prefix, self.task
        sizes = [prefix[i + 1] - prefix[i] for i in range(len(paras))]
        language = item.prepared.book.language
        spans = layout(
            paras, sizes, (item.start, end), task.segments, task.hint_paragraphs,
            task.gap_paragraphs, language, task.clean_boundaries,
        )  # fmt: skip
        if spans is None:
            return None
        texts = [PARAGRAPH_SEPARATOR.join(paras[a:b]) for a, b in spans.segments]
        shuffled = shuffle_items(
            task.segments, task_rng(self.ctx.seed, f"{task.name}:{item.name}", self.length)
        )
        shown = [(shuffled.labels[k], texts[pos]) for k, pos in enumerate(shuffled.shown_order)]
        before, after = paras[slice(*spans.before)], paras[slice(*spans.after)]
        context = render_context(before, shown, after, language)
        first = spans.before[0] if before else spans.segments[0][0]
        last = spans.after[1] - 1 if after else spans.segments[-1][1] - 1
        return _Rendered(context, spans.segments, shuffled, first, last)

    def _first_end(self, item: _Start) -> int:
        return self._end_for(item, item.start, self.length.target * 0.97)

    @staticmethod
    def _end_for(item: _Start, end: int, wanted: float) -> int:
        """The end adding about `wanted` tokens to a window ending at `end` (markers,
        separators and gaps take the rest of the target)."""
        prefix = item.prepared.prefix
        goal = prefix[end] + wanted
        end += 1
        while end < len(prefix) - 1 and prefix[end] < goal:
            end += 1
        return end

    def _fit(self, item: _Start) -> tuple[int, int] | None:
        """(end, tokens) of the first end inside the length, else None (dropped)."""
        end, limit = self._first_end(item), len(item.prepared.paragraphs) - self._margin()
        example = f"{self.length.name}: {item.name}"
        tried: set[int] = set()
        jumped = False
        while end not in tried and len(tried) < _MAX_FITS:
            tried.add(end)
            if end - item.start < self.task.segments * (1 + self.task.gap_paragraphs):
                self.ctx.drops.drop(FEW_PARAGRAPHS, example=example)
                return None
            if end > limit:
                self.ctx.drops.drop(BOOK_ENDS, example=example)
                return None
            rendered = self._render(item, end)
            if rendered is None:
                self.ctx.drops.drop(DAMAGED_BOUNDARY, example=example)
                return None
            tokens = self.ctx.count_tokens([rendered.context])[0]
            if self.length.lower <= tokens <= self.length.upper:
                return end, tokens
            if not jumped and tokens < self.length.lower:
                # the gaps left text out: add about what is missing at once
                jumped = True
                end = self._end_for(item, end, self.length.target - tokens)
                continue
            end += 1 if tokens < self.length.lower else -1
        self.ctx.drops.drop(OUTSIDE_LENGTH, example=example)
        return None

    def build(self, item: _Start) -> TaskInstance | None:
        fitted = self._fit(item)
        if fitted is None:
            return None
        end, tokens = fitted
        rendered = self._render(item, end)
        assert rendered is not None  # _fit rendered this end
        return self._instance(item, end, rendered, tokens)

    def _instance(self, item: _Start, end: int, rendered: _Rendered, tokens: int) -> TaskInstance:
        hints, shuffled = self.task.hint_paragraphs, rendered.shuffled
        book, paras = item.prepared.book, item.prepared.paragraphs
        gap = self.task.gap_paragraphs
        first, last = paras[rendered.first].chapter, paras[rendered.last].chapter
        return TaskInstance(
            id=f"{self.task.name}:{self.length.name}:{book.id}:{item.start}",
            task=self.task.name,
            family="ordering",
            length=self.length.name,
            language=book.language,
            book_id=book.id,
            context=rendered.context,
            question="",
            answers=shuffled.answer,
            tokens=tokens,
            tokenizer=self.ctx.tokenizer,
            target=self.length.target,
            lower=self.length.lower,
            upper=self.length.upper,
            source_ids=[c.sha256 for c in book.chapters[first : last + 1]],
            details={
                "segments": self.task.segments,
                "shown_order": shuffled.shown_order,
                "labels": shuffled.labels,
                "start_paragraph": item.start,
                "end_paragraph": end,
                "segment_starts": [a for a, _ in rendered.spans],
                "segment_paragraphs": [b - a for a, b in rendered.spans],
                "gap_paragraphs": gap,
                "clean_boundaries": self.task.clean_boundaries,
                "first_chapter": first,
                "last_chapter": last,
                "hint_paragraphs": hints,
                "clues_removed": item.prepared.clues_removed,
            },
        )


@register_family("ordering")
def build_ordering(ctx: TaskBuildContext, length: TaskLength) -> list[TaskInstance]:
    task = ctx.task
    if not isinstance(task, OrderingTask):
        raise TypeError(f"task {task.name!r} is not an ordering task")
    builder = _Builder(ctx, task, length)
    candidates: list[_Start] = []
    for book_id in sorted(ctx.books):
        book = ctx.books[book_id]
        form = book_form(book)
        reason = form.exclusion()
        if reason is not None:
            ctx.drops.drop(reason, example=f"{length.name}: {book.id} ({form.describe()})")
            continue
        starts = builder.starts(prepare(ctx, book))
        if not starts:
            ctx.drops.drop(TOO_SHORT, example=f"{length.name}: {book.id}")
        candidates.extend(starts)
    return draw(
        candidates,
        task_rng(ctx.seed, task.name, length),
        length.count,
        builder.build,
        ctx.drops,
        lambda item: f"{length.name}: {item.name}",
        lambda item: item.prepared.book.id,
    )
