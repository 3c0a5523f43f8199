"""English block rules: notices, illustrations and footnote blocks, whole (back matter:
`back_matter.py`).

Each is a `CuedBlockRule` (see `blocks`): an opening cue plus a structural end; transcriber's
notes are a plain `BlockRule`.

* `en/notice-block`: copyright/disclaimer blocks (`COPYRIGHT, 1850 …`, `DISCLAIMER: …`,
  `All rights reserved.`): from the cue line over every following paragraph that is
  still made of notice vocabulary (rights, publisher, printed, edition, years …).
* `en/illustration`: `[Illustration: …]` up to its closing bracket, however many lines
  the caption (and the picture's copyright line) takes; a chapter heading inside the
  brackets (`[Illustration: CHAPTER I. PLAYING PILGRIMS]`) is kept as its own line.
  Inline placeholders inside a sentence go too.
* `en/footnote-block`: a `FOOTNOTES:` / `NOTES` section whose entries start with
  markers (to the next heading or the end), and single footnote paragraphs (`[1] …`,
  `[A] …` at a line start) whose marker occurs glued to a word in the text before or
  which sit in a run of such paragraphs.
* `en/transcriber-note`: `[Transcriber's Note: …]` anywhere, or a `Transcriber's Notes`
  section: every edition made by volunteers has them, not only Gutenberg's.
"""

from __future__ import annotations

import re

from lengthwise.builders.chapters.layout import Layout
from lengthwise.builders.cleaning.blocks import (
    Block,
    BlockCue,
    CuedBlockRule,
    find_blocks,
    line_paragraph_end,
    line_paragraphs_width,
)
from lengthwise.builders.cleaning.rules import HSPACE, BlockRule, Span, occurs
from lengthwise.builders.cleaning.structure_lines import is_heading_line

_EN = ("en",)

_NOTICE_VOCABULARY = re.compile(
    r"(?i:\b(?:copyright\w*|rights?|reserved|permission|publish\w*|printed|printers?|"
    r"press|edition|licen[cs]\w*|disclaim\w*|warrant\w*|liab\w*|trademarks?|reproduc\w*|"
    r"distribut\w*|commercial|electronic|e-?books?|e-?texts?|isbn|inc|ltd|co|company|"
    r"sons|brothers|holders?|accuracy|errors?|use|personal|written)\b)|\b1[6-9]\d\d\b|\b20\d\d\b|©"
)
NOTICE_CUE = BlockCue(
    opening=re.compile(
        rf"\n{HSPACE}*(?:COPYRIGHT|Copyright|©|ALL RIGHTS RESERVED|"
        r"All rights reserved|DISCLAIMER|Disclaimer|LEGAL NOTICE|Legal [Nn]otice)"
    ),
    end="vocabulary",
    vocabulary=_NOTICE_VOCABULARY,
    density=0.2,
    min_density=0.12,
    # No anchors: the opening starts with a literal newline, and one regex scan of the
    # line starts is cheaper than ten anchor searches.
)

NOTICE_BLOCK = CuedBlockRule(
    name="en/notice-block",
    description="Copyright and disclaimer blocks (COPYRIGHT …, DISCLAIMER: …, All rights "
    "reserved): the cue's paragraph and the following paragraphs still dense in notice "
    "vocabulary (rights, publisher, printed, edition, years), never past a heading.",
    finder=lambda text: find_blocks(text, NOTICE_CUE),
    languages=_EN,
)

# --- illustrations -------------------------------------------------------------------

# What editions put in brackets where a picture was: `[Illustration: …]` (Gutenberg),
# `[Image: …]`, `[Decoration]`, `[Picture: …]`, `[Frontispiece]`, `[Plate III]`, `[Map]`.
# A class of words, not one site's label; the word must end there (`[Picturesque…` is not one).
_PICTURE_WORD = (
    r"(?i:illustrations?|frontispiece|images?|pictures?|decorations?|ornaments?|figures?|"
    r"fig|plates?|photo(?:graph)?s?|maps?|drawings?|sketch(?:es)?|engravings?|portraits?|"
    r"vignettes?|head-?pieces?|tail-?pieces?|diagrams?|graphics?|emblems?|cover)"
    r"(?=[\]:.\s\d-])"
)
_ILLUSTRATION_CUE = BlockCue(
    opening=re.compile(rf"\n[ \t]*\[{_PICTURE_WORD}"),
    end="bracket",
)
_INLINE_ILLUSTRATION = re.compile(rf"{HSPACE}?\[{_PICTURE_WORD}(?:[:.]?[^\]\[]{{0,1500}})?\]")
_ILLUSTRATION_LABEL = re.compile(rf"^\s*\[{_PICTURE_WORD}[:.]?|\]\s*$")


