"""Synopsis ordering (ETHIC) built from real held-out books (see conftest.py)."""

from __future__ import annotations

import pytest

from lengthwise.builders.joining import sample_text
from lengthwise.builders.tasks.base import family_builder
from lengthwise.builders.tasks.synopses import NO_SYNOPSIS
from lengthwise.llm.scripted import ScriptedClient
from lengthwise.llm.types import ChatRequest, ChatResult
from lengthwise.records import Book
from lengthwise.task_spec import SynopsisOrderingTask, TaskLength
from lengthwise.text import sentences
from lengthwise.tokenizers import get_tokenizer
from tests.builders.tasks.conftest import RUN_LENGTHS, MakeContext

pytestmark = pytest.mark.slow
TASK = SynopsisOrderingTask(name="synorder", family="synopsis-ordering")


def first_sentences(books: dict[str, Book]) -> dict[str, str]:
    """Stand-in synopses made of real text: each chapter's first sentence."""
    return {c.sha256: sentences(c.text, b.language)[0] for b in books.values() for c in b.chapters}


@pytest.mark.parametrize("length", RUN_LENGTHS, ids=lambda x: x.name)
def test_instances_inside_the_length_and_answers_restore_the_chapter_order(
    held_out_books: dict[str, Book], make_context: MakeContext, length: TaskLength
) -> None:
    synopses = first_sentences(held_out_books)
    ctx = make_context(TASK, held_out_books, synopses=synopses)
    instances = family_builder("synopsis-ordering")(ctx, length)
    assert 0 < len(instances) <= length.count
    for instance in instances:
        tokens = get_tokenizer("chars").count(instance.context)
        assert tokens == instance.tokens and length.lower <= tokens <= length.upper
        book = held_out_books[instance.book_id]
        first, last = instance.details["first_chapter"], instance.details["last_chapter"]
        assert instance.context == sample_text(book, first, last)  # type: ignore[arg-type]
        shown = dict(line[1:].split("] ", 1) for line in instance.question.split("\n"))
        restored = [shown[label] for label in instance.answers]
        chapters = book.chapters[first : last + 1]  # type: ignore[misc]
        assert restored == [" ".join(synopses[c.sha256].split()) for c in chapters]
        assert instance.source_ids == [c.sha256 for c in chapters]


def test_same_seed_same_instances_other_seed_other_ones(
    held_out_books: dict[str, Book], make_context: MakeContext
) -> None:
    synopses = first_sentences(held_out_books)

    def rows(seed: int) -> list[dict[str, object]]:
        ctx = make_context(TASK, held_out_books, seed=seed, synopses=synopses)
        return [i.to_row() for i in family_builder("synopsis-ordering")(ctx, RUN_LENGTHS[0])]

    assert rows(5) == rows(5)
    assert rows(5) != rows(6)


def test_missing_synopses_drop_runs_without_a_model_and_are_written_with_one(
    held_out_books: dict[str, Book], make_context: MakeContext
) -> None:
    ctx = make_context(TASK, held_out_books)
    assert family_builder("synopsis-ordering")(ctx, RUN_LENGTHS[0]) == []
    assert ctx.drops.dropped[NO_SYNOPSIS] > 0

    def summarise(request: ChatRequest) -> ChatResult:
        chapter = request.messages[-1].content.split("\n\n", 1)[1]
        return ChatResult(text=f"summary: {chapter[:40]}", outcome="ok", model="scripted")

    client = ScriptedClient(summarise)
    ctx = make_context(TASK, held_out_books, llm=client)
    instances = family_builder("synopsis-ordering")(ctx, RUN_LENGTHS[0])
    assert instances and client.calls
    written = sum(int(i.details["chunks"]) for i in instances)  # type: ignore[call-overload]
    assert len(client.calls) == written  # only the drawn runs' chapters were asked for
    assert all(
        line.startswith("[") and "summary: " in line
        for i in instances
        for line in i.question.split("\n")
    )
