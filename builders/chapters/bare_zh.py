"""Chinese chapters numbered without 第…回/章: a numeral alone on its line.

Modern Chinese novels often head their chapters with a bare numeral (`一`, `二十三`),
a numeral and a title (`一、出走`, `3. 归来`, `１．标题`) or a numeral in brackets
(`（一）`). Such a line is only a candidate: like English `VII.` lines, bare numbers
become chapters only in a book whose keyword headings (第X回/章/节/卷) number fewer than
5 chapters, where the sequence checks believe the increasing chain and the chapters
must carry real text (`detect._detect_with`), so a numbered list inside a preface never
splits a book.
"""

from __future__ import annotations

import re

from lengthwise.builders.chapters.candidates_zh import DIGIT_RANGES, HSPACE
from lengthwise.builders.chapters.model import Candidate
from lengthwise.builders.chapters.zh_numerals import (
    FULLWIDTH_DIGITS,
    NUMERAL_CHARS,
    parse_chinese_number,
)
from lengthwise.builders.language import count_ideographs

_NUMBER = rf"[{NUMERAL_CHARS}]{{1,8}}|[{DIGIT_RANGES}]{{1,4}}"
# What may follow the numeral before a title: an enumeration comma, a stop used as a
# numbering dot, a colon or space; never a comma (`一，` opens a sentence).
_SEPARATORS = "、．.:：" + HSPACE
# The numeral first (`一、标题`, `一`) or in brackets (`（一）标题`), then the rest of the line.
_HEADING = (
    rf"[{HSPACE}]*(?:[（(【\[][{HSPACE}]*(?P<bracketed>{_NUMBER})[{HSPACE}]*[）)】\]]"
    rf"|(?P<num>{_NUMBER})(?=[{re.escape(_SEPARATORS)}]|$))(?P<rest>[^\n]*)"
)
# The literal newline first lets sre jump from line to line (the text is searched with
# one prepended).
BARE_ZH_RE = re.compile(rf"\n(?P<line>{_HEADING})$", re.MULTILINE)
_LINE_RE = re.compile(rf"{_HEADING}$")
MAX_TITLE_CHARS = 30
# A title is no sentence: none of these (a numbered list item usually is one).
_TITLE_FORBIDDEN = set("。．；;，,…")


def find_zh_bare_candidates(text: str) -> list[Candidate]:
    """Lines that are a numeral with at most a short title, as `bare` candidates in text order."""
    found: list[Candidate] = []
    for match in BARE_ZH_RE.finditer("\n" + text):
        heading = _number_and_title(match)
        if heading is None:
            continue
        line = match.group("line")
        start = match.start("line") - 1 + len(line) - len(line.lstrip(HSPACE))
        found.append(
            Candidate(
                start=start,
                end=match.end() - 1,
                level="bare",
                family="bare",
                number=heading[0],
                heading=line.strip(HSPACE),
                title=heading[1],
            )
        )
    return found


def is_zh_bare_heading(line: str) -> bool:
    """Whether one line (without its newline) is such a heading in Chinese text: a Chinese
    numeral, or digits with a Chinese title (`1805` or `(1) A note` in English text are
    not). Cleaning keeps these lines apart from prose (`cleaning/structure_lines`)."""
    match = _LINE_RE.match(line)
    if match is None or _number_and_title(match) is None:
        return False
    number = match.group("num") or match.group("bracketed")
    return (
        not number.translate(FULLWIDTH_DIGITS).isdigit()
        or count_ideographs(match.group("rest")) > 0
    )


def _number_and_title(match: re.Match[str]) -> tuple[int, str] | None:
    """(number, title) of a matched line, or None when the rest reads as a sentence."""
    title = match.group("rest").strip(_SEPARATORS)
    if len(title) > MAX_TITLE_CHARS or any(c in _TITLE_FORBIDDEN for c in title):
        return None
    try:
        return parse_chinese_number(match.group("num") or match.group("bracketed")), title
    except ValueError:  # `十百`, `两`-only and other non-numbers
        return None
