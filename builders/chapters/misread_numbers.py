"""Chapter headings whose number is misprinted or misread by OCR, read by their place.

Scanned books print `CHAPTER lV.`, `CHAPTER Vll`, `CHAPTER 1X.`, `Chapter l2`: an `I`
read as `l`, `1`, `|`, `i` or `!`, a `0` as `O`. Such a number does not parse, so the
heading used to be lost: its chapter ran into the one before, or, for the first
chapter, went to the front matter with nothing but an "outside chapters" figure.

The class is handled as a whole, not per misreading: `misread_readings` lists the
numbers a token could stand for under the usual look-alike confusions, and
`fill_in_misread` believes such a heading only where the numbering has a hole exactly
there, and its readings include the missing number. A token that reads as nothing,
or whose readings do not fit, stays out (its line is listed among the heading lines
inside chapters), and each heading read this way is named in the book's warnings.
"""

from __future__ import annotations

import bisect
from dataclasses import replace

from lengthwise.builders.chapters.model import Candidate
from lengthwise.builders.chapters.spans import stripped_length
from lengthwise.builders.chapters.toc_lines import TOC_ENTRY_MAX_BODY
from lengthwise.text.numerals import ROMAN_CAPITALS, ROMAN_CLASS, parse_roman

# What OCR and careless typing put for a roman capital or a digit.
_AS_ROMAN = str.maketrans({"l": "I", "1": "I", "|": "I", "i": "I", "!": "I", "v": "V", "x": "X"})
_AS_DIGITS = str.maketrans({"l": "1", "I": "1", "|": "1", "i": "1", "!": "1", "O": "0", "o": "0"})
_ROMAN_LETTERS = frozenset(ROMAN_CAPITALS)
_LOOK_ALIKES = frozenset("l1|i!vxIOo")
# A token that may be a misread number, as a regex (cleaning's structure-line test takes
# a keyword followed by one as a heading line, so unwrapping never joins it to prose).
MISREAD_TOKEN = f"[0-9{ROMAN_CLASS}{ROMAN_CLASS.lower()}Oo|!]{{1,8}}"
MAX_TOKEN_CHARS = 8
EXAMPLES = 3


def misread_readings(token: str) -> tuple[int, ...]:
    """The numbers `token` may be a misreading of (ascending), () when none.

    `lV` -> (4,), `Vll` -> (7,), `1X` -> (9,), `ll` -> (2, 11), `l2` -> (12,), `1O` -> (10,).
    Only tokens that mix look-alikes into a numeral have readings: a real numeral (`XIV`,
    `12`) or a word (`ill` reads as 3, but `the` as nothing) is judged by its place.
    """
    token = token.rstrip(".")
    if not token or len(token) > MAX_TOKEN_CHARS or not any(c in _LOOK_ALIKES for c in token):
        return ()
    readings: set[int] = set()
    roman = token.translate(_AS_ROMAN)
    if roman != token and set(roman) <= _ROMAN_LETTERS:
        value = parse_roman(roman)
        if value is not None:
            readings.add(value)
    digits = token.translate(_AS_DIGITS)
    if digits != token and digits.isascii() and digits.isdigit():
        readings.add(int(digits))
    return tuple(sorted(readings))


def fill_in_misread(
    text: str, accepted: list[Candidate], misread: list[Candidate]
) -> tuple[list[Candidate], list[str]]:
    """`accepted` with each misread heading that fills a hole in its family's numbering
    (as the number that fits), and one warning naming them; the rest are left out.

    A hole is where the heading before it is that family's chapter `n` and `n + 1` is a
    reading (or, at the start of the numbering or of a part, the chapter after it is
    `n + 1` and `n` a reading), with a greater number after it and `n + 1` not already
    present. Runs until nothing more fits, so neighbouring misreads fill in turn.
    """
    filled: list[Candidate] = []
    waiting = sorted(misread, key=lambda c: c.start)
    progress = True
    while waiting and progress:
        progress = False
        for candidate in list(waiting):
            number = _fitting_number(text, accepted, candidate)
            if number is None:
                continue
            read = replace(candidate, number=number, readings=())
            bisect.insort(accepted, read, key=lambda c: c.start)
            filled.append(read)
            waiting.remove(candidate)
            progress = True
    if not filled:
        return accepted, []
    shown = "; ".join(
        f"{c.heading.splitlines()[0]!r} as {c.number}"
        for c in sorted(filled, key=lambda c: c.start)[:EXAMPLES]
    )
    warning = (
        f"{len(filled)} chapter heading(s) with a misprinted or misread number were read by "
        f"their place in the numbering: {shown}"
    )
    return accepted, [warning]


def _fitting_number(text: str, accepted: list[Candidate], candidate: Candidate) -> int | None:
    starts = [c.start for c in accepted]
    position = bisect.bisect_left(starts, candidate.start)
    if position < len(accepted) and accepted[position].start == candidate.start:
        return None
    before = accepted[position - 1] if position else None
    after = _next_in_family(accepted, position, candidate.family)
    if _numbered_in_family(before, candidate.family):
        assert before is not None and before.number is not None
        number = before.number + 1
        run = before.run
    elif after is not None and after.number is not None and after.number > 1:
        number = after.number - 1  # the first of the numbering, or of a part
        run = after.run
    else:
        return None
    if number not in candidate.readings:
        return None
    if after is not None and after.number is not None and after.number <= number:
        return None
    if _taken(accepted, position, candidate.family, number):
        return None
    stop = accepted[position].start if position < len(accepted) else len(text)
    if stripped_length(text, candidate.end, stop) < TOC_ENTRY_MAX_BODY:
        return None  # a contents line, not a chapter
    candidate.run = run
    return number


def _numbered_in_family(heading: Candidate | None, family: str) -> bool:
    return (
        heading is not None
        and heading.level == "chapter"
        and heading.family == family
        and heading.number is not None
    )


def _next_in_family(accepted: list[Candidate], position: int, family: str) -> Candidate | None:
    """The next numbered chapter of `family`, unless a part heading comes first."""
    for heading in accepted[position:]:
        if heading.level == "part":
            return None
        if _numbered_in_family(heading, family):
            return heading
    return None


def _taken(accepted: list[Candidate], position: int, family: str, number: int) -> bool:
    """Whether `number` already heads a chapter of `family` in this part."""
    first = position
    while first > 0 and accepted[first - 1].level != "part":
        first -= 1
    last = position
    while last < len(accepted) and accepted[last].level != "part":
        last += 1
    return any(c.number == number and _numbered_in_family(c, family) for c in accepted[first:last])
