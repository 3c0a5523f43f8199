"""People-facing text about duplicates and refused runs: build report section, build output."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from lengthwise.builders.duplicates.stage import DuplicatesJson

if TYPE_CHECKING:
    from lengthwise.builders.build_record import SubsetReport


def duplicates_markdown(section: DuplicatesJson | None) -> list[str]:
    """The "Duplicate works" section of build_report.md (clusters, then repeated chapters)."""
    if section is None:
        return []
    keep = section["keep"]
    policy = (
        "one book per cluster is kept (most chapters, fewest numbering gaps, least noise, "
        "then id); the others are not sampled"
        if keep == "one"
        else 'every copy is kept (`keep = "all"`); samples of one work never overlap '
        "within a subset"
    )
    lines = ["", "## Duplicate works", "", f"{len(section['clusters'])} cluster(s); {policy}."]
    if section["clusters"]:
        lines += [
            "",
            "| cluster (kept book) | copy | chapters | kind | similarity | matching chapters "
            "| dropped |",
            "|---|---|---:|---|---:|---:|---|",
        ]
        for cluster in section["clusters"]:
            for m in cluster["members"]:
                lines.append(
                    f"| {cluster['kept']} | {m['book_id']} | {m['chapters']} | {m['kind']} "
                    f"| {m['similarity']:.2f} | {m['matched_chapters']} "
                    f"({m['chapter_share']:.0%}) | {'yes' if m['dropped'] else 'no'} |"
                )
    repeated = section["repeated_chapters"]
    lines += ["", f"Chapters printed twice inside a book (later copy dropped): {len(repeated)}."]
    if repeated:
        lines += ["", "| book | dropped chapter | repeats | similarity |", "|---|---|---|---:|"]
        for r in repeated:
            lines.append(
                f"| {r.book_id} | #{r.index} {r.heading} "
                f"| #{r.repeats_index} {r.repeats_heading} | {r.similarity:.2f} |"
            )
    return lines


def refusals_markdown(subsets: Mapping[str, SubsetReport]) -> list[str]:
    """Per subset: windows refused across numbering gaps, samples refused as copy overlaps."""
    lines = [
        "",
        "## Contiguity",
        "",
        "Windows refused because they would span a gap in the printed chapter numbering (or a "
        "restart at one with no part heading: another work in the same file), and candidates "
        "removed because they overlap a selected sample of a copy of the same work.",
        "",
        "| subset | refused across numbering gaps or restarts | removed as copy overlap |",
        "|---|---:|---:|",
    ]
    for name, sub in subsets.items():
        gaps = sub.refused_number_gaps
        lines.append(f"| {name} | {gaps} | {len(sub.refused_copy_overlap)} |")
    return lines


def dropped_lines(section: DuplicatesJson | None) -> list[str]:
    """Lines for the build's printed output naming every dropped duplicate."""
    if section is None:
        return []
    lines = [
        f"  dropped {m['book_id']}: {m['reason']}"
        for cluster in section["clusters"]
        for m in cluster["members"]
        if m["dropped"]
    ]
    repeated = section["repeated_chapters"]
    if repeated:
        books = sorted({r.book_id for r in repeated})
        lines.append(
            f"  dropped {len(repeated)} repeated chapter(s) in {', '.join(books)} "
            "(see build_report.md, Duplicate works)"
        )
    return lines
