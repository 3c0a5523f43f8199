"""Medoid voting (SWiM): of k answers to the same item, keep the one closest to all others.

The k runs ask the same items with the documents permuted (the run folders are the k
permutations). Per item, the answer whose summed similarity to the other answers is
highest (ROUGE-L F, or MiniLM embedding cosine) is chosen; ties go to the earlier run.
Optionally, answers saying the information was not found are left out of the vote
(unless every answer says so). The score of the chosen answers is compared with a
single run (the mean of the k runs' means) and, when control runs are given (k runs
with the documents in a fixed position), with the control's medoid.

Voting means something only over answers to the same items under permuted documents,
so the analysis refuses, in one line, runs that do not declare themselves permutations
of one set (results.json `permutation`: {"set": NAME, "index": I}, distinct indices)
or that do not answer the same items (a rebuild with another seed shares none).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, Literal

from lengthwise.errors import UserError
from lengthwise.evaluation.analyses.output import AnalysisOutput
from lengthwise.evaluation.analyses.plots import bar_plot
from lengthwise.evaluation.analyses.run_data import AnalysedRun, RunItem
from lengthwise.evaluation.analyses.similarity import similarity_matrix
from lengthwise.evaluation.metrics import rouge_l

NAME: Final = "medoid"
Similarity = Literal["rouge-l", "embedding"]
ItemKey = tuple[str, str, str, str]  # task, subset, sample, prompt
NOT_FOUND: Final = re.compile(
    r"\b(not (be )?found|cannot (be )?(found|determined)|no (relevant )?information|"
    r"does not (say|mention|contain))\b|未(找到|提及|提到)|没有(找到|提及|提到)|无法(找到|确定)",
    re.IGNORECASE,
)


def says_not_found(text: str) -> bool:
    return bool(NOT_FOUND.search(text))


def _pairwise(outputs: Sequence[str], language: str, similarity: Similarity) -> list[list[float]]:
    if similarity == "embedding":
        return similarity_matrix(outputs, outputs, "embedding", language)
    return [
        [rouge_l(a, b, language) if a.strip() and b.strip() else 0.0 for b in outputs]
        for a in outputs
    ]


def medoid_index(
    outputs: Sequence[str],
    language: str,
    similarity: Similarity = "rouge-l",
    *,
    drop_not_found: bool = False,
) -> int:
    """Index of the output with the highest summed similarity to the others."""
    if not outputs:
        raise ValueError("medoid of no outputs")
    voters = list(range(len(outputs)))
    if drop_not_found:
        found = [i for i in voters if not says_not_found(outputs[i])]
        voters = found or voters
    matrix = _pairwise([outputs[i] for i in voters], language, similarity)
    totals = [sum(row) - row[n] for n, row in enumerate(matrix)]
    return voters[max(range(len(voters)), key=lambda n: (totals[n], -n))]


def _by_item(runs: Sequence[AnalysedRun]) -> dict[ItemKey, list[RunItem]]:
    table: dict[ItemKey, list[RunItem]] = {}
    for run in runs:
        for item in run.items:
            key = (item.task, item.subset, item.sample_id, item.prompt_id)
            table.setdefault(key, []).append(item)
    return {k: v for k, v in table.items() if len(v) == len(runs)}


def check_same_items(runs: Sequence[AnalysedRun], what: str) -> None:
    """Refuse runs that do not answer the same items (task, subset, sample, prompt)."""
    shared = len(_by_item(runs))
    largest = max(
        len({(i.task, i.subset, i.sample_id, i.prompt_id) for i in r.items}) for r in runs
    )
    if shared == 0 or shared < largest:
        raise UserError(
            f"medoid: the {what} share {shared} of {largest} items; voting needs the same "
            "items answered in every run"
        )


def check_permutations(runs: Sequence[AnalysedRun]) -> None:
    """Refuse runs not declared permutations of one set, or not of the same items."""
    for run in runs:
        if run.results.permutation is None:
            raise UserError(
                f"medoid: {run.folder} is not declared a permutation run (results.json "
                "`permutation`: set and index); voting needs k runs of the same items with "
                "the documents permuted"
            )
    declared = [run.results.permutation for run in runs if run.results.permutation]
    sets = sorted({name for name, _ in declared})
    if len(sets) > 1:
        raise UserError(f"medoid: the runs are permutations of different sets {sets}")
    indexes = [index for _, index in declared]
    if len(set(indexes)) < len(indexes):
        raise UserError(
            f"medoid: permutation indexes repeat ({sorted(indexes)}): the same run twice?"
        )
    check_same_items(runs, "permuted runs")


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def vote(
    runs: Sequence[AnalysedRun], chooser: Callable[[list[RunItem]], int]
) -> dict[str, dict[str, Any]]:
    """Per `task/subset`: medoid and single-run means (x100), n, and the chosen run per item."""
    groups: dict[str, dict[str, Any]] = {}
    for key, items in sorted(_by_item(runs).items()):
        if any(i.score is None for i in items):
            continue
        chosen = chooser(items)
        group = groups.setdefault(f"{key[0]}/{key[1]}", {"medoid": [], "single": [], "chosen": {}})
        group["medoid"].append(100.0 * (items[chosen].score or 0.0))
        group["single"].append(100.0 * sum(i.score or 0.0 for i in items) / len(items))
        group["chosen"][f"{key[2]}/{key[3]}"] = runs[chosen].label
    return {
        name: {
            "n": len(g["medoid"]),
            "medoid_mean": _mean(g["medoid"]),
            "single_run_mean": _mean(g["single"]),
            "gain_over_single": (_mean(g["medoid"]) or 0.0) - (_mean(g["single"]) or 0.0),
            "chosen": g["chosen"],
        }
        for name, g in groups.items()
    }


def analyse(
    runs: Sequence[AnalysedRun],
    out: Path,
    *,
    control: Sequence[AnalysedRun] = (),
    similarity: Similarity = "rouge-l",
    drop_not_found: bool = False,
) -> AnalysisOutput:
    if len(runs) < 2:
        raise UserError("medoid voting needs k >= 2 run folders (the permuted runs)")
    check_permutations(runs)
    if control:
        check_same_items(control, "control runs")

    def chooser(items: list[RunItem]) -> int:
        outputs = [i.prediction for i in items]
        return medoid_index(outputs, items[0].language, similarity, drop_not_found=drop_not_found)

    permuted = vote(runs, chooser)
    fixed = vote(control, chooser) if len(control) >= 2 else {}
    notes = []
    for name, entry in permuted.items():
        line = (
            f"{name}: medoid {entry['medoid_mean']:.2f} vs single run "
            f"{entry['single_run_mean']:.2f} (gain {entry['gain_over_single']:+.2f}, "
            f"n={entry['n']})"
        )
        if name in fixed:
            entry["control_medoid_mean"] = fixed[name]["medoid_mean"]
            entry["gain_over_control"] = entry["medoid_mean"] - fixed[name]["medoid_mean"]
            line += f"; fixed-position control medoid {fixed[name]['medoid_mean']:.2f}"
        notes.append(line)
    names = list(permuted)
    series = {
        "single run": [permuted[n]["single_run_mean"] for n in names],
        "medoid (permuted)": [permuted[n]["medoid_mean"] for n in names],
    }
    if fixed:
        series["medoid (fixed-position control)"] = [
            fixed.get(n, {}).get("medoid_mean") for n in names
        ]
    counts: dict[str, list[int | None]] = {
        name: [permuted[n]["n"] for n in names] for name in ("single run", "medoid (permuted)")
    }
    if fixed:
        counts["medoid (fixed-position control)"] = [fixed.get(n, {}).get("n") for n in names]
    plot = bar_plot(
        out / f"{NAME}_gain.png",
        names,
        series,
        title=f"Medoid voting over k={len(runs)} permuted runs",
        ylabel="mean score x100",
        counts=counts,
    )
    document = {
        "k": len(runs),
        "similarity": similarity,
        "drop_not_found": drop_not_found,
        "runs": [r.label for r in runs],
        "control_runs": [r.label for r in control],
        "groups": permuted,
        "control": fixed,
    }
    return AnalysisOutput(NAME, document, [plot], notes)
