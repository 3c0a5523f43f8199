"""Heading candidates in Chinese text: 第X回/章/节/卷, 卷X and 楔子/尾声-like headings.

A candidate is found with a precompiled regex over the whole text (one scan per
prefix, 第 and 地), then judged by its surroundings (a few string look-ups per hit):

- where it starts: at a line start (strong), or glued mid-line right after the
  previous chapter's last sentence (`…他便去了。第五回 游幻境…`; weak, kept only
  when the numbering supports it). 地 for 第 (a common typo) counts only at a line start;
- what follows the number: a heading title, not a sentence. `第四回中既将薛家母子…，`
  is a sentence that starts with a chapter reference: text glued to the number with no
  separator may not contain punctuation, and a title never contains 。．；.
  On a long line (or a book with no line breaks at all) the title is at most two
  whitespace-separated runs of up to 20 characters, followed by whitespace.
"""

from __future__ import annotations

import re
from dataclasses import replace

from lengthwise.builders.chapters.flat_titles import cut_flat_titles
from lengthwise.builders.chapters.heading_words import (
    CHAPTER_UNITS,
    PART_UNITS,
    ZH_BRACKETS,
    ZH_HSPACE,
    ZH_UNIT,
)
from lengthwise.builders.chapters.model import Candidate, ChapterKind, HeadingLevel
from lengthwise.text.numerals import DIGIT_CLASS, NUMERAL_CHARS, parse_chinese_number

MAX_TITLE_CHARS = 40
LOOK = 200  # characters examined on each side of a heading candidate
HSPACE = ZH_HSPACE
# Characters after which a glued heading may start: the end of the previous sentence.
_LEAD_PUNCT = set('。！？!?．.；;…」』”’"）)】》—_~')
# Text glued to the number without a separator must be a bare title: none of these.
_GLUED_FORBIDDEN = set('，,。！？!?；;：:、…—“”「」『』"．.')
# A title never contains sentence-final stops.
_TITLE_FORBIDDEN = set("。．；;")

DIGIT_RANGES = DIGIT_CLASS
_AFTER_PREFIX = (
    rf"[{HSPACE}]*(?P<num>[{NUMERAL_CHARS}{DIGIT_RANGES}]{{1,12}})"
    rf"[{HSPACE}]*(?P<unit>{ZH_UNIT})"
)
HEADING_RE = re.compile(rf"(?P<prefix>[第地]){_AFTER_PREFIX}")
# HEADING_RE split by its first character: sre finds a literal first character several
# times faster than a character class. A match holds 第/地 only at its start, so matches
# never overlap and the two scans together find exactly HEADING_RE's matches.
HEADING_BY_PREFIX = tuple(re.compile(rf"(?P<prefix>{p}){_AFTER_PREFIX}") for p in "第地")
# The unit before the number, as classical books print volumes (`卷一`, `卷之三`, `卷第十`):
# taken at a line start only (`卷一` inside a sentence is prose).
UNIT_FIRST_RE = re.compile(
    rf"(?P<unit>卷)(?P<prefix>[之第]?)[{HSPACE}]*(?P<num>[{NUMERAL_CHARS}{DIGIT_RANGES}]{{1,12}})"
)
# After a sentence end, a 回 number without its 第 (see `_unprefixed`).
UNPREFIXED_RE = re.compile(
    rf"(?<=[。！？!?」』”])(?P<prefix>)(?P<num>[{NUMERAL_CHARS}]{{1,6}})(?P<unit>回)"
)
_TITLE_RUN = r"[^\s，,。！？!?；;：:、…—“”「」『』\"．]{1,20}"
# A volume heading with an optional short name, then space: what may precede a chapter
# heading on its line (`第一卷 风起云涌 第一章 …`).
_PART_PREFIX = re.compile(
    rf"[{HSPACE}]*第[{HSPACE}]*[{NUMERAL_CHARS}{DIGIT_RANGES}]{{1,12}}[{HSPACE}]*[{PART_UNITS}]"
    rf"(?:[{HSPACE}:：]+{_TITLE_RUN})?[{HSPACE}]+"
)
# A chapter heading further along a volume heading's line.
_CHAPTER_ON_LINE = re.compile(
    rf"(?<=[{HSPACE}])第[{HSPACE}]*[{NUMERAL_CHARS}{DIGIT_RANGES}]{{1,12}}[{HSPACE}]*[{CHAPTER_UNITS}]"
)
GLUED_TITLE_RE = re.compile(
    rf"[{HSPACE}:：]*(?P<title>{_TITLE_RUN}(?:[{HSPACE}]+{_TITLE_RUN})?)?(?=[{HSPACE}]|\n|\Z)"
)
# Glued on both sides (`…分解。第二回冀州侯蘇護反商詩曰：丞相…`): the run of characters up to
# the first punctuation holds the title and the body's first words.
FLAT_RUN_RE = re.compile(r"[:：]?(?P<title>[^\s，,。！？!?；;：:、…—“”「」『』\"．]{2,40})")
SPECIAL_RE = re.compile(  # literal newline first: searched in the text with one prepended
    rf"\n(?P<line>[{HSPACE}]*(?P<kw>楔子|引子|序章|序幕|尾声|尾聲|终章|終章|后记|後記)"
    rf"(?P<rest>(?:[{HSPACE}:：、][^\n]*)?))$",
    re.MULTILINE,
)
SPECIAL_KINDS: dict[str, ChapterKind] = {
    "楔子": "prologue", "引子": "prologue", "序章": "prologue", "序幕": "prologue",
    "尾声": "epilogue", "尾聲": "epilogue", "终章": "epilogue", "終章": "epilogue",
    "后记": "afterword", "後記": "afterword",
}  # fmt: skip


