"""A run folder as the analyses read it: each answer beside its context and reference.

generations.jsonl holds the answers (and, once the task abstraction lands, the fields
`task`, `family`, `instance_id`, `length`, `depth`, `fill`); the contexts and reference
summaries live in the release that results.json names. A line that carries its own
`context` / `reference` (task instances may) is read as is; otherwise the sample is
looked up in the release by (subset, sample id). Lines the analyses cannot use are
counted with a reason in `AnalysedRun.dropped`, never skipped silently.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lengthwise.errors import InputFileError, UserError
from lengthwise.evaluation.analyses.ordering_items import OrderingFields, ordering_fields
from lengthwise.evaluation.generation import SKIPPED, Generation
from lengthwise.evaluation.json_types import JsonObject
from lengthwise.evaluation.run_results import RESULTS_FILE, RunResults
from lengthwise.evaluation.samples import EvalSample, load_release
from lengthwise.evaluation.store import GENERATIONS, GenerationStore

SUMMARIZATION = "summarization"  # the task of a line without a `task` field


@dataclass(frozen=True)
class RunItem:
    """One answered (sample, prompt) of a run, with what the analyses need beside it."""

    subset: str
    sample_id: str
    prompt_id: str
    task: str
    family: str
    instance_id: str
    language: str
    prediction: str
    score: float | None  # in [0, 1], as generations.jsonl stores it
    outcome: str
    context: str | None
    reference: str | None
    length: int | None = None
    depth: float | None = None  # needle/answer depth in [0, 1] (None for summaries)
    fill: str | None = None
    kept_fraction: float | None = None  # prompt tokens kept / original (a cut context)
    truncation: JsonObject | None = None  # the plan's cut (character span removed)
    series: str = ""  # items of one incremental series share it (same book and start)
    step: float = 0.0  # order within the series (length, or the subset's target tokens)
    ordering: OrderingFields | None = None  # segments and orders of an ordering instance
    question: str = ""  # a task instance's question or instruction
    answers: tuple[str, ...] = ()  # a task instance's references (TaskInstance.answers)
    parsed: tuple[str, ...] | None = None  # the answer as the task's parser read it
    details: tuple[tuple[str, str], ...] = ()  # the instance's details (shown order, kind...)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.subset, self.sample_id, self.prompt_id)


@dataclass
class AnalysedRun:
    folder: Path
    label: str
    model: str
    results: RunResults
    items: list[RunItem]
    dropped: Counter[str] = field(default_factory=Counter)

    def context_fractions(self) -> dict[str, float]:
        """The share of the context each subset (release config) was given: results.json's
        `context_fraction` for all (a truncation run), else the mean kept share of the
        subset's own prompts (an uncut prompt kept all of it): configs of one run are cut
        differently (a short one not at all)."""
        kept: dict[str, list[float]] = {}
        for item in self.items:
            share = 1.0 if item.kept_fraction is None else item.kept_fraction
            kept.setdefault(item.subset, []).append(share)
        if self.results.context_fraction is not None:
            return {subset: self.results.context_fraction for subset in kept}
        return {subset: round(sum(v) / len(v), 3) for subset, v in kept.items()}


@functools.lru_cache(maxsize=8)
def _release_samples(path: str, tasks: tuple[str, ...]) -> dict[tuple[str, str], EvalSample]:
    release = load_release(path, tasks=tasks)
    return {(s.subset, s.id): s for rows in release.subsets.values() for s in rows}


def release_samples(results: RunResults, where: Path) -> dict[tuple[str, str], EvalSample]:
    """The run's release samples by (subset, id); empty when the release is not on disk."""
    path = results.release.path
    if not path or not Path(path).is_dir():
        return {}
    # The run's tasks (results.json "tasks"): their configs hold the instances' contexts.
    tasks = tuple(results.tasks) or (SUMMARIZATION,)
    try:
        return _release_samples(path, tasks)
    except (UserError, OSError) as error:
        raise InputFileError(f"{where}: its release {path} cannot be read: {error}") from error


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _kept_fraction(line: Generation) -> float | None:
    if line.truncation and line.prompt_tokens and line.original_prompt_tokens:
        return min(1.0, line.prompt_tokens / line.original_prompt_tokens)
    return None


