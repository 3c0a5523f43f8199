"""Heading candidates in Japanese text: the Chinese forms, and 上・中・下 parts.

Japanese novels number chapters as Chinese books do (`第一章`, old-style `第壱章`,
`第一回`) or by a bare numeral on its line (`一`, as an Aozora heading note leaves it:
`cleaning/aozora.py`): `candidates_zh` and `bare_zh` find those. A novel in two or three
parts heads them `上` / `中` / `下` (or `上巻`, with a title after a space: `上　先生と私`),
each over chapters numbered from 一 again; those lines are part candidates here, believed
when at least two of them stand in that order on lines of their own.
"""

from __future__ import annotations

import re

from lengthwise.builders.chapters.candidates_zh import HSPACE, find_zh_candidates
from lengthwise.builders.chapters.model import Candidate

_PART_ORDER = "上中下"
MAX_TITLE_CHARS = 20
_PART_LINE = re.compile(
    rf"(?<=\n)(?P<line>[{HSPACE}]*(?P<part>[上中下])巻?(?:[{HSPACE}]+(?P<title>[^\n。、]{{1,{MAX_TITLE_CHARS}}}))?[{HSPACE}]*)(?=\n)"
)


def find_ja_candidates(text: str) -> list[Candidate]:
    """The Chinese-form candidates of `text` and its 上・中・下 part lines, in text order."""
    found = find_zh_candidates(text)
    parts = _part_lines(text)
    if parts:
        found = sorted(found + parts, key=lambda c: c.start)
    return found


def _part_lines(text: str) -> list[Candidate]:
    lines: list[Candidate] = []
    for match in _PART_LINE.finditer("\n" + text + "\n"):
        line = match.group("line")
        start = match.start("line") - 1 + len(line) - len(line.lstrip(HSPACE))
        number = _PART_ORDER.index(match.group("part")) + 1
        lines.append(
            Candidate(
                start=start,
                end=match.end("line") - 1,
                level="part",
                family="上中下",
                number=number,
                heading=line.strip(HSPACE),
                title=(match.group("title") or "").strip(HSPACE),
            )
        )
    numbers = [c.number for c in lines]
    # Parts in order, each printed once: 上 then 下, or 上 中 下.
    if len(lines) < 2 or numbers != sorted(set(n for n in numbers if n is not None)):
        return []
    return lines
