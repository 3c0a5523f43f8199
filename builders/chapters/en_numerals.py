"""English chapter numbers: roman numerals, arabic digits and number words.

Headings print numbers as `XII`, `xii.`, `12`, `Twelve`, `TWENTY-ONE`,
`the First` or `FIRST` (in `FIRST EPILOGUE`). Each parser returns None for
text that is not a number of its kind, so the heading finder can try them in turn.
The readers themselves live in the core (`lengthwise.text.numerals`, `number_words`).
"""

from __future__ import annotations

from lengthwise.text.number_words import ORDINAL_WORDS, TENS_CARDINALS, parse_english_number
from lengthwise.text.numerals import parse_roman

__all__ = [
    "ORDINAL_WORDS",
    "TENS_CARDINALS",
    "parse_english_number",
    "parse_heading_number",
    "parse_roman",
]


def parse_heading_number(text: str) -> int | None:
    """An arabic, roman or word number as printed after a heading keyword, else None."""
    stripped = text.strip().rstrip(".")
    if stripped.isascii() and stripped.isdigit():
        return int(stripped)
    roman = parse_roman(stripped)
    if roman is not None:
        return roman
    return parse_english_number(stripped)
