"""stats.md: the statistics report for people (and for the dataset card)."""

from __future__ import annotations

from lengthwise.releases.stats.stats_record import (
    ICComputed,
    ICNotComputed,
    StatsReport,
    SummariesPresent,
)
from lengthwise.stage_runner import Envelope

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


def _num(value: object, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.1f}" if abs(value) >= 100 else f"{value:.{digits}f}"
    return str(value)


def _ic_cell(ic: ICComputed | ICNotComputed) -> tuple[str, str]:
    if not ic["computed"]:
        return "not computed", ic["reason"]
    interval = ic["ci95"]
    value = _num(ic["mean"])
    if interval:
        value += f" [{_num(interval[0])}, {_num(interval[1])}]"
    detail = (
        f"{ic['samples_with_ic']}/{ic['samples']} samples, {ic['chunks']} chunks, "
        f"{ic['unparseable']} unparseable"
    )
    failed = sum(v for k, v in ic["verdicts"].items() if k.startswith("failed_"))
    if failed:
        detail += f", {failed} failed calls"
    return value, detail


def _information_coverage(report: StatsReport) -> list[str]:
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
    for name, subset in report.subsets.items():
        value, detail = _ic_cell(subset.information_coverage)
        lines.append(f"| {name} | {value} | {detail} |")
    judge = report.settings["ic"]["judge"]
    if judge:
        lines += ["", f"Judge `{judge}`, prompt `{report.settings['ic']['prompt_version']}`."]
    return lines


def _summaries(report: StatsReport) -> list[str]:
    lines = ["## Summary statistics", ""]
    present: dict[str, SummariesPresent] = {}
    for name, subset in report.subsets.items():
        summaries = subset.summaries
        if summaries["status"] == "present":
            present[name] = summaries
        else:
            lines.append(f"- {name}: absent ({summaries['reason']})")
    shown = list(present)
    if not shown:
        return lines
    absent = len(report.subsets) > len(shown)
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


def _annotation(report: StatsReport) -> list[str]:
    lines = ["## Annotation", ""]
    rows = []
    for name, subset in report.subsets.items():
        figures = subset.annotation
        if figures["status"] != "present":
            lines.append(f"- {name}: absent ({figures['reason']})")
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


def _lengths(report: StatsReport) -> list[str]:
    lines = [
        "## Lengths",
        "",
        "| subset | tokenizer | n | min | Q1 | mean | max |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for subset in report.subsets.values():
        for row in subset.length_table:
            lines.append(
                f"| {row.subset} | `{row.tokenizer}` | {row.n} | {_num(row.min)} | "
                f"{_num(row.q1)} | {_num(row.mean)} | {_num(row.max)} |"
            )
    return lines


def render_stats_markdown(report: StatsReport, envelope: Envelope) -> str:
    counts = ", ".join(f"{name} {s.n}" for name, s in report.subsets.items())
    lines = [
        f"# Dataset statistics: {report.spec} {report.spec_version}",
        "",
        f"Samples per subset: {counts}. Computed by lengthwise {envelope.tool_version} "
        f"({report.stats_version}); Chinese words by {report.settings['segmenter_zh']}.",
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
