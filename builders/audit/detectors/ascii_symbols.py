"""ASCII symbols standing between CJK characters: stand-ins for CJK punctuation.

A Chinese site whose pipeline could not carry ‘’ 『』 《》 wrote ASCII symbols instead
(`` `西厢-`琵琶- ``, `《西厢记>>中`); others mark a lost character with `*` or `**`.
Either way an ASCII symbol squeezed between CJK characters (ideographs, CJK
punctuation, curly quotes) is something a reader trips over. One finding per run of
1-3 symbols with CJK text on both sides. Independent of cleaning, which repairs only
the pairs it learned (`zh/ascii-quote-pairs`): what this finds after cleaning is what
cleaning could not explain.

Not counted: `, ; : ! . ? ( )` (`zh/ascii-punctuation` makes them full-width; a `?` for a
lost character is `damage`), straight double quotes (left alone by cleaning), and ASCII
brackets `[…]` `{…}` (a real bracket, also used to spell a missing character: `[口迷]`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from collections.abc import Set as AbstractSet

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext
from lengthwise.builders.cleaning.ascii_pairs import CJK_TEXT_CHAR
from lengthwise.builders.cleaning.rules import ascii_index, occurrences

SYMBOLS = "`~^|-<>'_*#+=/\\@$%&"
_MAX_RUN = 3
_RUN = re.compile("[" + re.escape(SYMBOLS) + "]+")


def find_ascii_symbols(context: AuditContext) -> Iterator[Finding]:
    text = context.text
    for start, end in ascii_symbol_spans(text):
        yield Finding("ascii_symbol", snippet(text, start, end))


def ascii_symbol_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of 1-3 symbols with a CJK character on both sides."""
    index = ascii_index(text)
    if index is None:
        return []  # not CJK text: no scan
    present = index[1].intersection(SYMBOLS)
    if not present:
        return []
    return [
        (start, end)
        for start, end in _symbol_runs(text, present)
        if end - start <= _MAX_RUN
        and start > 0
        and CJK_TEXT_CHAR.match(text, start - 1) is not None
        and CJK_TEXT_CHAR.match(text, end) is not None
    ]


def _symbol_runs(text: str, present: AbstractSet[str]) -> list[tuple[int, int]]:
    """The maximal runs of `SYMBOLS` characters, as `_RUN.finditer` gives them.

    In CJK text the symbols are a few hundred among a hundred thousand characters, so
    `str.find` per symbol present and a match at each run's first symbol cost far less
    than a character-class scan of the whole sample. A run's first symbol is its
    earliest occurrence, so hits inside a run already found are skipped.
    """
    hits = sorted(position for symbol in present for position in occurrences(text, symbol))
    runs: list[tuple[int, int]] = []
    covered = -1
    for position in hits:
        if position < covered:
            continue
        match = _RUN.match(text, position)
        assert match is not None  # a symbol stands at `position`
        runs.append(match.span())
        covered = match.end()
    return runs