def _headings_inside(block: str) -> list[str]:
    """The heading lines inside an illustration block (its caption may be a chapter title)."""
    lines = [_ILLUSTRATION_LABEL.sub("", line).strip() for line in block.split("\n")]
    return [line for line in lines if line and is_heading_line(line)]


def _illustrations(text: str) -> list[Block]:
    blocks = find_blocks(text, _ILLUSTRATION_CUE, keep_lines=_headings_inside)
    spans = [(b.start, b.end) for b in blocks]
    inline: list[Block] = []
    index = 0
    for match in _INLINE_ILLUSTRATION.finditer(text):
        while index < len(spans) and spans[index][1] <= match.start():
            index += 1
        if index < len(spans) and spans[index][0] < match.end():
            continue  # inside a block found above
        inline.append(Block(match.start(), match.end()))
    return sorted([*blocks, *inline], key=lambda block: block.start)


ILLUSTRATION = CuedBlockRule(
    name="en/illustration",
    description="[Illustration], [Illustration: caption …] and other picture placeholders "
    "([Image: …], [Decoration], [Picture …], [Plate III], [Map]) up to their closing "
    "bracket (captions and credit lines over several lines included); a chapter heading "
    "inside one is kept on its own line.",
    finder=_illustrations,
    languages=_EN,
    gate=re.compile(rf"\[{_PICTURE_WORD}"),  # starts with a literal: fast
)

# --- footnotes -----------------------------------------------------------------------

_MARKER = r"\[(?:\d{1,3}|[A-Z]|\*{1,3})\]"
_FOOTNOTE_SECTION = BlockCue(
    opening=re.compile(
        rf"\n{HSPACE}*(?:FOOTNOTES|Footnotes|(?:END ?)?NOTES|(?:End ?)?[Nn]otes)[:.]?{HSPACE}*\n"
        rf"(?:{HSPACE}*\n)*"
        rf"{HSPACE}*(?:{_MARKER}|\d{{1,3}}\.{HSPACE})"
    ),
    end="to-end",
    max_chars=200_000,
)
# Starts with the literal `[` (fast scan); where it stands is checked apart.
_MARKED_LINE = re.compile(rf"(?P<marker>{_MARKER}){HSPACE}+\S")
_PARAGRAPH_END = re.compile(r"\n[^\S\n]*\n|\Z")
_LOOKBACK = 50_000
_RUN_GAP = 3000


def _opens_paragraph(text: str, position: int, layout: Layout) -> int | None:
    """The line start when `position` begins a paragraph (only indentation before it):
    after a blank line, or in a book without blank lines, after a paragraph's end."""
    start = text.rfind("\n", 0, position) + 1
    if text[start:position].strip(" \t"):
        return None
    if start == 0:
        return 0
    if not layout.blank_line_paragraphs:
        return start if layout.ends_paragraph(text, start) else None
    above = text.rfind("\n", 0, start - 1) + 1
    return start if not text[above : start - 1].strip() else None


def _paragraph_end(text: str, start: int, width: int | None) -> int:
    """Where the paragraph opening at `start` ends: at the blank line after it, or, in a
    book without blank lines (`width` given), where `line_paragraph_end` says."""
    if width is None:
        end = _PARAGRAPH_END.search(text, start)
        return len(text) if end is None else end.start()
    return line_paragraph_end(text, start, width)


