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
from typing import Final

from lengthwise.evaluation.analyses.positions import DECILES, shares
from lengthwise.evaluation.analyses.run_data import SUMMARIZATION, AnalysedRun, RunItem
from lengthwise.evaluation.analyses.traceability import trace_positions
from lengthwise.evaluation.json_types import JsonObject
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


@dataclass(frozen=True)
class _RunCell:
    """What every viewer row is filtered by: which run, model, task, subset and prompt."""

    run: str
    model: str
    task: str
    subset: str
    prompt: str

    def filter_values(self) -> dict[str, str]:
        return {
            "model": self.model,
            "subset": self.subset,
            "task": self.task,
            "prompt": self.prompt,
        }


@dataclass(frozen=True)
class ScoreRow(_RunCell):
    """One (task, subset, prompt) of a run (results.json's numbers untouched, x100)."""

    metric: str
    mean: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    planned: int
    random_guess: float | None
    instruction_following: float | None
    copy_example: float | None
    unscored: str | None  # why there is no score ("not scored: no reference summaries")


@dataclass(frozen=True)
class PositionMap:
    """Where in the context an answer and its reference come from (decile shares), the
    span a truncation removed and a needle's depth (all as fractions of the context)."""

    output: list[float] | None = None
    reference: list[float] | None = None
    cut: list[float] | None = None
    depth: float | None = None

    def to_json(self) -> JsonObject:
        return {
            "output": list(self.output) if self.output is not None else None,
            "reference": list(self.reference) if self.reference is not None else None,
            "cut": list(self.cut) if self.cut is not None else None,
            "depth": self.depth,
        }


@dataclass(frozen=True)
class SampleEntry(_RunCell):
    """One answered pair as the viewer lists it (and its panel shows)."""

    sample: str
    language: str
    outcome: str
    score: float | None  # x100
    output: str
    reference: str
    context_chars: int
    position: PositionMap
    question: str = ""
    reference_label: str = "Reference"
    facts: tuple[str, ...] = ()  # what a person needs beside the texts (true order, depth...)

    def to_json(self) -> JsonObject:
        return {
            "run": self.run,
            "model": self.model,
            "task": self.task,
            "subset": self.subset,
            "prompt": self.prompt,
            "sample": self.sample,
            "language": self.language,
            "outcome": self.outcome,
            "score": self.score,
            "output": self.output,
            "reference": self.reference,
            "context_chars": self.context_chars,
            "position": self.position.to_json(),
            "question": self.question,
            "reference_label": self.reference_label,
            "facts": list(self.facts),
        }


@dataclass
class ViewerContent:
    runs: list[AnalysedRun]
    score_rows: list[ScoreRow] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    analyses: list[AnalysisNotes] = field(default_factory=list)
    samples: list[SampleEntry] = field(default_factory=list)


def png_data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def score_rows(run: AnalysedRun) -> list[ScoreRow]:
    """One row per (task, subset, prompt) of the run's score cells (every task)."""
    return [
        ScoreRow(
            run.label,
            run.model,
            cell.task,
            cell.subset,
            cell.prompt,
            cell.metric,
            cell.mean,
            cell.ci[0] if cell.ci else None,
            cell.ci[1] if cell.ci else None,
            cell.n,
            cell.planned,
            cell.random_guess,
            cell.instruction_following,
            cell.copy_example,
            cell.unscored,
        )
        for cell in run.results.cells
    ]


def task_facts(item: RunItem) -> tuple[str, ...]:
    """What a person checks an answer against, beyond the texts: an ordering's shown and
    true order, the evidence depth and distractor fill, the parsed answer, the details."""
    facts: list[str] = []
    if item.ordering is not None:
        gold = item.ordering.gold_order
        shown = [chr(ord("A") + i) for i in range(len(item.ordering.segments))]
        if len(item.answers) == len(gold):  # answers[i] labels the segment shown at gold[i]
            for label, index in zip(item.answers, gold, strict=True):
                shown[index] = label
        facts.append(f"segments as shown: {' '.join(shown)}")
    if item.family.endswith("ordering"):
        facts.append(f"true order: {' '.join(item.answers)}")
        if item.parsed is not None:
            facts.append(f"answered order: {' '.join(item.parsed) or '(nothing readable)'}")
    elif item.parsed is not None:
        facts.append(f"answer as parsed: {', '.join(item.parsed) or '(nothing readable)'}")
    if item.depth is not None:
        facts.append(f"evidence depth: {item.depth:.2f} of the context (0 start, 1 end)")
    if item.fill is not None:
        facts.append(f"distractor fill: {item.fill}")
    facts += [f"{key}: {value[:200]}" for key, value in item.details]
    return tuple(facts)


def _reference(item: RunItem) -> tuple[str, str]:
    """(label, text) of what the answer is scored against."""
    if item.task == SUMMARIZATION or item.reference:
        return "Reference summary", item.reference or ""
    if item.family == "needles":
        return "Needle (accepted answers)", "\n".join(item.answers)
    if item.ordering is not None or item.family.endswith("ordering"):
        return "True order", " ".join(item.answers)
    return "Expected answer", "\n".join(item.answers)


def _position_map(
    item: RunItem, reference_cache: dict[tuple[str, str], list[float]]
) -> PositionMap:
    cut = _cut_span(item.truncation)
    if not (item.context and item.task == SUMMARIZATION):
        return PositionMap(cut=cut, depth=item.depth)
    output = trace_positions(item.prediction, item.context, item.language, "tfidf")
    key = (item.subset, item.sample_id)
    if key not in reference_cache and item.reference:
        reference_cache[key] = trace_positions(item.reference, item.context, item.language, "tfidf")
    reference = reference_cache.get(key)
    return PositionMap(
        output=shares(output, DECILES) if output else None,
        reference=shares(reference, DECILES) if reference else None,
        cut=cut,
        depth=item.depth,
    )


def _cut_span(truncation: JsonObject | None) -> list[float] | None:
    where = (truncation or {}).get("where") or {}
    if not isinstance(where, dict):
        return None
    total, start, end = where.get("context_chars"), where.get("from_char"), where.get("to_char")
    if not total or not isinstance(total, int | float) or "from_char" not in where:
        return None
    if not isinstance(start, int | float) or not isinstance(end, int | float):
        return None
    return [start / total, end / total]


def sample_entries(run: AnalysedRun) -> list[SampleEntry]:
    cache: dict[tuple[str, str], list[float]] = {}
    return [
        SampleEntry(
            run=run.label,
            model=run.model,
            task=item.task,
            subset=item.subset,
            prompt=item.prompt_id,
            sample=item.sample_id,
            language=item.language,
            outcome=item.outcome,
            score=None if item.score is None else 100.0 * item.score,
            output=item.prediction[:MAX_TEXT],
            reference=_reference(item)[1][:MAX_TEXT],
            context_chars=len(item.context or ""),
            position=_position_map(item, cache),
            question=item.question[:MAX_TEXT],
            reference_label=_reference(item)[0],
            facts=task_facts(item),
        )
        for item in sorted(run.items, key=lambda i: (i.subset, i.sample_id, i.prompt_id))
    ]


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
