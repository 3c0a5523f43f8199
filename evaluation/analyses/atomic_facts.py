"""Atomic facts: what a summary states, whether the context supports it, what survives.

A model (any registry provider: `--backend openai|transformers`, or a client passed in)
splits each summary into atomic facts, one per line. Each fact is traced to its most
similar context passage (`similarity`), which gives its position, and the same model
judges whether that passage supports it (yes/no). Across consecutive steps of an
incremental series (nested samples of one book from the same first chapter, shortest
first; or a task's instance at growing lengths) facts are matched at a similarity
threshold (default 0.7): matched (kept), lost (no match in the longer step) or new.

Only summaries are split into facts: answers of the summarization and incremental
families (`FACT_FAMILIES`). An ordering's labels, a needle's number or a recall list
are no summaries: they are left out and counted in the notes, and runs holding no
summary at all are refused in one line. Series are the nested ones only: summary
samples of one book from the same first chapter, or an incremental instance at
growing lengths (needles at 4k and 8k, or sections, are not nested).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from lengthwise.errors import UserError
from lengthwise.evaluation.analyses.output import AnalysisOutput
from lengthwise.evaluation.analyses.plots import bar_plot
from lengthwise.evaluation.analyses.positions import THIRDS, shares
from lengthwise.evaluation.analyses.run_data import AnalysedRun, RunItem
from lengthwise.evaluation.analyses.similarity import Method, similarity_matrix
from lengthwise.evaluation.analyses.tracing import trace
from lengthwise.llm.types import ChatRequest, LLMClient, Message

NAME: Final = "atomic_facts"
FACT_FAMILIES: Final = ("summarization", "incremental")  # answers that are summaries
DEFAULT_THRESHOLD: Final = 0.7
PROMPT_VERSION: Final = "atomic-facts/1"
SPLIT_PROMPT: Final = (
    "Split the following summary into atomic facts: short, self-contained statements, "
    "one per line, with no numbering and nothing else.\n\nSummary:\n{summary}"
)
JUDGE_PROMPT: Final = (
    "Passage:\n{passage}\n\nStatement: {fact}\n\nIs the statement supported by the passage? "
    "Answer yes or no."
)
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)、]|[（(]?\d+[)）])\s*")
_YES = re.compile(r"^\W*(yes|supported|true|是|支持|对)", re.IGNORECASE)


def parse_facts(text: str) -> list[str]:
    """One fact per non-empty line, bullets and numbering removed."""
    return [f for line in text.splitlines() if (f := _BULLET.sub("", line).strip())]


def _ask(client: LLMClient, prompts: list[str], max_tokens: int) -> list[str]:
    requests = [
        ChatRequest(
            messages=(Message("user", p),), max_tokens=max_tokens, prompt_version=PROMPT_VERSION
        )
        for p in prompts
    ]
    return [r.text if r.outcome == "ok" else "" for r in client.complete_many(requests)]


def _facts_of(client: LLMClient, items: Sequence[RunItem]) -> list[list[str]]:
    answers = _ask(client, [SPLIT_PROMPT.format(summary=i.prediction) for i in items], 512)
    return [parse_facts(a) for a in answers]


def _trace_and_judge(
    client: LLMClient, item: RunItem, facts: list[str], method: Method
) -> list[dict[str, Any]]:
    traced = trace(facts, item.context or "", item.language, method)
    asked = [(f, t) for f, t in zip(facts, traced, strict=True) if t is not None]
    prompts = [JUDGE_PROMPT.format(passage=t[0].text, fact=f) for f, t in asked]
    verdicts = dict(zip((f for f, _ in asked), _ask(client, prompts, 8), strict=True))
    return [
        {
            "fact": f,
            "position": t[0].position if t else None,
            "similarity": t[1] if t else 0.0,
            "supported": t is not None and bool(_YES.match(verdicts.get(f, ""))),
        }
        for f, t in zip(facts, traced, strict=True)
    ]


def match_facts(
    earlier: list[str], later: list[str], language: str, method: Method, threshold: float
) -> dict[str, int]:
    """matched / lost (earlier facts without a match in `later`) / new (later ones without)."""
    if not earlier or not later:
        return {"matched": 0, "lost": len(earlier), "new": len(later)}
    matrix = similarity_matrix(earlier, later, method, language)
    matched = sum(1 for row in matrix if max(row) >= threshold)
    new = sum(1 for j in range(len(later)) if max(row[j] for row in matrix) < threshold)
    return {"matched": matched, "lost": len(earlier) - matched, "new": new}


def _series_steps(
    run: AnalysedRun, facts: dict[tuple[str, str, str], list[str]], method: Method, threshold: float
) -> dict[str, dict[str, int]]:
    series: dict[tuple[str, str], list[RunItem]] = {}
    for item in run.items:
        if item.key in facts:
            series.setdefault((item.series, item.prompt_id), []).append(item)
    totals: dict[str, dict[str, int]] = {}
    for steps in series.values():
        steps.sort(key=lambda i: i.step)
        for a, b in itertools.pairwise(steps):
            counts = match_facts(facts[a.key], facts[b.key], a.language, method, threshold)
            total = totals.setdefault(
                f"{a.subset}->{b.subset}", {"matched": 0, "lost": 0, "new": 0}
            )
            for name, value in counts.items():
                total[name] += value
    return totals


def _run_table(
    run: AnalysedRun, client: LLMClient, method: Method, threshold: float
) -> dict[str, Any]:
    items = [
        i for i in run.items if i.family in FACT_FAMILIES and i.prediction.strip() and i.context
    ]
    facts = dict(zip((i.key for i in items), _facts_of(client, items), strict=True))
    subsets: dict[str, dict[str, Any]] = {}
    for item in items:
        traced = _trace_and_judge(client, item, facts[item.key], method)
        entry = subsets.setdefault(item.subset, {"summaries": 0, "facts": [], "examples": []})
        entry["summaries"] += 1
        entry["facts"] += traced
        if len(entry["examples"]) < 3:
            entry["examples"].append({"sample": item.sample_id, "facts": traced})
    table: dict[str, Any] = {}
    for subset, entry in subsets.items():
        traced = entry.pop("facts")
        positions = [f["position"] for f in traced if f["position"] is not None]
        table[subset] = entry | {
            "facts": len(traced),
            "facts_per_summary": len(traced) / entry["summaries"],
            "supported_share": sum(f["supported"] for f in traced) / len(traced)
            if traced
            else None,
            "thirds": dict(zip(THIRDS, shares(positions, 3), strict=True)),
        }
    return {"subsets": table, "series": _series_steps(run, facts, method, threshold)}


def analyse(
    runs: Sequence[AnalysedRun],
    out: Path,
    *,
    client: LLMClient,
    method: Method = "tfidf",
    threshold: float = DEFAULT_THRESHOLD,
) -> AnalysisOutput:
    notes: list[str] = []
    left_out = Counter(i.family for run in runs for i in run.items if i.family not in FACT_FAMILIES)
    if not any(i.family in FACT_FAMILIES for run in runs for i in run.items):
        raise UserError(
            f"atomic facts: no summaries in these runs (families {sorted(left_out)}); it splits "
            f"summaries ({', '.join(FACT_FAMILIES)}) into facts"
        )
    if left_out:
        counts = ", ".join(f"{family} {n}" for family, n in sorted(left_out.items()))
        notes.append(f"left out, not summaries: {counts} answers")
    table = {run.label: _run_table(run, client, method, threshold) for run in runs}
    supported: dict[str, list[float | None]] = {}
    subsets = sorted({s for entry in table.values() for s in entry["subsets"]})
    for label, entry in table.items():
        supported[label] = [entry["subsets"].get(s, {}).get("supported_share") for s in subsets]
        for subset, row in entry["subsets"].items():
            share = row["supported_share"]
            notes.append(
                f"{label} {subset}: {row['facts']} facts in {row['summaries']} summaries, "
                f"supported {'–' if share is None else f'{share:.0%}'}"
            )
        for step, counts in entry["series"].items():
            notes.append(
                f"{label} {step}: matched {counts['matched']}, lost {counts['lost']}, "
                f"new {counts['new']}"
            )
    plots = [
        bar_plot(
            out / f"{NAME}_supported.png",
            subsets or ["(none)"],
            supported if subsets else {"none": [0.0]},
            title="Share of atomic facts supported by their source passage",
            ylabel="supported share",
        )
    ]
    steps = sorted({s for entry in table.values() for s in entry["series"]})
    if steps:
        plots.append(
            bar_plot(
                out / f"{NAME}_series.png",
                [f"{label}\n{s}" for label in table for s in steps],
                {
                    k: [table[r]["series"].get(s, {}).get(k, 0) for r in table for s in steps]
                    for k in ("matched", "lost", "new")
                },
                title="Facts across consecutive steps of incremental series",
                ylabel="facts",
            )
        )
    document = {"method": method, "threshold": threshold, "model": client.name, "runs": table}
    return AnalysisOutput(NAME, document, plots, notes)
