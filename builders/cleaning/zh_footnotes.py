"""`zh/footnotes`: an annotated edition's notes and the markers that refer to them.

Chinese editions converted from annotated print or ebooks end chapters with a notes
section (`注释：`, `【注释】`, `注：`, `校注` on a line of its own, then entries opening
with a marker: `〔1〕`, `［1］`, `[1]`, `【1】`, `①`) and mark the annotated words in the
text with the same markers glued to them (`司马〔1〕`, `官名①，`). Both go, as a pair:
the section from its heading to the next chapter heading (or `MAX_SECTION_CHARS`), and
every marker glued to an ideograph or punctuation elsewhere, only in a book that has
such a section (a lone `[1]` in a story without notes is left). `cleaning.footnotes =
"keep"` keeps both.

Some editions print the entries without a heading, as the chapter's last lines. A run
of entry lines numbered from 1 (`〔1〕…`, `〔2〕…`) that a chapter heading or the end of
the text follows is such a section when the book has `MIN_HEADLESS` of them (a habit,
not a list the story ends a chapter on); it goes with the markers glued to the text of
its own chapter (since the previous run, within `LOOKBACK` characters).
"""

from __future__ import annotations

import re
import unicodedata

from lengthwise.builders.cleaning.blocks import BlockCue, find_blocks
from lengthwise.builders.cleaning.rules import HSPACE, BlockRule, Span
from lengthwise.builders.cleaning.structure_lines import is_heading_line

MAX_SECTION_CHARS = 20_000
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
_MARK = rf"(?:〔\d{{1,3}}〕|［\d{{1,3}}］|\[\d{{1,3}}\]|【\d{{1,3}}】|[{_CIRCLED}])"
_HEADING = r"(?:【注释?】|〔注释?〕|［注释?］|\[注释?\]|注释|注解|校注|注)"
_NOTE_SECTION = BlockCue(
    opening=re.compile(rf"\n{HSPACE}*{_HEADING}[：:]?{HSPACE}*\n(?:{HSPACE}*\n)*{HSPACE}*{_MARK}"),
    end="to-end",  # every end stops at the next heading: the chapter's notes only
    max_chars=MAX_SECTION_CHARS,
    anchors=("注",),
)
# The marker first (its first characters are a small set the engine scans for), what
# stands before it checked apart.
_MARKER = re.compile(_MARK)
_ENTRY = re.compile(rf"^{HSPACE}*(?P<mark>{_MARK})", re.MULTILINE)  # a note's own marker
# A whole line that is a note entry: a marker, then text. The pattern opens with a
# literal newline (the engine jumps from one to the next; `^` with MULTILINE was tried at
# every position); a book's first line is no note.
_ENTRY_LINE = re.compile(rf"\n(?P<line>{HSPACE}*(?P<mark>{_MARK}){HSPACE}*\S[^\n]*)")
_NEXT_LINE = re.compile(r"\s*?\n(?P<line>[^\n]*\S[^\n]*)")  # the next non-blank line
MIN_HEADLESS = 3  # runs of entries ending chapters: a habit of the book, not a list
LOOKBACK = 50_000


def _glued(text: str, start: int) -> bool:
    """Right after an ideograph or a punctuation mark (any: `．`, `"` in web texts)."""
    if start == 0:
        return False
    before = text[start - 1]
    return "\u4e00" <= before <= "\u9fff" or unicodedata.category(before).startswith("P")


def _number(mark: str) -> int:
    return _CIRCLED.index(mark) + 1 if mark in _CIRCLED else int(mark[1:-1])


def _headless_sections(text: str) -> list[tuple[int, int, frozenset[str]]]:
    """Runs of note entries numbered from 1 that end a chapter, without a heading:
    (start, end, their markers). Only where the book has `MIN_HEADLESS` of them."""
    runs: list[list[re.Match[str]]] = []
    for entry in _ENTRY_LINE.finditer(text):
        previous = runs[-1][-1] if runs else None
        if previous is not None and not text[previous.end() : entry.start("line")].strip():
            runs[-1].append(entry)
        else:
            runs.append([entry])
    found = []
    for run in runs:
        marks = [entry.group("mark") for entry in run]
        if [_number(mark) for mark in marks] != list(range(1, len(marks) + 1)):
            continue
        after = _NEXT_LINE.match(text, run[-1].end())
        follows = "" if after is None else after.group("line")
        if follows and not is_heading_line(follows):
            continue  # the story goes on: a list in the text, not the chapter's notes
        end = run[-1].end() if after is None else after.start("line")
        found.append((run[0].start("line"), end, frozenset(marks)))
    return found if len(found) >= MIN_HEADLESS else []


def _glued_markers(
    text: str, window: tuple[int, int], marks: frozenset[str], skip: list[Span]
) -> list[Span]:
    """Markers in `marks` glued to the text in `window`, outside the `skip` spans."""
    return [
        match.span()
        for match in _MARKER.finditer(text, *window)
        if match.group() in marks
        and _glued(text, match.start())
        and not any(start <= match.start() < end for start, end in skip)
    ]


def zh_footnotes(text: str) -> list[Span]:
    """The notes sections and the markers glued in the text that refer to them."""
    sections = [(block.start, block.end) for block in find_blocks(text, _NOTE_SECTION)]
    spans: list[Span] = list(sections)
    if sections:
        # Only markers the notes use (`〔1〕`, `〔2〕`): a stray `④` in damaged text stays.
        entries = frozenset(
            match.group("mark")
            for start, end in sections
            for match in _ENTRY.finditer(text, start, end)
        )
        spans += _glued_markers(text, (0, len(text)), entries, sections)
    previous_end = 0
    for start, end, marks in _headless_sections(text):
        if not any(a <= start < b for a, b in sections):
            # A headless run's markers are looked for in its own chapter's text only.
            window = (max(previous_end, start - LOOKBACK), start)
            spans += [(start, end), *_glued_markers(text, window, marks, sections)]
        previous_end = end
    return sorted(set(spans))


ZH_FOOTNOTES = BlockRule(
    name="zh/footnotes",
    description="An annotated edition's notes: a 注释/注/校注 section whose entries open "
    "with 〔1〕, [1], 【1】 or ①, to the next chapter heading (or, in a book with 3 or more, "
    "entries numbered from 1 ending a chapter without a heading), and the same markers "
    "glued to the text, removed together.",
    find_blocks=zh_footnotes,
    languages=("zh",),
    triggers=("注", "〔", "［", "[", "【", *_CIRCLED),
)
