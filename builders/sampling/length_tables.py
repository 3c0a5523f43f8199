"""Length tables like CNNSum's Table 2: min / Q1 / mean / max per subset and tokenizer."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lengthwise.builders.sampling.stats import quantile
from lengthwise.json_records import JsonRecord


@dataclass(frozen=True)
class LengthRow(JsonRecord):
    """Lengths of one subset's samples under one tokenizer (None fields when n == 0)."""

    subset: str
    tokenizer: str
    n: int
    min: int | None
    q1: float | None
    mean: float | None
    max: int | None


def length_table(samples_tokens: Mapping[str, Mapping[str, Sequence[int]]]) -> list[LengthRow]:
    """One row per (subset, tokenizer), in the mappings' order.

    ``samples_tokens[subset][tokenizer]`` holds the token length of every sample of that
    subset under that tokenizer (``"chars"`` for character counts works the same way).
    Q1 is the linear/inclusive quantile (``stats.quantile``).
    """
    rows: list[LengthRow] = []
    for subset, per_tokenizer in samples_tokens.items():
        for tokenizer, lengths in per_tokenizer.items():
            ordered = sorted(lengths)
            if not ordered:
                rows.append(LengthRow(subset, tokenizer, 0, None, None, None, None))
                continue
            rows.append(
                LengthRow(
                    subset=subset,
                    tokenizer=tokenizer,
                    n=len(ordered),
                    min=ordered[0],
                    q1=quantile(ordered, 0.25),
                    mean=statistics.fmean(ordered),
                    max=ordered[-1],
                )
            )
    return rows


def _number(value: float | None) -> str:
    # Half-up rounding (round() would round 0.5 to even).
    return "–" if value is None else f"{math.floor(value + 0.5):,}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def length_table_markdown(rows: Sequence[LengthRow]) -> str:
    """A markdown table: Subset | Tokenizer | N | Min | Q1 | Avg | Max.

    Numbers are rounded to whole tokens with thousands separators; "–" marks an empty subset.
    """
    lines = [
        "| Subset | Tokenizer | N | Min | Q1 | Avg | Max |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        cells = [_cell(row.subset), f"`{_cell(row.tokenizer)}`", str(row.n)]
        cells += [_number(v) for v in (row.min, row.q1, row.mean, row.max)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
