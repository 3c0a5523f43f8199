"""What `lengthwise eval` prints when a run ends: one line per task, subset and prompt.

Drawn from the run's score cells (`lengthwise.evaluation.score_cells`), as the report
and the viewer are: a summary subset as before (ROUGE-L), every other task with its
random guess and instruction-following rate, and a cell without a score says why
("not scored: no reference summaries").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from lengthwise.evaluation.score_cells import SUMMARIZATION, ScoreCell, score_cells


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _score(cell: ScoreCell, metric: str) -> str:
    if cell.mean is None and cell.unscored:
        return f"{cell.unscored} (planned {cell.planned})"
    return f"{metric} {_number(cell.mean)} (n={cell.n}"


def console_lines(results: Mapping[str, object]) -> Iterator[str]:
    """Summary subsets first (ROUGE-L), then each other task with its references."""
    cells = score_cells(results)
    model = results.get("model")
    once = isinstance(model, Mapping) and bool(model.get("prompt_independent"))
    if once:
        yield "  (answers do not depend on the prompt: run once, shown under every prompt)"
    for cell in (c for c in cells if c.task == SUMMARIZATION):
        outcomes = ", ".join(f"{k} {v}" for k, v in cell.outcomes.items())
        score = _score(cell, "ROUGE-L")
        tail = f"; {outcomes})" if cell.mean is not None else f" ({outcomes})"
        yield f"  {cell.subset} {cell.prompt}: {score}{tail}"
    for cell in (c for c in cells if c.task != SUMMARIZATION):
        score = _score(cell, cell.metric)
        tail = (
            f"; random {_number(cell.random_guess)}; readable "
            f"{_number(cell.instruction_following)}%)"
            if cell.mean is not None
            else ""
        )
        yield f"  {cell.task} {cell.length} {cell.prompt}: {score}{tail}"
