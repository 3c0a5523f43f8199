"""Segments and orders of an ordering instance, read back from its released context.

The perplexity analysis needs the segments as shown and their true order. An ordering
instance's context is laid out by the builder (lengthwise.builders.tasks.ordering) with
one marker line per shown segment (`[Segment C]`, zh `【片段C】`) and, around them, the
hint blocks (`[Before the segments]` / `[After the segments]`, zh `【片段之前】` /
`【片段之后】`); `answers` lists the labels in reading order. Evaluation reads releases
only, so the layout is parsed here from the released text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

_SEGMENT = re.compile(r"^(?:\[Segment ([A-Z]+)\]|【片段([A-Z]+)】)$")
_AFTER = re.compile(r"^(?:\[After the segments\]|【片段之后】)$")


def shown_segments(context: str) -> list[tuple[str, str]]:
    """(label, text) of every segment in the order shown; [] when none is marked."""
    found: list[tuple[str, list[str]]] = []
    for line in context.split("\n"):
        marker = _SEGMENT.match(line.strip())
        if marker:
            found.append((marker.group(1) or marker.group(2), []))
        elif _AFTER.match(line.strip()):
            break
        elif found:
            found[-1][1].append(line)
    return [(label, "\n".join(lines).strip()) for label, lines in found]


def ordering_fields(
    context: str, answers: Sequence[str], parsed: Sequence[str] | None
) -> dict[str, object]:
    """`segments`, `gold_order` (indices into the shown segments, in reading order) and,
    when the answer was read, `predicted_order`; {} when the context is not an ordering
    layout or the answers do not name its labels."""
    shown = shown_segments(context)
    labels = [label for label, _ in shown]
    if len(shown) < 2 or sorted(answers) != sorted(labels):
        return {}
    fields: dict[str, object] = {
        "segments": [text for _, text in shown],
        "gold_order": [labels.index(label) for label in answers],
    }
    if parsed is not None and sorted(parsed) == sorted(labels):
        fields["predicted_order"] = [labels.index(label) for label in parsed]
    return fields


@dataclass(frozen=True)
class OrderingFields:
    """An ordering item's shown segments, true order and (when read) predicted order."""

    segments: list[str]
    gold_order: tuple[int, ...]
    predicted_order: tuple[int, ...] | None

    @classmethod
    def from_extra(cls, fields: Mapping[str, object]) -> OrderingFields | None:
        """The fields of a generations line (or `ordering_fields`); None when they do not
        hold at least two segments and a true order that is a permutation of them."""
        segments, gold = fields.get("segments"), fields.get("gold_order")
        if not isinstance(segments, list) or not isinstance(gold, list) or len(segments) < 2:
            return None
        if sorted(gold) != list(range(len(segments))):
            return None
        predicted = fields.get("predicted_order")
        return cls(
            [str(s) for s in segments],
            tuple(int(g) for g in gold),
            tuple(int(v) for v in predicted) if isinstance(predicted, list) else None,
        )
