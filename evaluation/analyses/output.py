"""What an analysis returns and writes: a JSON table, PNG plots and lines for people."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lengthwise.evaluation.json_types import JsonObject
from lengthwise.storage import atomic_write_json


@dataclass
class AnalysisOutput:
    name: str
    table: dict[str, Any]  # JsonObject once every analysis writes typed records
    plots: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # printed, and kept in the table
    table_path: Path | None = None


def write_output(output: AnalysisOutput, out: Path) -> AnalysisOutput:
    """`out/NAME.json` holding the table, the notes and the plot file names."""
    out.mkdir(parents=True, exist_ok=True)
    document: JsonObject = {
        "analysis": output.name,
        "notes": output.notes,
        "plots": [p.name for p in output.plots],
    } | output.table
    output.table_path = out / f"{output.name}.json"
    atomic_write_json(output.table_path, document)
    return output
