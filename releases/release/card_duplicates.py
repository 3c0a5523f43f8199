"""Dataset card: the books left out (or kept) as copies of another book, with reasons."""

from __future__ import annotations

from lengthwise.builders.duplicates.stage import DuplicatesJson


def duplicate_books_lines(section: DuplicatesJson) -> list[str]:
    """Lines under the corpus table: every duplicate book, its kept copy and the figures."""
    if not section["clusters"]:
        return []
    keep_all = section["keep"] == "all"
    lines = [
        "",
        "Duplicate books (copies of one work found by MinHash similarity"
        + (
            "; all copies kept, their samples never overlap within a subset):"
            if keep_all
            else "; one copy kept, the others not sampled):"
        ),
        "",
        "| book | copy of | similarity | matching chapters | status |",
        "|---|---|---:|---:|---|",
    ]
    for cluster in section["clusters"]:
        for member in cluster["members"]:
            status = "kept" if not member["dropped"] else f"dropped: {member['reason']}"
            lines.append(
                f"| {member['book_id']} | {cluster['kept']} | {member['similarity']:.2f} "
                f"| {member['matched_chapters']} ({member['chapter_share']:.0%}) | {status} |"
            )
    repeated = section["repeated_chapters"]
    if repeated:
        lines += [
            "",
            f"{len(repeated)} chapter(s) printed twice inside a book were kept once: "
            + "; ".join(f"{r.book_id} #{r.index} repeats #{r.repeats_index}" for r in repeated)
            + ".",
        ]
    return lines
