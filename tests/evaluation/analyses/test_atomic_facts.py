"""Atomic facts with a scripted model: known facts, known support, known survival."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from lengthwise.errors import UserError
from lengthwise.evaluation.analyses import atomic_facts
from lengthwise.evaluation.analyses.output import write_output
from lengthwise.evaluation.analyses.run_data import load_analysed_runs
from lengthwise.llm.scripted import ScriptedClient
from lengthwise.llm.types import ChatRequest, ChatResult
from lengthwise.text.segment import sentences
from tests.evaluation.analyses.handmade import (
    Rows,
    context_sentences,
    plot_has_content,
    write_run,
)

INVENTED = "The dragon flew over the frozen moon."
NEW = "A storm closed the northern pass at dawn."


def fact_model(request: ChatRequest) -> ChatResult:
    """Splits a summary at its sentences; supports a fact found word for word in the passage."""
    prompt = request.messages[-1].content
    if prompt.startswith("Split"):
        summary = prompt.split("Summary:\n", 1)[1]
        lang = "zh" if re.search(r"[\u4e00-\u9fff]", summary) else "en"
        return ChatResult("\n".join(f"- {s}" for s in sentences(summary, lang)), "ok")
    passage = prompt.split("Passage:\n", 1)[1].split("\n\nStatement: ", 1)[0]
    fact = prompt.split("\n\nStatement: ", 1)[1].split("\n\nIs the statement", 1)[0]
    return ChatResult("yes" if fact in passage else "no", "ok")


def test_facts_are_traced_judged_and_followed_across_steps(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    early = {i: context_sentences(row, 0, 1 / 3)[:3] for i, row in enumerate(release_rows["S"])}
    index = {str(r["id"]): i for rows in release_rows.values() for i, r in enumerate(rows)}

    def answer(row: dict[str, Any]) -> str:
        first = early[index[str(row["id"])]]
        joiner = "\n"  # a line end closes a sentence in both languages (headings have no stop)
        if row["subset"] == "S":  # three facts from the context, one invented
            return joiner.join([*first, INVENTED])
        # The next step keeps the two story sentences and the invented one, loses the
        # chapter heading (unlike any other fact) and adds a new one.
        return joiner.join([*first[1:], INVENTED, NEW])

    def series(row: dict[str, Any]) -> dict[str, Any]:
        return {"series": f"book-{index[str(row['id'])]}"}

    rows = {s: [r | {"subset": s} for r in subset_rows] for s, subset_rows in release_rows.items()}
    run = write_run(tmp_path / "run", tiny_release, rows, answer, extra=series)
    client = ScriptedClient(fact_model)
    out = tmp_path / "out"
    out.mkdir()
    output = atomic_facts.analyse(load_analysed_runs([run]), out, client=client)
    write_output(output, out)
    entry = output.table["runs"]["handmade (handmade)"]
    s = entry["subsets"]["S"]
    assert s["summaries"] == 4 and s["facts"] == 16
    # Facts copied from the S context are supported; the invented one is not.
    assert s["supported_share"] == pytest.approx(12 / 16)
    assert s["thirds"]["beginning"] >= 0.7
    # The M context does not hold the S sentences unless M extends S: only check the series.
    assert entry["series"] == {"S->M": {"matched": 12, "lost": 4, "new": 4}}
    for path in output.plots:
        plot_has_content(path)


def test_only_summaries_are_split_and_runs_without_any_are_refused(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    # S answers are summaries; M answers are an ordering's labels and a needle's number.
    def answer(row: dict[str, Any]) -> str:
        return "The ferryman keeps the ledger." if row["subset"] == "S" else "B A D C"

    def family(row: dict[str, Any]) -> dict[str, Any]:
        if row["subset"] == "S":
            return {}
        kind = "ordering" if int(str(row["id"])[-1], 16) % 2 else "needles"
        return {"task": kind, "family": kind, "length": "M"}

    rows = {s: [r | {"subset": s} for r in subset_rows] for s, subset_rows in release_rows.items()}
    run = write_run(tmp_path / "run", tiny_release, rows, answer, extra=family)
    asked: list[str] = []

    def counting(request: ChatRequest) -> ChatResult:
        asked.append(request.messages[-1].content)
        return fact_model(request)

    out = tmp_path / "out"
    out.mkdir()
    runs = load_analysed_runs([run])
    output = atomic_facts.analyse(runs, out, client=ScriptedClient(counting))
    entry = output.table["runs"]["handmade (handmade)"]
    assert set(entry["subsets"]) == {"S"} and entry["subsets"]["S"]["summaries"] == 4
    assert sum(p.startswith("Split") for p in asked) == 4  # never an ordering or a needle
    assert entry["series"] == {}  # no nested series among them
    left = next(n for n in output.notes if n.startswith("left out"))
    assert "not summaries" in left and sum(int(n) for n in re.findall(r"\d+", left)) == 4

    only_tasks = {"M": rows["M"]}
    task_run = write_run(tmp_path / "tasks", tiny_release, only_tasks, answer, extra=family)
    with pytest.raises(UserError, match="no summaries in these runs"):
        atomic_facts.analyse(load_analysed_runs([task_run]), out, client=ScriptedClient(counting))
