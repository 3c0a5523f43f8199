"""The card's task section states the shortcut checks and marks model-written parts."""

from __future__ import annotations

from lengthwise.builders.tasks.report_record import TaskLengthReport
from lengthwise.builders.tasks.shortcut_record import ShortcutScore
from lengthwise.releases.release.task_card import task_card_section
from lengthwise.releases.release.task_configs import TaskConfig


def _built(shortcuts: list[ShortcutScore]) -> TaskLengthReport:
    return TaskLengthReport(
        name="4k", target=4096, lower=3400, upper=4400, requested=20, built=20, instances=0,
        fill_instances=0, mean_tokens=None, min_tokens=None, max_tokens=None, books=0,
        not_built=None, shortcuts=shortcuts,
    )  # fmt: skip


def test_each_baseline_is_stated_beside_random_and_model_written_parts_are_marked() -> None:
    hints = ShortcutScore("hints", "first and last by the hints", 7.5, 4.17, 40, 3)
    ordering = TaskConfig("ordering-4k", "ordering", "ordering", "4k", [], _built([hints]))
    synopses = TaskConfig("syn-4k", "syn", "synopsis-ordering", "4k", [], _built([]))
    card = task_card_section([], [ordering, synopses])
    assert "| 4k | hints | 7.5 | 4.2 | 3 of 40 |" in card
    ordering_part, synopsis_part = card.split("### syn (synopsis-ordering)")
    assert "Model-written" not in ordering_part
    assert "Model-written: the shown synopses" in synopsis_part
