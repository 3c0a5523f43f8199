"""The "Book structure" section of build_report.md: what chapter detection could not fit.

Per book: text outside chapters (front/back/between spans with size and first words; the
largest, and every span kept out with a note, such as a second work's front matter),
numbering gaps and duplicates, and the structure warnings (length outliers, headings that
hold body text, heading lines left inside chapters). Books with nothing to say are left out;
spans are listed in full (largest first) only for books over `chapters.max_outside_share`.
"""

from __future__ import annotations

from lengthwise.builders.corpus_settings import BookReport

MAX_SPANS = 5


def render_structure_section(books: list[BookReport]) -> list[str]:
    """Markdown lines for the section (a heading and a line saying all is well when it is)."""
    lines = ["", "## Book structure (text outside chapters, numbering, warnings)", ""]
    noted = [book for book in books if _notes(book)]
    if not noted:
        return [*lines, "Every book's text is inside its chapters; no numbering problems."]
    for book in noted:
        lines.append(f"- **{book.title}** (`{book.path}`)")
        lines += [
            f"    - {note.strip()}" if note.startswith("  ") else f"  - {note}"
            for note in _notes(book)
        ]
    return lines


def _notes(book: BookReport) -> list[str]:
    notes: list[str] = []
    if book.story_collection and not book.excluded:
        notes.append("story collection: each unit is a story; samples are runs of whole stories")
    outside = book.outside_chapters
    if outside and outside["spans"]:
        notes.append(
            f"text outside chapters: {outside['outside_chars']:,} of "
            f"{outside['text_chars']:,} chars ({outside['share']:.2%})"
        )
        over = any("outside chapters" in w for w in book.warnings)
        largest = sorted(outside["spans"], key=lambda s: -s["length"])[: MAX_SPANS if over else 1]
        # A span a step kept out on purpose says why: listed whatever its size.
        shown = largest + [s for s in outside["spans"] if s["note"] and s not in largest]
        for span in shown:
            why = f" — {span['note']}" if span["note"] else ""
            notes.append(
                f"  {span['kind']} matter, {span['length']:,} chars at offset "
                f'{span["offset"]:,}: "{span["first_words"]}"{why}'
            )
    if book.gaps:
        missing = ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in book.gaps)
        notes.append(f"missing chapter numbers: {missing}")
    if book.duplicates:
        notes.append(f"chapter numbers printed twice: {', '.join(map(str, book.duplicates))}")
    if book.split_numbers:
        numbers = ", ".join(map(str, book.split_numbers))
        notes.append(f"chapters printed in parts, kept as consecutive chapters: {numbers}")
    if book.front_matter_headings:
        notes.append(f"headings kept out as front matter: {'; '.join(book.front_matter_headings)}")
    notes += [f"warning: {w}" for w in book.warnings]
    return notes
