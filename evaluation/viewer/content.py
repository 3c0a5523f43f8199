"""What the HTML viewer shows, gathered from run folders (no HTML here).

Score rows come from each run's results.json as they are (the viewer's numbers must be
results.json's); plots are the report's PNGs and every PNG under RUN_DIR/analyses/;
analysis notes come from the JSON tables there. Each answered pair becomes a sample
entry: output, reference, score, and a position map of its context (the share of output
and reference sentences traced by TF-IDF to each decile, the span a truncation removed,
the answer depth of a needle).
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from lengthwise.evaluation.analyses.positions import DECILES, shares
from lengthwise.evaluation.analyses.run_data import SUMMARIZATION, AnalysedRun, RunItem
from lengthwise.evaluation.analyses.traceability import trace_positions
from lengthwise.storage import read_json

ANALYSES_FOLDER: Final = "analyses"
MAX_TEXT: Final = 4000  # characters of output/reference kept per sample (the page stays light)


@dataclass
class Figure:
    title: str
    data_uri: str
    model: str | None = None  # None: a figure over every run


@dataclass
class AnalysisNotes:
    run: str
    model: str
    name: str
    notes: list[str]


@dataclass
class ViewerContent:
    runs: list[AnalysedRun]
    score_rows: list[dict[str, Any]] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    analyses: list[AnalysisNotes] = field(default_factory=list)
    samples: list[dict[str, Any]] = field(default_factory=list)


def png_data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def score_rows(run: AnalysedRun) -> list[dict[str, Any]]:
    """One row per (task, subset, prompt) of results.json, numbers untouched."""
    rows = []
    for subset in run.results.get("subset_order") or list(run.results["results"]):
        for prompt, entry in run.results["results"].get(subset, {}).items():
            ci = entry.get("ci") or [None, None]
            rows.append(
                {
                    "run": run.label,
                    "model": run.model,
                    "task": str(entry.get("task") or SUMMARIZATION),
                    "subset": subset,
                    "prompt": prompt,
                    "mean": entry.get("mean"),
                    "ci_low": ci[0],
                    "ci_high": ci[1],
                    "n": entry.get("n", 0),
                    "planned": entry.get("planned", 0),
                }
            )
    return rows


def _position_map(
    item: RunItem, reference_cache: dict[tuple[str, str], list[float]]
) -> dict[str, Any]:
    found: dict[str, Any] = {"output": None, "reference": None, "cut": None, "depth": item.depth}
    if item.context and item.task == SUMMARIZATION:
        output = trace_positions(item.prediction, item.context, item.language, "tfidf")
        found["output"] = shares(output, DECILES) if output else None
        key = (item.subset, item.sample_id)
        if key not in reference_cache and item.reference:
            reference_cache[key] = trace_positions(
                item.reference, item.context, item.language, "tfidf"
            )
        reference = reference_cache.get(key)
        found["reference"] = shares(reference, DECILES) if reference else None
    found["cut"] = _cut_span(item.truncation)
    return found


def _cut_span(truncation: dict[str, Any] | None) -> list[float] | None:
    where = (truncation or {}).get("where") or {}
    total = where.get("context_chars")
    if not total or "from_char" not in where:
        return None
    return [where["from_char"] / total, where["to_char"] / total]


def sample_entries(run: AnalysedRun) -> list[dict[str, Any]]:
    cache: dict[tuple[str, str], list[float]] = {}
    entries = []
    for item in sorted(run.items, key=lambda i: (i.subset, i.sample_id, i.prompt_id)):
        position = _position_map(item, cache)
        entries.append(
            {
                "run": run.label,
                "model": run.model,
                "task": item.task,
                "subset": item.subset,
                "prompt": item.prompt_id,
                "sample": item.sample_id,
                "language": item.language,
                "outcome": item.outcome,
                "score": None if item.score is None else 100.0 * item.score,
                "output": item.prediction[:MAX_TEXT],
                "reference": (item.reference or "")[:MAX_TEXT],
                "context_chars": len(item.context or ""),
                "position": position,
            }
        )
    return entries


def analysis_notes(run: AnalysedRun) -> tuple[list[AnalysisNotes], list[Figure]]:
    folder = run.folder / ANALYSES_FOLDER
    notes: list[AnalysisNotes] = []
    figures: list[Figure] = []
    if not folder.is_dir():
        return notes, figures
    for table in sorted(folder.glob("*.json")):
        document = read_json(table)
        if isinstance(document, dict) and "analysis" in document:
            notes.append(
                AnalysisNotes(
                    run.label, run.model, str(document["analysis"]), list(document.get("notes", []))
                )
            )
    for plot in sorted(folder.glob("*.png")):
        figures.append(Figure(f"{run.label}: {plot.stem}", png_data_uri(plot), run.model))
    return notes, figures


def gather(runs: Sequence[AnalysedRun], report_plots: Sequence[Path]) -> ViewerContent:
    content = ViewerContent(list(runs))
    content.figures += [Figure(p.stem.replace("_", " "), png_data_uri(p)) for p in report_plots]
    for run in runs:
        content.score_rows += score_rows(run)
        notes, figures = analysis_notes(run)
        content.analyses += notes
        content.figures += figures
        content.samples += sample_entries(run)
    return content
