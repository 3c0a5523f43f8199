"""Chinese numerals as printed in chapter headings, both ways.

The reader lives in the core (`lengthwise.text.numerals`, one numeral reader for every
module and script); this module keeps the names chapter detection imports.
"""

from __future__ import annotations

from lengthwise.text.numerals import (
    CONTRACTED_TENS,
    DIGITS,
    NUMERAL_CHARS,
    UNITS,
    ChineseNumberStyle,
    parse_chinese_number,
    to_chinese_number,
)
from lengthwise.text.numerals import TO_ARABIC as FULLWIDTH_DIGITS

__all__ = [
    "CONTRACTED_TENS",
    "DIGITS",
    "FULLWIDTH_DIGITS",
    "NUMERAL_CHARS",
    "UNITS",
    "ChineseNumberStyle",
    "parse_chinese_number",
    "to_chinese_number",
]
