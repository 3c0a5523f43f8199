"""Per-section summarizing (ETHIC) built from real held-out books (see conftest.py)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lengthwise.builders.joining import render_chapter
from lengthwise.builders.tasks.base import family_builder
from lengthwise.builders.tasks.sections import FEW_CHAPTERS, balanced_cuts, section_marker
from lengthwise.builders.tasks.synopses import NO_SYNOPSIS
from lengthwise.records import Book
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import SectionsTask, TaskLength
from lengthwise.tokenizers import get_tokenizer
from tests.builders.tasks.conftest import RUN_LENGTHS, MakeContext

TASK = SectionsTask(name="sections", family="sections", sections=3)


def synopses_of(books: dict[str, Book]) -> dict[str, str]:
    return {c.sha256: f"synopsis {b.id} #{c.index}" for b in books.values() for c in b.chapters}


def sections_of(instance: TaskInstance, parts: int) -> list[str]:
    markers = [section_marker(k + 1, instance.language) for k in range(parts)]
    pieces = re.split(
        "^(?:" + "|".join(map(re.escape, markers)) + ")\n", instance.context, flags=re.M
    )
    assert pieces[0] == ""
    return [p.strip("\n") for p in pieces[1:]]


@given(st.lists(st.integers(0, 50), min_size=1, max_size=40), st.integers(1, 8))
def test_balanced_cuts_make_non_empty_contiguous_groups(tokens: list[int], parts: int) -> None:
    if len(tokens) < parts:
        with pytest.raises(ValueError):
            balanced_cuts(tokens, parts)
        return
    cuts = balanced_cuts(tokens, parts)
    assert len(cuts) == parts and cuts[0] == 0
    assert all(a < b for a, b in zip(cuts, [*cuts[1:], len(tokens)], strict=True))


@pytest.mark.slow
@pytest.mark.parametrize("length", RUN_LENGTHS, ids=lambda x: x.name)
def test_references_line_up_with_the_sections(
    held_out_books: dict[str, Book], make_context: MakeContext, length: TaskLength
) -> None:
    synopses = synopses_of(held_out_books)
    ctx = make_context(TASK, held_out_books, synopses=synopses)
    instances = family_builder("sections")(ctx, length)
    assert 0 < len(instances) <= length.count
    for instance in instances:
        tokens = get_tokenizer("chars").count(instance.context)
        assert tokens == instance.tokens and length.lower <= tokens <= length.upper
        book = held_out_books[instance.book_id]
        texts = sections_of(instance, TASK.sections)
        firsts = instance.details["section_first_chapter"]
        lasts = instance.details["section_last_chapter"]
        assert len(texts) == len(instance.answers) == TASK.sections
        assert instance.details["boundaries"] == "chapters"
        held_by: list[set[int]] = []
        for text, first, last, reference in zip(
            texts, firsts, lasts, instance.answers, strict=True
        ):  # type: ignore[call-overload]
            held = book.chapters[first : last + 1]
            # a section is whole chapters and its reference their synopses, no other's
            assert text == "\n\n".join(render_chapter(c) for c in held)
            assert reference == "\n".join(synopses[c.sha256] for c in held)
            held_by.append({c.index for c in held})
        assert len(set(instance.answers)) == TASK.sections  # no two sections share one
        assert all(not (a & b) for i, a in enumerate(held_by) for b in held_by[i + 1 :])


@pytest.mark.slow
def test_runs_with_fewer_chapters_than_sections_are_not_built_and_counted(
    held_out_books: dict[str, Book], make_context: MakeContext
) -> None:
    # Chapter synopses cannot be split: a section cutting a chapter would share its
    # reference with the next one (the old paragraph fallback gave four sections the
    # same synopsis).
    task = SectionsTask(name="sections", family="sections", sections=6)
    ctx = make_context(task, held_out_books, synopses=synopses_of(held_out_books))
    instances = family_builder("sections")(ctx, RUN_LENGTHS[0])
    assert ctx.drops.dropped[FEW_CHAPTERS] > 0
    for instance in instances:
        assert len(set(instance.answers)) == 6


@pytest.mark.slow
def test_deterministic_for_a_seed_and_dropped_without_synopses(
    held_out_books: dict[str, Book], make_context: MakeContext
) -> None:
    synopses = synopses_of(held_out_books)

    def rows(seed: int) -> list[dict[str, object]]:
        ctx = make_context(TASK, held_out_books, seed=seed, synopses=synopses)
        return [i.to_row() for i in family_builder("sections")(ctx, RUN_LENGTHS[0])]

    assert rows(1) == rows(1) and rows(1) != rows(2)
    ctx = make_context(TASK, held_out_books)
    assert family_builder("sections")(ctx, RUN_LENGTHS[0]) == []
    assert ctx.drops.dropped[NO_SYNOPSIS] > 0