def find_zh_candidates(text: str) -> list[Candidate]:
    """All 第X回-style and 楔子-style heading candidates, in text order."""
    found: list[Candidate] = []
    flat_book = _without_line_breaks(text)
    for match in _heading_matches(text):
        candidate = _judge_numbered(text, match, flat_book)
        if candidate is not None:
            found.append(candidate)
    for match in SPECIAL_RE.finditer("\n" + text):
        rest = match.group("rest").strip(HSPACE + ":：、")
        if len(rest) > MAX_TITLE_CHARS or any(c in _TITLE_FORBIDDEN for c in rest):
            continue
        keyword = match.group("kw")
        found.append(
            Candidate(
                start=match.start("kw") - 1,
                end=match.end() - 1,
                level="special",
                family="special",
                number=None,
                heading=match.group("line").strip(HSPACE),
                title=rest,
                kind=SPECIAL_KINDS[keyword],
            )
        )
    if flat_book:
        found.extend(_unprefixed(text))
    found.sort(key=lambda c: c.start)
    return cut_flat_titles(text, found)


def _heading_matches(text: str) -> list[re.Match[str]]:
    """`HEADING_RE.finditer(text)`, in text order, found faster (`HEADING_BY_PREFIX`)."""
    matches = [
        match for regex in (*HEADING_BY_PREFIX, UNIT_FIRST_RE) for match in regex.finditer(text)
    ]
    return sorted(matches, key=lambda match: match.start())


def _without_line_breaks(text: str) -> bool:
    """A book saved without line breaks: lines average more than LOOK characters."""
    return text.count("\n") * LOOK < len(text)


def _unprefixed(text: str) -> list[Candidate]:
    """`。五十二回…` headings that lost their 第, in books without line breaks only."""
    found: list[Candidate] = []
    for match in UNPREFIXED_RE.finditer(text):
        candidate = _judge_numbered(text, match, flat_book=True)
        if candidate is not None and candidate.flat and candidate.anchored:
            found.append(replace(candidate, anchored=False, unprefixed=True))
    return found