def _footnote_paragraphs(text: str, taken: list[Block]) -> list[Block]:
    if not occurs(text, "["):  # a one-character search is cheaper than the regex's scan
        return []
    layout = Layout.of(text)
    width = line_paragraphs_width(text)
    openings: list[tuple[int, str]] = []
    for match in _MARKED_LINE.finditer(text):
        start = _opens_paragraph(text, match.start(), layout)
        if start is not None and not any(b.start <= start < b.end for b in taken):
            openings.append((start, match.group("marker")))
    found: list[Block] = []
    for number, (start, marker) in enumerate(openings):
        before = text[max(0, start - _LOOKBACK) : start]
        glued = re.search(rf"[\w.,;:!?'\"’”)]{re.escape(marker)}", before) is not None
        neighbours = openings[max(0, number - 1) : number] + openings[number + 1 : number + 2]
        in_run = any(abs(other - start) < _RUN_GAP for other, _ in neighbours)
        if glued or in_run:
            found.append(Block(start, _paragraph_end(text, start, width)))
    return found


def _footnotes(text: str) -> list[Block]:
    sections = find_blocks(text, _FOOTNOTE_SECTION)
    return sorted([*sections, *_footnote_paragraphs(text, sections)], key=lambda b: b.start)


FOOTNOTE_BLOCK = CuedBlockRule(
    name="en/footnote-block",
    description="Footnote sections (FOOTNOTES:/NOTES followed by marked entries, to the next "
    "heading or the end) and footnote paragraphs ([1] …, [A] … at a line start) whose "
    "marker is glued to a word earlier or that come in a run.",
    finder=_footnotes,
    languages=_EN,
    # No triggers: the finder's own scans (line starts, `[`) cost less than two more.
)

# --- transcriber's notes ---------------------------------------------------------

# Gutenberg, Faded Page, Distributed Proofreaders and Wikisource editions all carry them.
_BRACKETED_NOTE = re.compile(r"\[Transcriber['’]?s? [Nn]otes?[^\]]{0,3000}\]", re.IGNORECASE)
_NOTE_HEADING = re.compile(
    rf"\n{HSPACE}*(?:Original )?Transcriber['’]?s? Notes?(?:{HSPACE}*:)?"
    rf"(?P<alone>{HSPACE}*(?=\n))?",
    re.IGNORECASE,
)
_PARAGRAPH_GAP = re.compile(rf"\n{HSPACE}*\n|\Z")
_SECTION_GAP = re.compile(rf"\n(?:{HSPACE}*\n){{2,}}|\Z")


def _line_end_after(text: str, position: int, lines: int) -> int:
    """Where the `lines`-th line break at or after `position` stands (or the text's end)."""
    found = position - 1
    for _ in range(lines):
        found = text.find("\n", found + 1)
        if found < 0:
            return len(text)
    return found


def _transcriber_notes(text: str) -> list[Span]:
    spans: list[Span] = [match.span() for match in _BRACKETED_NOTE.finditer(text)]
    work = "\n" + text
    blank_line_paragraphs = Layout.of(text).blank_line_paragraphs
    for match in _NOTE_HEADING.finditer(work):
        # A heading alone on its line takes the paragraphs below it up to a gap of
        # two or more blank lines; a heading with text after it takes its paragraph.
        # Without blank lines in the book, a paragraph is a line: the heading takes the
        # line below it, a heading with text its own line (the rest stays: no gap says
        # where the notes end).
        if not blank_line_paragraphs:  # (with its line break: no blank line is left)
            lines = 2 if match.group("alone") is not None else 1
            end = min(len(work), _line_end_after(work, match.end(), lines) + 1)
        else:
            stop = _SECTION_GAP if match.group("alone") is not None else _PARAGRAPH_GAP
            gap = stop.search(work, match.end())
            end = len(work) if gap is None else gap.start()
        if end - match.end() <= 3000:
            spans.append((match.start(), end - 1))
    return spans


TRANSCRIBER_NOTE = BlockRule(
    name="en/transcriber-note",
    description="Transcriber's notes: [Transcriber's Note: …] anywhere, or a "
    "`Transcriber's Notes` section (heading and its paragraphs, up to 3000 chars).",
    find_blocks=_transcriber_notes,
    triggers=("ranscriber", "RANSCRIBER"),
    languages=_EN,
)
