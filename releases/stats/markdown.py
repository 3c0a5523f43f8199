"""stats.md: the statistics report for people (and for the dataset card)."""

from __future__ import annotations

from typing import Any

_METRIC_LABELS = {
    "uniformity": "Uniformity",
    "compression_tokens": "Compression (words)",
    "compression_sentences": "Compression (sentences)",
    "coverage": "Extractive coverage",
    "density": "Extractive density",
    "novel_1gram": "Novel 1-grams",
    "novel_2gram": "Novel 2-grams",
    "novel_3gram": "Novel 3-grams",
    "novel_4gram": "Novel 4-grams",
    "redundancy": "Redundancy",
}


def _num(value: Any, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.1f}" if abs(value) >= 100 else f"{value:.{digits}f}"
    return str(value)


def _ic_cell(ic: dict[str, Any]) -> tuple[str, str]:
    if not ic.get("computed"):
        return "not computed", str(ic.get("reason", ""))
    interval = ic.get("ci95")
    value = _num(ic.get("mean"))
    if interval:
        value += f" [{_num(interval[0])}, {_num(interval[1])}]"
    detail = (
        f"{ic['samples_with_ic']}/{ic['samples']} samples, {ic['chunks']} chunks, "
        f"{ic['unparseable']} unparseable"
    )
    failed = sum(v for k, v in ic.get("verdicts", {}).items() if k.startswith("failed_"))
    if failed:
        detail += f", {failed} failed calls"
    return value, detail


def _information_coverage(report: dict[str, Any]) -> list[str]:
    lines = [
        "## Information coverage",
        "",
        "Share of 512-token chunks a judge model says must be taken into account to "
        "summarise the whole text (ETHIC's protocol); mean over a seeded sample of "
        "samples with a 95% bootstrap interval.",
        "",
        "| subset | IC [95% CI] | details |",
        "|---|---|---|",
    ]
    for name, subset in report["subsets"].items():
        value, detail = _ic_cell(subset["information_coverage"])
        lines.append(f"| {name} | {value} | {detail} |")
    judge = report["settings"]["ic"].get("judge")
    if judge:
        lines += ["", f"Judge `{judge}`, prompt `{report['settings']['ic']['prompt_version']}`."]
    return lines


def _summaries(report: dict[str, Any]) -> list[str]:
    lines = ["## Summary statistics", ""]
    present = {n: s["summaries"] for n, s in report["subsets"].items()}
    absent = [n for n, s in present.items() if s.get("status") != "present"]
    shown = [n for n in present if n not in absent]
    for name in absent:
        lines.append(f"- {name}: absent ({present[name].get('reason', '')})")
    if not shown:
        return lines
    if absent:
        lines.append("")
    lines += [
        "Mean (median) per subset. Words are jieba words for Chinese and lowercased "
        "words for English.",
        "",
        "| statistic | " + " | ".join(shown) + " |",
        "|---|" + "---:|" * len(shown),
        "| samples with a summary | " + " | ".join(_num(present[n]["n"]) for n in shown) + " |",
    ]
    for metric, label in _METRIC_LABELS.items():
        cells = []
        for name in shown:
            figures = present[name]["metrics"][metric]
            cells.append(f"{_num(figures['mean'])} ({_num(figures['median'])})")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def _annotation(report: dict[str, Any]) -> list[str]:
    lines = ["## Annotation", ""]
    rows = []
    for name, subset in report["subsets"].items():
        figures = subset["annotation"]
        if figures.get("status") != "present":
            lines.append(f"- {name}: absent ({figures.get('reason', '')})")
            continue
        rows.append(
            f"| {name} | {_num(figures['agreement_rouge_l']['mean'])} | "
            f"{_num(figures['rewritten_share']['mean'])} | "
            f"{_num(figures['annotations_per_sample']['mean'], 1)} | "
            + (", ".join(f"{k} {v}" for k, v in figures["summary_sources"].items()) or "–")
            + " |"
        )
    if rows:
        lines += [
            "",
            "| subset | agreement (ROUGE-L F1) | rewritten share | annotations/sample | "
            "summary sources |",
            "|---|---:|---:|---:|---|",
            *rows,
        ]
    return lines


def _lengths(report: dict[str, Any]) -> list[str]:
    lines = [
        "## Lengths",
        "",
        "| subset | tokenizer | n | min | Q1 | mean | max |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for subset in report["subsets"].values():
        for row in subset["length_table"]:
            lines.append(
                f"| {row['subset']} | `{row['tokenizer']}` | {row['n']} | {_num(row['min'])} | "
                f"{_num(row['q1'])} | {_num(row['mean'])} | {_num(row['max'])} |"
            )
    return lines


def render_stats_markdown(report: dict[str, Any]) -> str:
    counts = ", ".join(f"{name} {s['n']}" for name, s in report["subsets"].items())
    lines = [
        f"# Dataset statistics: {report['spec']} {report['spec_version']}",
        "",
        f"Samples per subset: {counts}. Computed by lengthwise {report['tool_version']} "
        f"({report['stats_version']}); Chinese words by {report['settings']['segmenter_zh']}.",
        "",
        *_information_coverage(report),
        "",
        *_summaries(report),
        "",
        *_annotation(report),
        "",
        *_lengths(report),
    ]
    return "\n".join(lines).rstrip() + "\n"
