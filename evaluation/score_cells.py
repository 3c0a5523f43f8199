"""One result model for every task: a `ScoreCell` per task, subset, prompt and run.

results.json keeps two views of a run: `results` (the summary subsets, as before task
families existed) and `tasks` (every task, summarization included, with the random
guess, instruction-following and copy-the-example rates). Readers (the markdown
report, its plots, the HTML viewer) take their numbers from `score_cells` only, so a
task run shows the same rows everywhere and a summary row is results.json's `results`
entry untouched. Scores, intervals and rates are x100.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

SUMMARIZATION = "summarization"
NO_REFERENCE_SUMMARIES = "not scored: no reference summaries"
NO_REFERENCES = "not scored: the task has no references (kept for analyses)"


@dataclass(frozen=True)
class ScoreCell:
    """One task at one subset (release config) under one prompt, as results.json holds it."""

    task: str
    family: str
    metric: str
    subset: str  # the release config the generations lines name ("L", "ordering-8k")
    length: str  # the length's name ("L", "8k")
    target: int  # the length's target tokens (orders the x axis)
    prompt: str
    mean: float | None
    ci: tuple[float, float] | None
    n: int
    planned: int
    missing: int = 0
    random_guess: float | None = None
    instruction_following: float | None = None
    copy_example: float | None = None
    outcomes: dict[str, int] = field(default_factory=dict)
    unscored: str | None = None  # why the cell has no score, said wherever it shows

    @property
    def score_text(self) -> str:
        """`65.00 [45.00, 85.00]`, or the reason it has none."""
        if self.mean is None:
            return self.unscored or "–"
        interval = f" [{self.ci[0]:.2f}, {self.ci[1]:.2f}]" if self.ci else ""
        return f"{self.mean:.2f}{interval}"


def _object(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _float(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _int(value: object) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _interval(value: object) -> tuple[float, float] | None:
    if isinstance(value, list) and len(value) == 2:
        low, high = _float(value[0]), _float(value[1])
        if low is not None and high is not None:
            return (low, high)
    return None


def _counts(value: object) -> dict[str, int]:
    return {str(k): _int(v) for k, v in _object(value).items()}


def _unscored(
    task: str, subset: str, entry: Mapping[str, object], unscorable: Mapping[str, object]
) -> str | None:
    if _float(entry.get("mean")) is not None or _int(entry.get("planned")) == 0:
        return None
    fill_mean = _float(entry.get("fill_mean"))
    if fill_mean is not None:  # needles: every instance is in the fill series
        return f"fill series only: {fill_mean:.2f} (n={_int(entry.get('fill_n'))}, see by fill)"
    if _int(unscorable.get(subset)) == 0:
        return "not scored: no answer yet" if _int(entry.get("missing")) else "not scored"
    return NO_REFERENCE_SUMMARIES if task == SUMMARIZATION else NO_REFERENCES


def score_cells(document: Mapping[str, object]) -> list[ScoreCell]:
    """Every (task, subset, prompt) of a results.json document, in its order: the tasks
    table, with a summary cell's numbers from `results` (the same scores), and the
    summary subsets alone for a results.json written before task families."""
    results = _object(document.get("results"))
    targets = _object(document.get("subset_targets"))
    unscorable = _object(document.get("unscorable_samples"))
    tasks = _object(document.get("tasks"))
    cells: list[ScoreCell] = []
    for name, described in tasks.items():
        table = _object(described)
        family = str(table.get("family") or name)
        for length, by_prompt in _object(table.get("lengths")).items():
            for prompt, value in _object(by_prompt).items():
                cell = _object(value)
                subset = str(cell.get("config") or length)
                entry = cell
                if family == SUMMARIZATION and prompt in _object(results.get(subset)):
                    entry = _object(_object(results.get(subset)).get(prompt))
                cells.append(
                    ScoreCell(
                        task=name,
                        family=family,
                        metric=str(table.get("metric") or ""),
                        subset=subset,
                        length=str(cell.get("length") or length),
                        target=_int(cell.get("target")),
                        prompt=prompt,
                        mean=_float(entry.get("mean")),
                        ci=_interval(entry.get("ci")),
                        n=_int(entry.get("n")),
                        planned=_int(entry.get("planned")),
                        missing=_int(entry.get("missing")),
                        random_guess=_float(cell.get("random_baseline")),
                        instruction_following=_float(cell.get("instruction_following_rate")),
                        copy_example=_float(cell.get("copy_example_rate")),
                        outcomes=_counts(entry.get("outcomes")),
                        unscored=_unscored(name, subset, entry, unscorable),
                    )
                )
    if SUMMARIZATION in tasks:
        return cells
    order = document.get("subset_order")
    subsets = [str(s) for s in order] if isinstance(order, list) else list(results)
    for subset in subsets:
        for prompt, value in _object(results.get(subset)).items():
            entry = _object(value)
            cells.append(
                ScoreCell(
                    task=SUMMARIZATION,
                    family=SUMMARIZATION,
                    metric="ROUGE-L F1",
                    subset=subset,
                    length=subset,
                    target=_int(targets.get(subset)),
                    prompt=prompt,
                    mean=_float(entry.get("mean")),
                    ci=_interval(entry.get("ci")),
                    n=_int(entry.get("n")),
                    planned=_int(entry.get("planned")),
                    missing=_int(entry.get("missing")),
                    outcomes=_counts(entry.get("outcomes")),
                    unscored=_unscored(SUMMARIZATION, subset, entry, unscorable),
                )
            )
    return cells


def tasks_of(cells: list[ScoreCell]) -> list[str]:
    """Task names in the cells' order."""
    return list(dict.fromkeys(cell.task for cell in cells))


def prompts_of(cells: list[ScoreCell]) -> list[str]:
    """Prompt ids in the cells' order."""
    return list(dict.fromkeys(cell.prompt for cell in cells))
