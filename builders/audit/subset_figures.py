"""Subset figures after the audit dropped samples: count, books, lengths and Q1 recomputed.

The selection summary describes what selection picked; once the audit removes samples
the report must describe what is left, or a subset short of its count would look full.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING

from lengthwise.builders.sampling.stats import quantile
from lengthwise.records import Sample

if TYPE_CHECKING:
    from lengthwise.builders.build_record import SubsetReport


def apply_audit_drops(
    subsets_report: Mapping[str, SubsetReport], kept_rows: Mapping[str, list[Sample]]
) -> None:
    """Rewrite each subset's selection figures in place for the samples still kept."""
    for name, rows in kept_rows.items():
        selection = subsets_report[name].selection
        dropped = selection["count"] - len(rows)
        subsets_report[name].audit_dropped = dropped
        if dropped == 0:
            continue
        lengths = sorted(r.tokens for r in rows)
        per_book = Counter(r.book_id for r in rows)
        largest = min(per_book.items(), key=lambda item: (-item[1], item[0]), default=None)
        q1 = quantile(lengths, 0.25) if lengths else None
        selection["count"] = len(rows)
        selection["books"] = len(per_book)
        selection["largest_book"] = largest[0] if largest else None
        selection["largest_book_share"] = round(largest[1] / len(rows), 4) if largest else 0.0
        selection["tokens"] = {
            "min": lengths[0] if lengths else None,
            "q1": q1,
            "mean": round(statistics.fmean(lengths), 1) if lengths else None,
            "median": quantile(lengths, 0.5) if lengths else None,
            "max": lengths[-1] if lengths else None,
        }
        selection["q1_met"] = None if q1 is None else q1 >= selection["q1_threshold"]
