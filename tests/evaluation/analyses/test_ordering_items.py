"""Ordering instances read back from their released context for the perplexity analysis."""

from __future__ import annotations

import pytest

from lengthwise.builders.tasks.ordering import render_context
from lengthwise.evaluation.analyses.ordering_items import ordering_fields, shown_segments


@pytest.mark.parametrize("language", ["en", "zh"])
def test_segments_and_orders_come_back_from_the_builders_layout(language: str) -> None:
    reading = ["First part.\n\nIts second paragraph.", "Second part.", "Third.", "Fourth."]
    shown = [("A", reading[2]), ("B", reading[0]), ("C", reading[3]), ("D", reading[1])]
    context = render_context(["Before."], shown, ["After."], language)
    assert shown_segments(context) == shown  # the hints are not segments
    fields = ordering_fields(context, ["B", "D", "A", "C"], ["A", "B", "C", "D"])
    segments = fields["segments"]
    assert isinstance(segments, list)
    assert [segments[i] for i in fields["gold_order"]] == reading  # type: ignore[attr-defined]
    assert fields["predicted_order"] == [0, 1, 2, 3]


def test_a_context_without_the_layout_gives_nothing() -> None:
    assert ordering_fields("a summary sample's text", ["A", "B"], None) == {}
    context = render_context([], [("A", "x"), ("B", "y")], [], "en")
    assert ordering_fields(context, ["A", "C"], None) == {}  # answers name other labels
    assert "predicted_order" not in ordering_fields(context, ["B", "A"], ["A"])
