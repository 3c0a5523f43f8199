"""Heading templates learned from the book: a short line shape that recurs with a counter.

No list of words: a template is a line of its own made of one word and a number (`ACT I`,
`SCENE 3.--A ROOM IN THE CASTLE`, `Letter 12`, `FIRST ACT`, `Kapitel 4`) or a title and
a Chinese number (`德行第一`, `言語第二`), whose number goes up by one from line to line.
A template whose numbers start again at one after each line of another template nests
under it (ACT over SCENE, BOOK over CHAPTER, PART over Letter). The innermost template
whose units carry real text gives the units (scenes; acts where scenes are short); the
templates above it give the parts. A line of the same word whose number does not read
(`SCÈNE PREMIÈRE`) is the one its place leaves for it.

What repeats without a counter (`ALGERNON.`, `1 Citizen.`, `[Exit.]`) is no template:
speaker labels and stage directions stay in the text. Contents lists (lines of a
template with almost nothing between them) are left out before the numbers are read.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import defaultdict
from dataclasses import dataclass, field

from lengthwise.builders.chapters.en_numerals import parse_heading_number
from lengthwise.builders.chapters.heading_words import HS
from lengthwise.builders.chapters.model import Candidate
from lengthwise.builders.chapters.toc_lines import TOC_ENTRY_MAX_BODY
from lengthwise.builders.chapters.zh_numerals import NUMERAL_CHARS, parse_chinese_number

# `ACT I.`, `SCENE II.--ELSINORE`, `Letter 12: To Mrs. Saville`, `SCÈNE PREMIÈRE. - …`:
# a capitalised word, a number token, then nothing, a separator or a capitalised title.
_WORD_FIRST = re.compile(
    rf"(?P<word>[^\W\d_](?:[^\W\d_]|['’])*)\.?{HS}+(?P<num>[0-9]{{1,4}}|[^\W\d_]+(?:-[^\W\d_]+)?)"
    rf"(?P<rest>(?:{HS}*[.:,;—–-]+[^\n]*|{HS}+[^\W\d_a-z][^\n]*|{HS}*))$"
)
# `FIRST ACT`, `Erstes Kapitel`: an ordinal word before the template's word.
_ORDINAL_FIRST = re.compile(rf"(?P<num>[^\W\d_]+(?:-[^\W\d_]+)?){HS}+(?P<word>[^\W\d_]+)\.?{HS}*$")
# `德行第一`, `仇隟第三十六`: a title, then `第` and a Chinese number closing the line.
_ZH_TITLE_NUMBER = re.compile(rf"(?P<title>[^\W\d_]{{1,8}})第(?P<num>[{NUMERAL_CHARS}]{{1,6}})$")
# `第一則　介之推火封妒婦`: `第`, a Chinese number and a unit word the book uses
# (whichever: 則, 回, 卷, 篇 ...), then the title.
_ZH_NUMBER_UNIT = re.compile(
    rf"第(?P<num>[{NUMERAL_CHARS}]{{1,6}})(?P<unit>[^\W\d_{NUMERAL_CHARS}])"
    r"(?P<rest>[ \t\u3000]+[^\n]{1,60}|)"
)
_MAX_LINE = 120
_MAX_COUNTED_LINE = 40
_SPACES = (" ", "\n", "\t", "\r", "\u3000", "\xa0")
_BLANK_LINE_EVERY = 40  # fewer blank lines than one in this many: none to set lines off
_MIN_UNITS = 3  # a template giving the units: three lines or more (a play's three acts)
_MIN_PARTS = 2
_MIN_CHAIN_SHARE = 0.6  # of a template's numbered lines, in its counting chain
_MAX_TEMPLATE_LINES = 3000
# Units whose median body is shorter than this are too short to be the units: the
# template above them is (acts over scenes of a few lines).
_MIN_MEDIAN_UNIT = 1500


@dataclass
class _Line:
    start: int  # offset of the line's first non-space character
    end: int  # end of the line
    text: str
    key: str  # the template: the word in capitals and where the number sits
    number: int | None
    title: str
    body: int = 0  # stripped characters up to the next line of the same template


@dataclass
class Template:
    """One learned heading template and its lines in text order."""

    key: str
    lines: list[_Line] = field(default_factory=list)
    parent: Template | None = None

    @property
    def family(self) -> str:
        return self.key.replace("#", "").strip() or self.key


def find_template_candidates(text: str) -> list[Candidate]:
    """Parts and chapters from the book's heading templates (see the module docstring),
    in text order; [] when the book has none."""
    by_key: dict[str, list[_Line]] = defaultdict(list)
    template_lines, shaped = _template_lines(text)
    for line in template_lines:
        by_key[line.key].append(line)
    found: list[list[_Line]] = []
    for lines in by_key.values():
        if sum(line.number is not None for line in lines) < _MIN_PARTS:
            continue
        _measure(text, lines, shaped)
        numbered = _numbered_lines([line for line in lines if line.body > TOC_ENTRY_MAX_BODY])
        if len(numbered) >= _MIN_PARTS:
            found.append(numbered)
    tops = [Template(lines[0].key, chain) for lines in found if (chain := _chain(lines, []))]
    nested: list[Template] = []
    for lines in found:
        if any(top.key == lines[0].key for top in tops):
            continue
        for parent in sorted(tops, key=lambda t: len(t.lines)):
            starts = [line.start for line in parent.lines]
            chain = _chain(lines, starts)
            if chain and len(chain) > len(parent.lines):
                nested.append(Template(lines[0].key, chain, parent))
                break
    units = _choose_units(text, tops, nested)
    if units is None:
        return []
    if units.parent is not None:
        _split_shared_lines(units)
    candidates = [_candidate(line, units, "chapter") for line in units.lines]
    above: Template | None = units.parent
    while above is not None:
        candidates += [_candidate(line, above, "part") for line in above.lines]
        above = above.parent
    return sorted(candidates, key=lambda c: c.start)


def _split_shared_lines(units: Template) -> None:
    """A parent's line that prints its first unit's heading after its own (`ACT I.
    Scene I.`) is cut in two: the part's heading, then the unit's."""
    assert units.parent is not None
    taken = {line.start for line in units.lines}
    for line in units.parent.lines:
        if not line.title:
            continue
        inner = _read_line(line.title)
        if inner is None or inner.key != units.key or inner.number is None:
            continue
        offset = line.text.rindex(line.title)
        inner.start, inner.end = line.start + offset, line.end
        if inner.start in taken:
            continue
        units.lines.append(inner)
        line.end = line.start + len(line.text[:offset].rstrip())
        line.text, line.title = line.text[:offset].rstrip(), ""
    units.lines.sort(key=lambda unit: unit.start)


def _template_lines(text: str) -> tuple[list[_Line], list[tuple[int, int]]]:
    """Every short line of its own that fits a template shape, set off by a blank line
    above or below it (a heading is; a line wrapped inside a paragraph is not); and
    (start, stripped length) of every line of such a shape, set off or not (a contents
    list's lines: they are no unit's body)."""
    found: list[_Line] = []
    shaped: list[tuple[int, int]] = []
    position = 0
    lines = text.split("\n")
    # A book without blank lines (a paragraph a line) sets nothing off by them: there
    # every short line of a template's shape is looked at, and its counter decides.
    blank = sum(1 for line in lines[:-1] if not line.strip())
    no_blank_lines = blank * _BLANK_LINE_EVERY < len(lines)
    for index, raw in enumerate(lines):
        start, position = position, position + len(raw) + 1
        stripped = raw.strip()
        if not stripped or len(stripped) > _MAX_LINE or not stripped[0].isalpha():
            continue
        line = _read_line(stripped)
        if line is None:
            continue
        shaped.append((start, len("".join(stripped.split()))))
        above = index == 0 or not lines[index - 1].strip()
        below = index + 1 >= len(lines) or not lines[index + 1].strip()
        if above or below or no_blank_lines:
            offset = start + len(raw) - len(raw.lstrip())
            line.start, line.end = offset, start + len(raw.rstrip())
            found.append(line)
    return found, shaped


def is_counted_heading_line(line: str) -> bool:
    """A line of a template's shape with a number, as cleaning must keep it on a line
    of its own (its paragraph rejoining never glues it to the text around it): `ACT I`,
    `SCENE 2.`, `第一則　介之推火封妒婦`, `德行第一`. Titles after a Latin word and number
    (`SCENE II.--ELSINORE`) are left to the blank lines that set such lines off."""
    stripped = line.strip()
    if not stripped or len(stripped) > _MAX_COUNTED_LINE or not stripped[0].isalpha():
        return False
    if len(stripped.split(maxsplit=4)) > 4:
        return False  # prose (called for every line cleaning weighs: cheap tests first)
    read = _read_line(stripped)
    if read is None or read.number is None:
        return False
    return read.key.startswith(("第", "*")) or not read.title


def _read_line(stripped: str) -> _Line | None:
    match = _ZH_TITLE_NUMBER.fullmatch(stripped)
    if match is not None:
        try:
            number: int | None = parse_chinese_number(match.group("num"))
        except ValueError:
            number = None
        return _Line(0, 0, stripped, "*第#", number, match.group("title"))
    match = _ZH_NUMBER_UNIT.fullmatch(stripped)
    if match is not None:
        try:
            number = parse_chinese_number(match.group("num"))
        except ValueError:
            return None
        title = match.group("rest").strip(" \t\u3000：:")
        return _Line(0, 0, stripped, f"第#{match.group('unit')}", number, title)
    match = _ORDINAL_FIRST.fullmatch(stripped)
    if match is not None and match.group("word")[0].isupper() and match.group("num")[0].isupper():
        number = _number(match.group("num"))
        if number is not None:
            return _Line(0, 0, stripped, f"# {match.group('word').upper()}", number, "")
    match = _WORD_FIRST.fullmatch(stripped)
    if match is not None and match.group("word")[0].isupper():
        word, token = match.group("word"), match.group("num")
        number = _number(token)
        if number is None and not token[0].isupper():
            return None
        title = match.group("rest").strip().lstrip(".:,;—–-").strip()
        return _Line(0, 0, stripped, f"{word.upper()} #", number, title)
    return None


def _number(token: str) -> int | None:
    """A counter: digits, a roman numeral in capitals, or number words (any language
    the numeral reader knows); a lowercase roman-looking word (`mix`) is a word."""
    if token.isalpha() and token.islower():
        return None
    return parse_heading_number(token)


def _measure(text: str, lines: list[_Line], shaped: list[tuple[int, int]]) -> None:
    """Each line's body: stripped characters up to the next line of its template, less
    those of the template-shaped lines between (a contents list has no body)."""
    starts = [start for start, _ in shaped]
    sums = list(itertools.accumulate((size for _, size in shaped), initial=0))
    for line, following in zip(lines, [*lines[1:], None], strict=True):
        stop = following.start if following is not None else len(text)
        inside = (
            sums[bisect.bisect_left(starts, stop)] - sums[bisect.bisect_right(starts, line.start)]
        )
        line.body = _letters_between(text, line.end, stop) - inside


def _chain(lines: list[_Line], parent_starts: list[int]) -> list[_Line]:
    """The longest run of lines whose numbers go up by one, starting at one or two and
    again at one or two only after a line of the parent (`parent_starts`); [] when it
    holds fewer than `_MIN_CHAIN_SHARE` of the lines (the numbers are no counter) or, under
    a parent, never starts again (it does not nest there). A contents list printed in
    the same shape falls out of the chain."""
    if len(lines) > _MAX_TEMPLATE_LINES:
        return []
    # Each line's longest chain ending there, from the best chain ending at a number one
    # or two below it (one number may be missing: a heading lost in the file), or, for a
    # one or two after a parent's line, at any line before that parent line. Ties go to
    # the nearer line: a contents entry is never the chain's link. Linear: per number and
    # per closed parent section, only the best (latest on ties) is kept.
    best: list[int] = []
    before: list[int] = []
    by_number: dict[int, tuple[int, int]] = {}
    closed: tuple[int, int] = (0, -1)  # best in the sections before the current one
    current: tuple[int, int] = (0, -1)  # best in the current section
    section = 0
    for j, line in enumerate(lines):
        assert line.number is not None
        number = line.number
        at = bisect.bisect_left(parent_starts, line.start)
        if at > section:
            closed, current, section = max(closed, current), (0, -1), at
        options = [by_number.get(number - 1, (0, -1)), by_number.get(number - 2, (0, -1))]
        if number <= 2:
            options.append(closed)
        link_best, link = max(options)
        length = 1 if number <= 2 else 0
        if link_best and link_best + 1 >= length:
            length = link_best + 1
        else:
            link = -1
        best.append(length)
        before.append(link)
        if length:
            by_number[number] = max(by_number.get(number, (0, -1)), (length, j))
            current = max(current, (length, j))
    end = max(range(len(lines)), key=lambda k: best[k])
    chain: list[_Line] = []
    while end >= 0 and best[end]:
        chain.append(lines[end])
        end = before[end]
    chain.reverse()
    if len(chain) < max(_MIN_PARTS, _MIN_CHAIN_SHARE * len(lines)):
        return []
    restarts = any(
        b.number is not None and a.number is not None and b.number <= a.number
        for a, b in itertools.pairwise(chain)
    )
    if parent_starts and not restarts:
        return []
    return chain


def _choose_units(text: str, tops: list[Template], nested: list[Template]) -> Template | None:
    """The innermost template whose units carry real text, else the one above it."""
    candidates = sorted(nested, key=lambda t: -len(t.lines)) + sorted(
        tops, key=lambda t: -len(t.lines)
    )
    for template in candidates:
        if len(template.lines) < _MIN_UNITS:
            continue
        bodies = sorted(_unit_bodies(text, template))
        if bodies[len(bodies) // 2] >= _MIN_MEDIAN_UNIT:
            return template
        if template.parent is None:
            return template  # nothing above: short scenes are still the play's units
        if len(template.parent.lines) >= _MIN_UNITS:
            return template.parent
    return None


def _unit_bodies(text: str, template: Template) -> list[int]:
    """Each unit's stripped length up to the next unit or parent line."""
    stops = [line.start for line in template.lines]
    above = template.parent
    while above is not None:
        stops += [line.start for line in above.lines]
        above = above.parent
    stops = [*sorted(set(stops)), len(text)]
    bodies = []
    for line in template.lines:
        stop = next(s for s in stops if s > line.start)
        bodies.append(_letters_between(text, line.end, stop))
    return bodies


def _letters_between(text: str, start: int, stop: int) -> int:
    """Characters of `text[start:stop]` that are not whitespace (counted in C: a book's
    worth of slices is split no more)."""
    piece = text[start:stop]
    return len(piece) - sum(map(piece.count, _SPACES))


def _numbered_lines(lines: list[_Line]) -> list[_Line]:
    """The lines with a number, and an unnumbered one right before a `2` given 1
    (`SCÈNE PREMIÈRE` before `SCÈNE II`)."""
    result: list[_Line] = []
    for line, following in itertools.zip_longest(lines, lines[1:]):
        if line.number is not None:
            result.append(line)
        elif following is not None and following.number == 2:
            result.append(_Line(line.start, line.end, line.text, line.key, 1, line.title))
    return result


def _candidate(line: _Line, template: Template, level: str) -> Candidate:
    assert level in ("part", "chapter")
    return Candidate(
        start=line.start,
        end=line.end,
        level="part" if level == "part" else "chapter",
        family=template.family,
        number=line.number,
        heading=line.text,
        title=line.title,
    )
