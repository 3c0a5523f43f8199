"""The seeded draw of the chapter-run families: balanced by book, never in shown order."""

from __future__ import annotations

import random
from collections import Counter

from lengthwise.builders.tasks.chapter_runs import OVER_BOOK_CAP, draw
from lengthwise.builders.tasks.shuffling import shuffle_items
from lengthwise.reports import StageReport
from lengthwise.task_records import TaskInstance


def _instance(name: str) -> TaskInstance:
    book = name.split("@")[0]
    return TaskInstance(
        id=name, task="t", family="ordering", length="S", language="en", book_id=book,
        context="x", question="", answers=["A", "B", "C"], tokens=1, tokenizer="chars",
        target=1, lower=1, upper=1,
    )  # fmt: skip


def test_one_book_with_most_candidates_does_not_dominate_the_draw() -> None:
    # 40 candidates from one book, 3 each from three others: a plain seeded draw took
    # about 17 of 20 from the big book (War and Peace in synopsis ordering 4k).
    candidates = [f"big@{i}" for i in range(40)] + [f"b{k}@{i}" for k in range(3) for i in range(3)]
    drops = StageReport("draw")
    kept = draw(candidates, random.Random(1), 20, _instance, drops, str, lambda c: c.split("@")[0])
    per_book = Counter(i.book_id for i in kept)
    assert per_book["big"] == 8  # the cap: 40 % of 20, the length left short instead
    assert all(per_book[f"b{k}"] == 3 for k in range(3))  # every small book used up
    assert len(kept) == 17
    assert drops.dropped[f"{OVER_BOOK_CAP} (8 per book)"] == 32


def test_two_books_share_the_draw_evenly() -> None:
    candidates = [f"a@{i}" for i in range(30)] + [f"b@{i}" for i in range(30)]
    kept = draw(candidates, random.Random(2), 10, _instance, StageReport("draw"), str,
                lambda c: c.split("@")[0])  # fmt: skip
    assert Counter(i.book_id for i in kept) == {"a": 5, "b": 5}


def test_parts_are_never_shown_in_reading_order() -> None:
    # The prompt's example is the labels as shown: shown in reading order, copying the
    # example would be the right answer.
    for count in (3, 4, 5):
        for seed in range(400):
            shuffled = shuffle_items(count, random.Random(seed))
            assert shuffled.shown_order != list(range(count))
            assert shuffled.answer != shuffled.labels
