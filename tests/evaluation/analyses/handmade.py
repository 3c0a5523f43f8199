"""Hand-made run folders whose answers are known (a TEST FIXTURE, not a test module).

A run folder is what `lengthwise eval` leaves: results.json (naming the release the
samples come from) and generations.jsonl. Here the "model" is a Python function of the
sample's context, so where its output comes from, and how it reacts to a cut context,
is known in advance.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from lengthwise.text.segment import sentences

Rows = dict[str, list[dict[str, Any]]]
Answer = Callable[[dict[str, Any]], str]


def write_run(
    folder: Path,
    release: Path,
    rows: Rows,
    answer: Answer,
    *,
    score: Callable[[dict[str, Any], str], float] | None = None,
    prompts: tuple[str, ...] = ("IB",),
    model: str = "handmade",
    extra: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    results_extra: dict[str, Any] | None = None,
) -> Path:
    """A run folder answering every released row with `answer(row)` under each prompt."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for subset, subset_rows in rows.items():
        for row in subset_rows:
            for prompt in prompts:
                prediction = answer(row | {"prompt": prompt})
                value = score(row | {"prompt": prompt}, prediction) if score else 0.5
                line = {
                    "sample_id": str(row["id"]),
                    "subset": subset,
                    "prompt_id": prompt,
                    "language": str(row["language"]),
                    "outcome": "ok",
                    "prediction": prediction,
                    "score": value,
                }
                lines.append(line | (extra(row) if extra else {}))
    (folder / "generations.jsonl").write_text(
        "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8"
    )
    results = {
        "release": {"path": str(release)},
        "model": {"name": model, "backend": "handmade"},
        "subset_order": list(rows),
        "subset_targets": {s: int(r[0].get("target") or 0) for s, r in rows.items()},
        "results": {},
    } | (results_extra or {})
    (folder / "results.json").write_text(json.dumps(results), encoding="utf-8")
    return folder


def context_sentences(row: dict[str, Any], start: float, end: float) -> list[str]:
    """The sentences lying wholly inside [start, end) of the row's context (as shares)."""
    context = str(row["context"])
    low, high = int(start * len(context)), int(end * len(context))
    found, cursor = [], 0
    for sentence in sentences(context, str(row["language"])):
        at = context.find(sentence, cursor)
        if at < 0:
            continue
        cursor = at + len(sentence)
        if low <= at and cursor <= high:
            found.append(sentence)
    return found


def summary_from(row: dict[str, Any], start: float, end: float, count: int = 6) -> str:
    """`count` sentences spread evenly over [start, end) of the context."""
    found = context_sentences(row, start, end)
    picks = sorted({int(i) for i in np.linspace(0, len(found) - 1, num=min(count, len(found)))})
    joiner = "" if row["language"] == "zh" else " "
    return joiner.join(found[i] for i in picks)


def plot_has_content(path: Path) -> None:
    """A real plot: a PNG of a sensible size whose axes area is not blank."""
    import matplotlib.image

    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path
    image = matplotlib.image.imread(path)
    height, width = image.shape[:2]
    assert height >= 300 and width >= 500, (path, image.shape)
    # The middle of the figure (inside the axes, away from the labels) holds drawn data.
    inner = image[height // 5 : 4 * height // 5, width // 5 : 4 * width // 5, :3]
    assert float(inner.std()) > 0.02, f"{path}: the axes area is blank"
