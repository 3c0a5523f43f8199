"""Subset figures after the audit dropped samples: count, books, lengths and Q1 recomputed.

The selection summary describes what selection picked; once the audit removes samples
the report must describe what is left, or a subset short of its count would look full.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from lengthwise.builders.sampling.summary import TokenFigures
from lengthwise.records import Sample

if TYPE_CHECKING:
    from lengthwise.builders.build_record import SubsetReport


def apply_audit_drops(
    subsets_report: Mapping[str, SubsetReport], kept_rows: Mapping[str, list[Sample]]
) -> None:
    """Rewrite each subset's selection figures in place for the samples still kept."""
    for name, rows in kept_rows.items():
        entry = subsets_report[name]
        selection = entry.selection
        entry.audit_dropped = dropped = selection.count - len(rows)
        if dropped == 0:
            continue
        per_book = Counter(r.book_id for r in rows)
        largest = min(per_book.items(), key=lambda item: (-item[1], item[0]), default=None)
        tokens = TokenFigures.of([r.tokens for r in rows])
        entry.selection = replace(
            selection,
            count=len(rows),
            books=len(per_book),
            largest_book=largest[0] if largest else None,
            largest_book_share=round(largest[1] / len(rows), 4) if largest else 0.0,
            tokens=tokens,
            q1_met=None if tokens.q1 is None else tokens.q1 >= selection.q1_threshold,
        )