def _series(line: Generation, sample: EvalSample | None) -> str:
    """Nested samples (same book, same first chapter, longer subsets) form a series; a
    task instance names its own with `series`, or shares `instance_id` across lengths."""
    extra = line.extra
    if extra.get("series"):
        return str(extra["series"])
    if line.task is not None and line.length is not None:
        # A task instance id is "<task>:<length>:<book>:<n>": the same id without its
        # length names the instance at every step (incremental series).
        parts = line.sample_id.split(":")
        if len(parts) >= 4 and parts[1] == line.length:
            return ":".join([parts[0], *parts[2:]])
    if extra.get("instance_id") and extra.get("length") is not None:
        return f"{extra.get('task', '')}:{extra['instance_id']}"
    if sample is not None and sample.book_id:
        return f"{sample.book_id}#{sample.first_chapter}"
    return line.sample_id


def _item(line: Generation, sample: EvalSample | None) -> RunItem:
    extra = line.extra
    # Hand-made lines may give `length` in tokens; the evaluator's lines name the length
    # ("8k") and the sample's target gives its size.
    length = _number(extra.get("length"))
    step = length if length is not None else float(sample.target_tokens if sample else 0)
    if length is None and line.length is not None and sample is not None:
        length = float(sample.target_tokens)
    task = line.task or extra.get("task")
    depth = line.depth if line.depth is not None else _number(extra.get("depth"))
    fill = line.fill if line.fill is not None else extra.get("fill")
    fields = dict(extra)
    if sample is not None and sample.family == "ordering" and "segments" not in fields:
        fields.update(ordering_fields(sample.context, sample.answers, line.parsed))
    return RunItem(
        subset=line.subset,
        sample_id=line.sample_id,
        prompt_id=line.prompt_id,
        task=str(task or SUMMARIZATION),
        family=str(line.family or extra.get("family") or task or SUMMARIZATION),
        instance_id=str(extra.get("instance_id") or line.sample_id),
        language=line.language or (sample.language if sample else "en"),
        prediction=line.prediction or "",
        score=line.score,
        outcome=line.outcome,
        context=_text(extra.get("context")) or (sample.context if sample else None),
        reference=_text(extra.get("reference")) or (sample.reference if sample else None),
        length=int(length) if length is not None else None,
        depth=depth,
        fill=None if fill is None else str(fill),
        kept_fraction=_kept_fraction(line),
        truncation=line.truncation,
        series=_series(line, sample),
        step=step,
        ordering=OrderingFields.from_extra(fields),
        question=sample.question if sample else "",
        answers=sample.answers if sample else (),
        parsed=None if line.parsed is None else tuple(str(p) for p in line.parsed),
        details=tuple((k, str(v)) for k, v in sorted(sample.details.items())) if sample else (),
    )


def run_label(results: RunResults, folder: Path) -> str:
    model = results.model
    return f"{Path(model.name if model.name is not None else folder.name).name} ({model.backend})"


def load_analysed_run(folder: Path) -> AnalysedRun:
    """The run in `folder`: its results.json, last line per pair, contexts and references."""
    results = RunResults.read(folder)
    samples = release_samples(results, folder / RESULTS_FILE)
    run = AnalysedRun(folder, run_label(results, folder), "", results, [])
    run.model = results.model.name if results.model.name is not None else folder.name
    latest = GenerationStore(folder / GENERATIONS).latest()
    for line in latest.values():
        if line.outcome in (SKIPPED, "error"):
            run.dropped[f"{line.outcome} (no answer)"] += 1
            continue
        run.items.append(_item(line, samples.get((line.subset, line.sample_id))))
    return run


def load_analysed_runs(folders: list[Path]) -> list[AnalysedRun]:
    if not folders:
        raise UserError("no run folders given")
    runs = [load_analysed_run(Path(f)) for f in folders]
    labels = [r.label for r in runs]
    for run in runs:
        if labels.count(run.label) > 1:
            run.label = f"{run.label} [{run.folder.name}]"
    return runs
