"""Sizes and bounds of text spans, found without copying the span.

A book is megabytes long and detection measures a span per heading (the body up to
the next one): slicing and stripping each would copy the whole book several times.
"""

from __future__ import annotations

import re

_NON_SPACE = re.compile(r"\S")  # `\S` is exactly what `str.strip()` keeps


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
