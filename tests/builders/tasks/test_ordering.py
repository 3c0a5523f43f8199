"""Ordering (Ada-LEval TSort) built from real held-out books (see conftest.py)."""

from __future__ import annotations

import itertools
import re
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lengthwise.builders.tasks.base import family_builder
from lengthwise.builders.tasks.book_form import EPISTOLARY, POETRY, book_form
from lengthwise.builders.tasks.order_clues import learn_order_clues
from lengthwise.builders.tasks.order_free import Paragraph, order_free_paragraphs
from lengthwise.builders.tasks.ordering import hint_markers, segment_marker
from lengthwise.records import Book, Chapter
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import OrderingTask, TaskLength
from lengthwise.text import paragraphs, sentences
from lengthwise.tokenizers import get_tokenizer
from tests.builders.tasks.conftest import LENGTHS, MakeContext

pytestmark = pytest.mark.slow
TASK = OrderingTask(name="ordering", family="ordering", stride_paragraphs=15)
ZH_CHAPTER_NUMBER = re.compile(r"第[零〇一二三四五六七八九十百千两0-9]+[回章]")
EN_CHAPTER_NUMBER = re.compile(r"\b(chapter|adventure)\s+([ivxlc]+|\d+)\b", re.IGNORECASE)


SOURCE_PARAGRAPHS: dict[str, list[Paragraph]] = {}


def build(make_context: MakeContext, books: dict[str, Book], length: TaskLength, seed: int = 0):
    ctx = make_context(TASK, books, seed=seed)
    return family_builder("ordering")(ctx, length), ctx


def segments_of(instance: TaskInstance) -> dict[str, str]:
    """label -> segment text, parsed back from the documented layout."""
    language = instance.language
    labels = list(instance.details["labels"])  # type: ignore[arg-type]
    markers = [segment_marker(label, language) for label in labels]
    tail = hint_markers(language)[1]
    pattern = "|".join(re.escape(m) for m in [*markers, tail])
    pieces = re.split(f"^({pattern})\n", instance.context, flags=re.MULTILINE)
    found: dict[str, str] = {}
    for marker, text in zip(pieces[1::2], pieces[2::2], strict=True):
        if marker in markers:
            found[labels[markers.index(marker)]] = text.strip("\n")
    return found


def squash(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


@pytest.mark.parametrize("length", LENGTHS, ids=lambda x: x.name)
def test_every_instance_lies_inside_its_length_by_a_recount(
    held_out_books: dict[str, Book], make_context: MakeContext, length: TaskLength
) -> None:
    instances, ctx = build(make_context, held_out_books, length)
    assert 0 < len(instances) <= length.count
    recount = get_tokenizer("chars")
    for instance in instances:
        tokens = recount.count(instance.context)
        assert tokens == instance.tokens
        assert length.lower <= tokens <= length.upper, instance.id
        assert sorted(instance.answers) == sorted(instance.details["labels"])  # type: ignore[arg-type]
    assert ctx.drops.dropped["not drawn: the length's count was reached"] > 0


def test_same_seed_same_instances_other_seed_other_ones(
    held_out_books: dict[str, Book], make_context: MakeContext
) -> None:
    first, _ = build(make_context, held_out_books, LENGTHS[0], seed=3)
    again, _ = build(make_context, held_out_books, LENGTHS[0], seed=3)
    other, _ = build(make_context, held_out_books, LENGTHS[0], seed=4)
    assert [i.to_row() for i in first] == [i.to_row() for i in again]
    assert [i.id for i in first] != [i.id for i in other]


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10_000), length=st.sampled_from(LENGTHS))
def test_no_instance_holds_a_heading_or_chapter_number_of_its_book(
    held_out_books: dict[str, Book], make_context: MakeContext, seed: int, length: TaskLength
) -> None:
    instances, _ = build(make_context, held_out_books, length, seed=seed)
    assert instances
    for instance in instances:
        assert_no_heading_or_number(instance, held_out_books[instance.book_id])


def assert_no_heading_or_number(instance: TaskInstance, book: Book) -> None:
    context = squash(instance.context)
    lines = {squash(line) for line in instance.context.split("\n")}
    for chapter in book.chapters:
        for line in chapter.heading.split("\n"):
            piece = squash(line)
            assert len(piece) < 2 or piece not in context, (instance.id, line)
        if chapter.title.strip():
            assert squash(chapter.title) not in lines, (instance.id, chapter.title)
        printed_number = squash(chapter.heading.split("\n")[0].replace(chapter.title, ""))
        assert printed_number.strip(".:") not in {x.strip(".:") for x in lines}, (
            instance.id,
            printed_number,
        )
    number = ZH_CHAPTER_NUMBER if instance.language == "zh" else EN_CHAPTER_NUMBER
    assert number.search(instance.context) is None, (instance.id, number.search(instance.context))


