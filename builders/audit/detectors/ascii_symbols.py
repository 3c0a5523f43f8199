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

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext
from lengthwise.builders.cleaning.rules import ascii_index

SYMBOLS = "`~^|-<>'_*#+=/\\@$%&"
_MAX_RUN = 3
_RUN = re.compile("[" + re.escape(SYMBOLS) + "]+")
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef“”‘’—…]")


def find_ascii_symbols(context: AuditContext) -> Iterator[Finding]:
    text = context.text
    for start, end in ascii_symbol_spans(text):
        yield Finding("ascii_symbol", snippet(text, start, end))


def ascii_symbol_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of 1-3 symbols with a CJK character on both sides."""
    index = ascii_index(text)
    if index is None or not index[1].intersection(SYMBOLS):
        return []  # not CJK text, or no candidate symbol at all: no scan
    return [
        match.span()
        for match in _RUN.finditer(text)
        if match.end() - match.start() <= _MAX_RUN
        and match.start() > 0
        and _CJK.match(text, match.start() - 1) is not None
        and _CJK.match(text, match.end()) is not None
    ]
