"""The audit in markdown: share of samples with findings, per class, the worst samples."""

from __future__ import annotations

from lengthwise.builders.audit.findings import FINDING_CLASSES, SHORT_NAMES
from lengthwise.builders.audit.summary import AuditSummary, WorstSampleJson

SNIPPET_WIDTH = 90


def share_sentence(summary: AuditSummary) -> str:
    """One sentence for reports and the dataset card."""
    samples, found = summary.samples, summary.with_findings
    if not samples:
        return "The residual-noise audit had no samples to look at."
    return (
        f"{found} of {samples} samples ({found / samples:.0%}) have at least one "
        "residual-noise finding."
    )


def render_audit_section(summary: AuditSummary, heading: str = "##") -> str:
    lines = [f"{heading} Residual-noise audit", "", share_sentence(summary), ""]
    lines += ["| class | samples | findings | what |", "|---|---:|---:|---|"]
    for kind, what in FINDING_CLASSES.items():
        figures = summary.by_class[kind]
        lines.append(f"| {kind} | {figures['samples']} | {figures['findings']} | {what} |")
    lines += ["", *_worst_table(summary.worst)]
    lines += _dropped_lines(summary)
    lines += ["", f"Every sample's findings: `{summary.file}`."]
    return "\n".join(lines)


def _worst_table(worst: list[WorstSampleJson]) -> list[str]:
    if not worst:
        return ["No sample has a finding."]
    columns = " | ".join(SHORT_NAMES[k] for k in FINDING_CLASSES)
    lines = [
        f"Worst samples ({len(worst)}):",
        "",
        f"| sample | total | {columns} | first snippet |",
        "|---|---:|" + "---:|" * len(FINDING_CLASSES) + "---|",
    ]
    for row in worst:
        counts = " | ".join(str(row["counts"].get(k, 0) or "") for k in FINDING_CLASSES)
        dropped = " (dropped)" if row.get("dropped") else ""
        lines.append(
            f"| {row['id']}{dropped} | {row['total']} | {counts} | {_cell(row['first_snippet'])} |"
        )
    return lines


def _dropped_lines(summary: AuditSummary) -> list[str]:
    dropped = summary.dropped
    if not dropped:
        return []
    lines = ["", f"Dropped by the audit ({len(dropped)}):", ""]
    lines += [f"- {d['subset']} {d['id']}: {d['reason']}" for d in dropped]
    return lines


def _cell(text: str) -> str:
    text = text.replace("|", "\\|")
    return text if len(text) <= SNIPPET_WIDTH else text[: SNIPPET_WIDTH - 1] + "…"
