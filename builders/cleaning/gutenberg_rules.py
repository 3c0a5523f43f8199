"""The `gutenberg` rule set: Project Gutenberg's header, licence, footer and credits.

Header: everything up to the last start marker found in the first half of the text,
where start markers are `*** START OF THE/THIS PROJECT GUTENBERG EBOOK … ***` and the
end of the old-style licence, `*END*THE SMALL PRINT! … *END*`.
Footer: everything from the first end marker found in the second half (`*** END OF
THE/THIS PROJECT GUTENBERG EBOOK`, `End of the Project Gutenberg EBook of …`,
`End of Project Gutenberg's …`). Halves keep a stray marker-like line in the middle
of a book from cutting the story.
"""

from __future__ import annotations

import re

from lengthwise.builders.cleaning.rules import HSPACE, BlockRule, Span

_START_MARKER = re.compile(
    r"^[^\S\n]*(?:\*{3}[^\S\n]*START OF (?:THE|THIS) PROJECT GUTENBERG E-?(?:BOOK|TEXT)"
    r"|\*END\*[^\S\n]*THE SMALL PRINT!)[^\n]*$",
    re.IGNORECASE | re.MULTILINE,
)
_END_MARKER = re.compile(
    r"^[^\S\n]*(?:\*{3}[^\S\n]*END OF (?:THE|THIS) PROJECT GUTENBERG E-?(?:BOOK|TEXT)"
    r"|End of (?:the |this )?Project Gutenberg(?:'s|’s)?\b)",
    re.IGNORECASE | re.MULTILINE,
)
# Markers are searched near the ends only: a header or footer is tens of kilobytes.
_SEARCH_CHARS = 120_000


def _header(text: str) -> list[Span]:
    limit = min(len(text) // 2, _SEARCH_CHARS)
    markers = list(_START_MARKER.finditer(text, 0, limit))
    if not markers:
        return []
    end = text.find("\n", markers[-1].end())
    return [(0, len(text) if end < 0 else end + 1)]


def _footer(text: str) -> list[Span]:
    start = max(len(text) // 2, len(text) - _SEARCH_CHARS)
    found = _END_MARKER.search(text, start)
    return [] if found is None else [(found.start(), len(text))]


_PG_TRIGGERS = ("GUTENBERG", "Gutenberg", "gutenberg", "SMALL PRINT", "Small Print")

HEADER = BlockRule(
    name="gutenberg/header",
    description="Project Gutenberg header and old-style licence, up to the last "
    "`*** START OF … ***` / `*END*THE SMALL PRINT!` line in the first half.",
    find_blocks=_header,
    triggers=_PG_TRIGGERS,
)

FOOTER = BlockRule(
    name="gutenberg/footer",
    description="Project Gutenberg footer and licence, from the first `*** END OF …` / "
    "`End of the Project Gutenberg EBook` line in the second half to the end.",
    find_blocks=_footer,
    triggers=_PG_TRIGGERS,
)

# Credits sit at a paragraph start near the top (once the header is cut); the first
# word is case-sensitive so that a wrapped story line "produced by …" never matches.
_CREDIT = re.compile(
    rf"(?:\A|(?<=\n\n)){HSPACE}*(?:Produced|Prepared|E-?[Tt]ext prepared|This e-?(?:text|book) "
    rf"was (?:produced|prepared)|Transcribed from[^\n]{{0,80}}?){HSPACE}+by\b[^\n]*"
    rf"(?:\n{HSPACE}*\S[^\n]*){{0,3}}(?=\n{HSPACE}*\n|\n?\Z)"
)
_CREDIT_SEARCH_CHARS = 20_000


def _credits(text: str) -> list[Span]:
    return [m.span() for m in _CREDIT.finditer(text, 0, min(len(text), _CREDIT_SEARCH_CHARS))]


PRODUCED_BY = BlockRule(
    name="gutenberg/produced-by",
    description="Credit paragraphs near the top of the e-text (Produced by …, E-text "
    "prepared by …, Transcribed from the … edition by …), up to four lines.",
    find_blocks=_credits,
)


RULES: tuple[BlockRule, ...] = (HEADER, FOOTER, PRODUCED_BY)
