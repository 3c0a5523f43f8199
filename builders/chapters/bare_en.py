"""English chapters headed by a number alone, however it is printed.

Modern editions and e-book conversions head chapters with `ONE`, `Twenty-One`, `— 12 —`,
`* 3 *`, `§ 4` or `[XII]`: a number (digits, capital roman numerals, or number words in
capitals or title case) with decoration around it and at most a title after a
separator, on a line set off by blank lines (in a book without blank lines: after a
line that ends a paragraph, `layout.Layout`). Such lines are only looked for in a book
whose keyword headings number fewer than 5 chapters and where plain `12`/`XII.` lines
did not number more (`detect._detect_with`), and are then believed like any bare number:
an increasing chain whose chapters carry real text.
"""

from __future__ import annotations

import re

from lengthwise.builders.chapters.en_numerals import parse_english_number, parse_heading_number
from lengthwise.builders.chapters.layout import Layout
from lengthwise.builders.chapters.model import Candidate
from lengthwise.builders.chapters.next_line_titles import title_after

# A short line after a blank line (or the text's start: the text is searched with two
# newlines prepended); below it a blank line, the text's end, or a title line.
_LINE_AFTER_BLANK = re.compile(
    r"(?<=\n)[ \t]*\n(?P<line>[^\n]{1,80})(?P<blank_below>\n[ \t]*\n|\n?\Z)?"
)
# In a book without blank lines: any short line (below it, for a title, as above).
_SHORT_LINE = re.compile(
    r"(?<=\n)(?P<line>[^\n]{1,80})(?:(?P<blank_below>\n[ \t]*\n|\n?\Z)|(?=\n))"
)
_DECORATION = r"[^\w\s]{0,3}"
_HEADING = re.compile(
    rf"[ \t]*{_DECORATION}[ \t]*"
    r"(?P<num>[0-9]{1,3}|[A-Za-z]+(?:[- ][A-Za-z]+){0,3})"
    rf"[ \t]*{_DECORATION}"
    r"(?:[ \t]*[:—–-][ \t]*(?P<title>[A-Z][^\n]{0,60}?))?"
    rf"[ \t]*{_DECORATION}[ \t]*"
)


def find_en_loose_bare_candidates(text: str) -> list[Candidate]:
    """Standalone number lines (decorated or in words) as `bare` candidates, in text order."""
    found: list[Candidate] = []
    searched = "\n\n" + text
    layout = Layout.of(text)
    lines = _LINE_AFTER_BLANK if layout.blank_line_paragraphs else _SHORT_LINE
    for match in lines.finditer(searched):
        line = match.group("line")
        heading = _HEADING.fullmatch(line)
        if heading is None:
            continue
        if not layout.blank_line_paragraphs and not layout.ends_paragraph(
            searched, match.start("line")
        ):
            continue
        token = heading.group("num")
        number = parse_heading_number(token)
        # Printed as headings are: number words capitalised (`One`, `ONE`, never `one`),
        # roman numerals in capitals (`XII`; `Mix` and `Liv` are words).
        if number is None or not (token[0].isupper() or token.isdigit()):
            continue
        if parse_english_number(token) is None and not token.isdigit() and not token.isupper():
            continue
        start = match.start("line") - 2 + len(line) - len(line.lstrip(" \t"))
        end = match.end("line") - 2
        title = heading.group("title") or ""
        heading_text = line.strip()
        below = None if title else title_after(text, end)
        own_line_end = None
        if below is not None:
            own_line_end = end
            title, end = below[0], below[1]
            heading_text = f"{heading_text}\n{title}"
        elif match.group("blank_below") is None and layout.blank_line_paragraphs:
            continue  # a line in a paragraph, not one set off as a heading
        found.append(
            Candidate(
                start=start,
                end=end,
                level="bare",
                family="bare",
                number=number,
                heading=heading_text,
                title=title.strip(),
                own_line_end=own_line_end,
            )
        )
    return found
