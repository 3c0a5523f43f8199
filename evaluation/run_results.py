"""results.json as the analyses, the viewer and the report read it back (typed).

The evaluator writes results.json (evaluation/results.py); readers need only a few of
its parts: the model and release it names, the subset order and targets, the score of
each subset and prompt, the tasks run and the context share of a truncation run.
`RunResults.read` checks those parts and names the file and key of a malformed one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lengthwise.errors import InputFileError, MissingInputError
from lengthwise.evaluation.json_types import JsonObject, JsonValue
from lengthwise.evaluation.score_cells import ScoreCell, score_cells
from lengthwise.storage import read_json

RESULTS_FILE = "results.json"


def _object(value: JsonValue, where: str) -> JsonObject:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputFileError(f"{where}: expected an object, found {type(value).__name__}")
    return value


def _float(value: JsonValue) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _permutation(value: JsonValue, where: Path) -> tuple[str, int] | None:
    """results.json `permutation`: {"set": NAME, "index": I}, the run's place among runs
    of the same items with the documents permuted; None when it declares none."""
    if value is None:
        return None
    data = _object(value, f"{where}: permutation")
    name, index = data.get("set"), data.get("index")
    if not isinstance(name, str) or not name or not isinstance(index, int):
        raise InputFileError(f"{where}: permutation: expected {{'set': NAME, 'index': N}}")
    return (name, index)


@dataclass(frozen=True)
class ModelInfo:
    name: str | None  # None: results.json names none
    backend: str
    baseline: str
    prompt_independent: bool = False  # a baseline: run under one prompt, valid for each

    @classmethod
    def from_json(cls, data: JsonObject) -> ModelInfo:
        name = str(data["name"]) if "name" in data else None
        return cls(
            name,
            str(data.get("backend", "?")),
            str(data.get("baseline") or ""),
            bool(data.get("prompt_independent")),
        )


@dataclass(frozen=True)
class ReleaseInfo:
    path: str
    repo_id: str
    manifest_sha256: str | None
    synthetic_references: int

    @classmethod
    def from_json(cls, data: JsonObject) -> ReleaseInfo:
        sha = data.get("manifest_sha256")
        synthetic = data.get("synthetic_references")
        return cls(
            str(data.get("path") or ""),
            str(data.get("repo_id") or ""),
            None if sha is None else str(sha),
            int(synthetic) if isinstance(synthetic, int | float) else 0,
        )


@dataclass(frozen=True)
class ScoreEntry:
    """One subset under one prompt: its mean and interval (x100) and counts."""

    task: str | None
    mean: float | None
    ci: tuple[float | None, float | None]
    n: int
    planned: int

    @classmethod
    def from_json(cls, data: JsonObject) -> ScoreEntry:
        task, ci = data.get("task"), data.get("ci")
        low, high = (ci[0], ci[1]) if isinstance(ci, list) and len(ci) == 2 else (None, None)
        n, planned = data.get("n", 0), data.get("planned", 0)
        return cls(
            None if not task else str(task),
            _float(data.get("mean")),
            (_float(low), _float(high)),
            int(n) if isinstance(n, int | float) else 0,
            int(planned) if isinstance(planned, int | float) else 0,
        )


@dataclass(frozen=True)
class RunResults:
    model: ModelInfo
    release: ReleaseInfo
    complete: bool
    subset_order: list[str]
    subset_targets: dict[str, int]
    results: dict[str, dict[str, ScoreEntry]]  # subset -> prompt -> score
    tasks: list[str] = field(default_factory=list)
    context_fraction: float | None = None
    cells: list[ScoreCell] = field(default_factory=list)  # every task's rows (score_cells)
    # (set, index) when the run declares itself one permutation of a set (medoid voting)
    permutation: tuple[str, int] | None = None

    @classmethod
    def from_json(cls, data: JsonObject, where: Path) -> RunResults:
        results = _object(data.get("results"), f"{where}: results")
        targets = _object(data.get("subset_targets"), f"{where}: subset_targets")
        order = data.get("subset_order")
        return cls(
            model=ModelInfo.from_json(_object(data.get("model"), f"{where}: model")),
            release=ReleaseInfo.from_json(_object(data.get("release"), f"{where}: release")),
            complete=bool(data.get("complete")),
            subset_order=[str(s) for s in order] if isinstance(order, list) else [],
            subset_targets={s: int(t) for s, t in targets.items() if isinstance(t, int | float)},
            results={
                subset: {
                    prompt: ScoreEntry.from_json(_object(entry, f"{where}: results.{subset}"))
                    for prompt, entry in _object(by_prompt, f"{where}: results.{subset}").items()
                }
                for subset, by_prompt in results.items()
            },
            tasks=sorted(_object(data.get("tasks"), f"{where}: tasks")),
            context_fraction=_float(data.get("context_fraction")),
            cells=score_cells(data),
            permutation=_permutation(data.get("permutation"), where),
        )

    @classmethod
    def read(cls, folder: Path) -> RunResults:
        """`folder/results.json`, or a clear error when the folder is not a run."""
        path = folder / RESULTS_FILE
        if not path.is_file():
            raise MissingInputError(
                f"{path}: no results; is {folder} a `lengthwise eval` run folder?"
            )
        document = read_json(path)
        if not isinstance(document, dict) or "results" not in document:
            raise InputFileError(f"{path}: not a lengthwise results file")
        return cls.from_json(document, path)
