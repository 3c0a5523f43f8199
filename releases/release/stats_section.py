"""The statistics part of the card: build length tables plus `lengthwise stats` output.

The statistics command (lengthwise.releases.stats) writes WORK/stats/stats.json and
stats.md. The card embeds its markdown when present (headings shifted under the
card's own), falls back to a generic table of the JSON's numbers, and otherwise says
plainly that the statistics were not computed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lengthwise.builders.build_record import BuildReport
from lengthwise.errors import InputFileError
from lengthwise.storage import read_json, sha256_file
from lengthwise.workdir import WorkDir


@dataclass(frozen=True)
class StatsInputs:
    json_path: Path | None  # stats.json when present
    markdown: str | None  # stats.md when present
    data: dict[str, Any] | None
    stale: bool  # computed on other samples than the ones released
    missing_reason: str | None


def stats_dir(work_root: Path) -> Path:
    return WorkDir(work_root).stats.folder


def read_stats(work_root: Path, rows: Mapping[str, int], inputs: Mapping[str, Path]) -> StatsInputs:
    """What `lengthwise stats` left in the work dir, and whether it describes these samples.

    `rows` is the released row count per subset and `inputs` the samples file each subset
    was read from. The statistics are stale when a subset's count differs, or when the
    report records input file hashes (`inputs`) that no longer match.
    """
    folder = stats_dir(work_root)
    json_path, md_path = folder / "stats.json", folder / "stats.md"
    if not json_path.is_file():
        return StatsInputs(
            None,
            None,
            None,
            False,
            f"statistics were not computed ({json_path.name} not found in {folder.name}/; "
            "run `lengthwise stats SPEC.toml` before `lengthwise release`)",
        )
    try:
        data = read_json(json_path)
    except ValueError as exc:
        raise InputFileError(f"{json_path}: not valid JSON: {exc}") from None
    data = data if isinstance(data, dict) else {}
    markdown = md_path.read_text(encoding="utf-8") if md_path.is_file() else None
    return StatsInputs(json_path, markdown, data, _stale(data, rows, inputs), None)


def _stale(data: dict[str, Any], rows: Mapping[str, int], inputs: Mapping[str, Path]) -> bool:
    subsets = data.get("subsets")
    if isinstance(subsets, dict):
        for name, count in rows.items():
            entry = subsets.get(name)
            if not isinstance(entry, dict) or entry.get("n", count) != count:
                return True
    recorded = data.get("inputs")
    if isinstance(recorded, dict):
        for name, path in inputs.items():
            if name in recorded and recorded[name] != sha256_file(path):
                return True
    return False


def _shift_headings(markdown: str, levels: int) -> str:
    """Demote headings so an embedded report nests under the card's section."""
    lines = []
    for line in markdown.splitlines():
        match = re.match(r"^(#{1,6})\s", line)
        if match:
            depth = min(6, len(match.group(1)) + levels)
            line = "#" * depth + line[len(match.group(1)) :]
        lines.append(line)
    return "\n".join(lines).strip()


def _flat_numbers(value: Any, prefix: str = "") -> list[tuple[str, float | int]]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [(prefix, value)]
    if isinstance(value, dict):
        items: list[tuple[str, float | int]] = []
        for key, item in value.items():
            items += _flat_numbers(item, f"{prefix}.{key}" if prefix else str(key))
        return items
    return []


def _generic_table(data: dict[str, Any]) -> str:
    rows = _flat_numbers(data)
    if not rows:
        return "The statistics file holds no numeric figures."
    lines = ["| figure | value |", "|---|---:|"]
    lines += [f"| {key} | {value:.4g} |" for key, value in rows[:200]]
    return "\n".join(lines)


def stats_markdown(stats: StatsInputs) -> str:
    """The '### Dataset statistics' body for the card."""
    if stats.missing_reason is not None:
        return f"**Not computed:** {stats.missing_reason}."
    note = (
        "\n\n> Note: these statistics were computed on other samples than the released ones "
        "(before the last build or annotation); rerun `lengthwise stats` for figures that "
        "match this release."
        if stats.stale
        else ""
    )
    body = (
        _shift_headings(stats.markdown, 3) if stats.markdown else _generic_table(stats.data or {})
    )
    return (
        "Computed by `lengthwise stats` (information coverage, uniformity, compression, "
        "extractive coverage and density, redundancy); the full figures ship in "
        f"`statistics.json`.{note}\n\n{body}"
    )


def length_table_markdown(report: BuildReport, tokenizer_names: dict[str, str]) -> str:
    """Sample lengths per subset and tokenizer, from the build report."""
    rows = report.length_table
    if not rows:
        return "The build report has no length table."
    lines = [
        "| subset | tokenizer | n | min | Q1 | mean | max |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        name = tokenizer_names.get(row.tokenizer, row.tokenizer)
        lines.append(
            f"| {row.subset} | `{name}` | {row.n} | {_num(row.min)} | {_num(row.q1)} "
            f"| {_num(row.mean)} | {_num(row.max)} |"
        )
    return "\n".join(lines)


def efficiency_markdown(report: BuildReport, tokenizer_names: dict[str, str]) -> str:
    """Characters per token by language and tokenizer (CNNSum's Table 1), from the build."""
    rows = report.encoding_efficiency
    if not rows:
        return "The build report has no encoding efficiency table."
    lines = [
        "| language | tokenizer | characters | tokens | chars/token |",
        "|---|---|---:|---:|---:|",
    ]
    for row in rows:
        name = tokenizer_names.get(row.tokenizer, row.tokenizer)
        lines.append(
            f"| {row.language} | `{name}` | {_num(row.characters)} | {_num(row.tokens)} "
            f"| {_num(row.chars_per_token)} |"
        )
    return "\n".join(lines)


def _num(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}" if abs(value) < 100 else f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