def _judge_numbered(text: str, match: re.Match[str], flat_book: bool) -> Candidate | None:
    start = match.start()
    # Look at most LOOK characters around the hit: in a book without line breaks the
    # "line" is the whole book, and scanning or copying it per hit would be quadratic.
    window_start = max(0, start - LOOK)
    before = text[window_start:start]
    newline = before.rfind("\n")
    before = before[newline + 1 :]
    line_starts = newline >= 0 or window_start == 0
    at_line_start = not before.strip(HSPACE) and line_starts
    close = None
    opening = before.strip(HSPACE)
    if line_starts and opening in ZH_BRACKETS:
        # `【第十回】…` at a line start: the heading starts at its bracket (left out, the
        # bracket would end the previous chapter).
        at_line_start, close = True, ZH_BRACKETS[opening]
        start -= len(before) - before.index(opening)
    if not at_line_start and _unit(match) in CHAPTER_UNITS:
        # `第一卷 风起 第２章：…`: a chapter heading after its volume's on one line starts
        # the line as much as the volume does.
        at_line_start = line_starts and _is_part_prefix(before)
    anchored = True
    if not at_line_start:
        if match.group("prefix") == "地" or match.re is UNIT_FIRST_RE:
            return None
        trimmed = before.rstrip(HSPACE)
        # Paragraph indentation left in a book without line breaks also separates.
        indented = len(before) - len(trimmed) >= 2 or before.endswith("\u3000")
        anchored = indented or (bool(trimmed) and trimmed[-1] in _LEAD_PUNCT)
    try:
        number = parse_chinese_number(match.group("num"))
    except ValueError:
        return None
    unit_end = match.end()
    window_end = min(len(text), unit_end + LOOK)
    line_end = text.find("\n", unit_end, window_end)
    line_ends = line_end >= 0 or window_end == len(text)  # the line ends within the window
    if line_end < 0:
        line_end = window_end
    if _unit(match) in PART_UNITS:
        # The volume's line may go on with the first chapter's heading: not its title.
        chapter = _CHAPTER_ON_LINE.search(text, unit_end, line_end)
        if chapter is not None:
            line_end, line_ends = chapter.start(), True
    title_start = unit_end
    if close is not None:
        closed = text.find(close, unit_end, line_end)
        if closed >= 0 and not text[unit_end:closed].strip(HSPACE):
            title_start = closed + 1  # `【第十回】`: the bracket separates the title
    rest = text[title_start:line_end]
    if close is not None and title_start == unit_end and rest.rstrip(HSPACE).endswith(close):
        rest = rest.rstrip(HSPACE)[:-1]  # `[第十章 标题]`: the bracket closes the heading
    title = _short_line_title(rest, title_start > unit_end) if line_ends else None
    flat = False
    if title is not None:
        end, strong = line_end, at_line_start
    else:
        glued = GLUED_TITLE_RE.match(text, unit_end, line_end)
        flat = glued is None
        if glued is None and flat_book:
            # No whitespace after the title either: everything up to the first punctuation,
            # cut later with the book's own statistics (flat_titles).
            glued = FLAT_RUN_RE.match(text, unit_end, line_end)
        if glued is None:
            return None
        title = (glued.group("title") or "").strip(HSPACE)
        end, strong = glued.end(), False
    return Candidate(
        start=start,
        end=end,
        level=_level_of(_unit(match)),
        family=_unit(match).replace("節", "节").replace("話", "话"),
        number=number,
        heading=text[start:end].strip(HSPACE),
        title=title,
        strong=strong and anchored,
        anchored=anchored,
        flat=flat,
    )


def _unit(match: re.Match[str]) -> str:
    """The heading's unit as one character (`部分` is a 部)."""
    return match.group("unit")[0]


def _is_part_prefix(before: str) -> bool:
    """Whether the line text before a heading is a volume heading (`第一卷 风起 `)."""
    return _PART_PREFIX.fullmatch(before) is not None


def _short_line_title(rest: str, separated: bool = False) -> str | None:
    """The title when the rest of the heading line is a short title, else None
    (`separated`: a closing bracket stood between the number and `rest`)."""
    stripped = rest.strip()
    if len(stripped) > MAX_TITLE_CHARS:
        return None
    if not stripped:
        return ""
    separated = separated or rest[0] in HSPACE or rest[0] in ":：、"
    forbidden = _TITLE_FORBIDDEN if separated else _GLUED_FORBIDDEN
    if any(c in forbidden for c in stripped):
        return None
    return stripped.lstrip(":：、" + HSPACE)


def _level_of(unit: str) -> HeadingLevel:
    # Provisional: 节 and the part units are re-levelled once we know which units the book uses.
    return "part" if unit in PART_UNITS else "chapter"
