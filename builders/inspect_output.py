"""What `lengthwise inspect` prints per book: readable lines, or its JSON entry.

The JSON entry is the book's `BookReport` with `tokens` narrowed to the first tokenizer
(`tokens_by_tokenizer` keeps them all), plus `duplicate_of` and `repeated_chapters`.
"""

from __future__ import annotations

from typing import Any

from lengthwise.builders.corpus_settings import BookReport
from lengthwise.builders.duplicates.inspect_view import DuplicateEntry
from lengthwise.json_records import plain_json

NOT_A_COPY: DuplicateEntry = {"duplicate_of": None, "repeated_chapters": []}


def json_entry(
    report: BookReport, copies: DuplicateEntry | None, tokenizer: str | None
) -> dict[str, Any]:
    """The book's object in `inspect --json` (the JSON contract of the command)."""
    entry = report.to_json()
    entry["tokens"] = report.tokens.get(tokenizer) if tokenizer else None
    if tokenizer:
        entry["tokens_by_tokenizer"] = report.tokens
    copies_json = plain_json(copies or NOT_A_COPY)
    assert isinstance(copies_json, dict)
    entry.update(copies_json)
    return entry


def failure_entry(path: str, reason: str) -> dict[str, Any]:
    """A source that could not be read, in the shape of a book entry."""
    return {
        "path": path,
        "title": None,
        "language": None,
        "encoding": None,
        "chapters": 0,
        "numbers": [],
        "gaps": [],
        "duplicates": [],
        "removed": {},
        "excluded": reason,
        "damage": {},
    }


def damage_summary(damage: dict[str, int]) -> str:
    """`placeholders 89, mojibake_chars 144 (5 runs)`; empty when nothing is damaged."""
    parts = [
        f"{name} {count}" for name, count in damage.items() if count and name != "mojibake_runs"
    ]
    if damage.get("mojibake_runs"):
        parts.append(f"in {damage['mojibake_runs']} mojibake runs")
    return ", ".join(parts)


def print_book(report: BookReport, copies: DuplicateEntry | None, tokenizer: str | None) -> None:
    """The human-readable `inspect` lines of one book."""
    status = f"excluded: {report.excluded}" if report.excluded else f"{report.chapters} chapters"
    print(f"{report.path}: {report.title!s} [{report.language}, {report.encoding}] {status}")
    if report.gaps:
        print(f"  gaps: {report.gaps}")
    if report.duplicates:
        print(f"  duplicates: {report.duplicates}")
    if report.split_numbers:
        print(f"  printed in parts (上/下, continued): {report.split_numbers}")
    copies = copies or NOT_A_COPY
    if copies["duplicate_of"]:
        print(f"  copy of {copies['duplicate_of']['kept']}: {copies['duplicate_of']}")
    for repeat in copies["repeated_chapters"]:
        print(f"  chapter #{repeat.index} repeats #{repeat.repeats_index}")
    for rule, count in sorted(report.removed.items()):
        print(f"  removed {count} x {rule}")
    for line in report.learned_boilerplate:
        print(f"  learned {line.rule} ({line.count} x, {line.why}): {line.line}")
    if report.outside_chapters:
        outside = report.outside_chapters
        print(f"  outside chapters: {outside['outside_chars']:,} chars ({outside['share']:.2%})")
    for warning in report.warnings:
        print(f"  warning: {warning}")
    damage = damage_summary(report.damage)
    if damage:
        print(f"  damaged characters left: {damage}")
    tokens = report.tokens.get(tokenizer) if tokenizer else None
    if tokens is not None:
        print(f"  tokens ({tokenizer}): {tokens:,}")
