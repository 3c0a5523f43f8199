"""Shortcut checks: the no-model baselines see the cues they are written for."""

from __future__ import annotations

from lengthwise.builders.tasks.ordering import render_context
from lengthwise.builders.tasks.shortcuts import shortcut_scores
from lengthwise.builders.tasks.shortcuts_ordering import (
    boundary_overlap_order,
    hints_order,
    read_ordering_context,
)
from lengthwise.task_records import TaskInstance

# Four segments whose boundaries carry the same names across (a careless cut).
READING = [
    "Captain Ahab walked the quarterdeck. The harpooneers watched Queequeg sharpen irons.",
    "Queequeg sharpened irons beside Tashtego while Starbuck counted barrels of whale oil.",
    "The whale oil barrels rolled below; Starbuck cursed the Pequod and its captain.",
    "The Pequod turned south, and the captain climbed the mainmast looking for Moby Dick.",
]
BEFORE = "Nantucket harbour lay grey when Captain Ahab first appeared on deck."
AFTER = "Moby Dick surfaced at dawn, white against the southern sea."


def _instance(shown: list[int], labels: list[str], answer: list[str]) -> TaskInstance:
    segments = [(labels[k], READING[p]) for k, p in enumerate(shown)]
    return TaskInstance(
        id="o", task="ordering", family="ordering", length="S", language="en", book_id="b",
        context=render_context([BEFORE], segments, [AFTER], "en"), question="",
        answers=answer, tokens=1, tokenizer="chars", target=1, lower=1, upper=1,
        details={"labels": labels, "shown_order": shown},
    )  # fmt: skip


def test_the_baselines_read_the_context_back_and_solve_a_careless_instance() -> None:
    instance = _instance([2, 0, 3, 1], ["A", "B", "C", "D"], ["B", "D", "A", "C"])
    parts = read_ordering_context(instance.context)
    assert [label for label, _ in parts.segments] == ["A", "B", "C", "D"]
    assert parts.before == BEFORE and parts.after == AFTER
    assert boundary_overlap_order(parts) == ["B", "D", "A", "C"]
    assert hints_order(parts)[0] == "B" and hints_order(parts)[-1] == "C"
    scores = {s.name: s for s in shortcut_scores("ordering", [instance])}
    assert scores["boundary-overlap"].score == 100.0 and scores["boundary-overlap"].solved == 1
    assert scores["boundary-overlap"].random == round(100 / 24, 2)


def test_families_without_a_guessable_answer_have_no_baselines() -> None:
    assert shortcut_scores("recall", [_instance([1, 0, 2, 3], list("ABCD"), list("BACD"))]) == []
