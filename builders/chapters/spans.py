"""Sizes and bounds of text spans, found without copying the span.

A book is megabytes long and detection measures a span per heading (the body up to
the next one): slicing and stripping each would copy the whole book several times.
"""

from __future__ import annotations

import re

_NON_SPACE = re.compile(r"\S")  # `\S` is exactly what `str.strip()` keeps
_HEADING_GLUE = re.compile(r"[ \t\u3000]*")
_LEADING_BLANK_LINES = re.compile(r"(?:[ \t\u3000\r]*\n)*")


def stripped_length(text: str, start: int, stop: int) -> int:
    """`len(text[start:stop].strip())`."""
    first = _NON_SPACE.search(text, start, stop)
    if first is None:
        return 0
    return rstripped_end(text, first.start(), stop) - first.start()


def rstripped_end(text: str, start: int, stop: int) -> int:
    """Where `text[start:stop].rstrip()` ends (trailing whitespace is a few characters)."""
    while stop > start and text[stop - 1].isspace():
        stop -= 1
    return stop


def rstripped(text: str, start: int, stop: int) -> str:
    """`text[start:stop].rstrip()`, copying the kept part only once."""
    return text[start : rstripped_end(text, start, stop)]


def body_text(text: str, start: int, stop: int) -> str:
    """Body text between a heading ending at `start` and the next at `stop`, without the
    blank lines around it.

    Found by offsets, then copied once (a slice per strip step would copy the book
    several times over)."""
    if start < stop and text[start] != "\n":
        start = _match_end(_HEADING_GLUE, text, start, stop)  # a heading glued to its body
    return rstripped(text, _match_end(_LEADING_BLANK_LINES, text, start, stop), stop)


def _match_end(pattern: re.Pattern[str], text: str, start: int, stop: int) -> int:
    """End of `pattern`'s (possibly empty) match at `start`, searching no further than `stop`."""
    match = pattern.match(text, start, stop)
    return start if match is None else match.end()