@pytest.mark.parametrize("book_id", ["shuihu_utf8", "sherlock"])
def test_headings_repeated_inside_chapters_are_removed(
    held_out_books: dict[str, Book], make_context: MakeContext, book_id: str
) -> None:
    """Like 红楼梦's 第三十八回, every chapter repeats its heading in its body, as a line
    and inside a sentence, and names its number on a line of its own."""
    real = held_out_books[book_id]

    def planted(chapter: Chapter) -> str:
        heading = " ".join(chapter.heading.split())
        number = heading.replace(" ".join(chapter.title.split()), "").strip()
        body = paragraphs(chapter.text)
        middle = len(body) // 2
        inside = f"此回乃{heading}之文。" if real.language == "zh" else f"Here ends {heading} part."
        body[middle:middle] = [heading, inside, number]
        return "\n\n".join(body)

    chapters = [
        Chapter(real.id, c.index, c.heading, c.number, c.title, planted(c), c.part)
        for c in real.chapters
    ]
    book = Book(real.id, real.title, real.language, real.source, "", "utf-8", chapters)
    instances, _ = build(make_context, {book.id: book}, LENGTHS[0])
    assert instances
    for instance in instances:
        assert_no_heading_or_number(instance, book)


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10_000), length=st.sampled_from(LENGTHS))
def test_segments_in_answer_order_are_the_source_paragraphs_apart_by_gaps(
    held_out_books: dict[str, Book], make_context: MakeContext, seed: int, length: TaskLength
) -> None:
    instances, _ = build(make_context, held_out_books, length, seed=seed)
    for instance in instances:
        book = held_out_books[instance.book_id]
        found = segments_of(instance)
        assert sorted(found) == sorted(instance.answers)
        joined = "\n\n".join(found[label] for label in instance.answers)
        if book.id not in SOURCE_PARAGRAPHS:
            SOURCE_PARAGRAPHS[book.id] = order_free_paragraphs(book)[0]
        source = SOURCE_PARAGRAPHS[book.id]
        starts = instance.details["segment_starts"]
        sizes = instance.details["segment_paragraphs"]
        gap = instance.details["gap_paragraphs"]
        assert gap == TASK.gap_paragraphs > 0
        spans = list(zip(starts, sizes, strict=True))  # type: ignore[call-overload]
        for (start, size), label in zip(spans, instance.answers, strict=True):
            assert found[label] == "\n\n".join(p.text for p in source[start : start + size])
        # never adjacent in the book: at least `gap` paragraphs left out at each boundary
        for (start, size), (following, _) in itertools.pairwise(spans):
            assert following - (start + size) >= gap
        # ... and every sentence shown is the book's own, from the chapters it names.
        first, last = instance.details["first_chapter"], instance.details["last_chapter"]
        chapters = squash("".join(c.text for c in book.chapters[first : last + 1]))  # type: ignore[misc]
        for paragraph in paragraphs(joined):
            for sentence in sentences(paragraph, instance.language):
                assert squash(sentence) in chapters, (instance.id, sentence)


def test_formulae_learned_on_held_out_books_leave_no_trace(
    held_out_books: dict[str, Book], make_context: MakeContext
) -> None:
    xiyouji = held_out_books["xiyouji_utf8"]
    clues = learn_order_clues(xiyouji)
    assert "话说" in clues.openers and "下回分解" in clues.closers
    tom = learn_order_clues(held_out_books["tom_sawyer"])
    assert not tom.openers and not tom.closers  # English novels have no such habit
    instances, _ = build(make_context, {"xiyouji_utf8": xiyouji}, LENGTHS[1], seed=1)
    assert instances
    for instance in instances:
        assert "下回分解" not in instance.context
        for text in segments_of(instance).values():
            assert not text.startswith(("话说", "却说"))


def _rebuilt(book: Book, make_text) -> Book:  # type: ignore[no-untyped-def]
    chapters = [
        Chapter(book.id, c.index, c.heading, c.number, c.title, make_text(c.text))
        for c in book.chapters
    ]
    return Book(book.id, book.title, book.language, book.source, "", "utf-8", chapters)


def _as_verse(text: str, language: str) -> str:
    """Real sentences laid out as stanzas of four short lines."""
    lines: list[str] = []
    for sentence in sentences(text, language):
        if language == "zh":
            lines += [c for c in re.split(r"(?<=[，。！？；：])", sentence) if c.strip()]
        else:
            words = sentence.split()
            lines += [" ".join(words[i : i + 6]) for i in range(0, len(words), 6)]
    return "\n\n".join("\n".join(lines[i : i + 4]) for i in range(0, len(lines), 4))


def _as_letter(text: str, language: str) -> str:
    if language == "zh":
        return f"三月初五日\n\n贤弟：\n\n{text}\n\n兄 字"
    return f"Netherfield, 12 May.\n\nMy dearest Jane,\n\n{text}\n\nYours ever,\n\nE."


@pytest.mark.parametrize("book_id", ["xiyouji_utf8", "tom_sawyer"])
def test_poetry_and_letters_made_from_real_text_are_excluded_with_their_reason(
    held_out_books: dict[str, Book], make_context: MakeContext, book_id: str
) -> None:
    real = held_out_books[book_id]
    language = real.language
    assert book_form(real).exclusion() is None
    for make_text, reason in [(_as_verse, POETRY), (_as_letter, EPISTOLARY)]:
        book = _rebuilt(real, lambda text: make_text(text, language))  # noqa: B023
        instances, ctx = build(make_context, {book.id: book}, LENGTHS[0])
        assert instances == []
        assert ctx.drops.dropped[reason] == 1, dict(ctx.drops.dropped)


def test_no_shared_book_here_looks_like_poetry_or_letters(held_out_books: dict[str, Book]) -> None:
    for book in held_out_books.values():
        assert book_form(book).exclusion() is None, (book.id, book_form(book).describe())
