"""English chapter numbers: roman numerals, arabic digits and number words.

Headings print numbers as `XII`, `xii.`, `12`, `Twelve`, `TWENTY-ONE`,
`the First` or `FIRST` (in `FIRST EPILOGUE`). Each parser returns None for
text that is not a number of its kind, so the heading finder can try them in turn.
"""

from __future__ import annotations

import re

_ROMAN_CANONICAL = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}

# fmt: off
_CARDINALS = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen",
]
_ORDINALS = [
    "zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
    "sixteenth", "seventeenth", "eighteenth", "nineteenth",
]
# fmt: on
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_TENS_ORDINAL = [t[:-1] + "ieth" for t in _TENS]  # twentieth, thirtieth, ...

_UNIT_WORDS: dict[str, int] = {w: i for i, w in enumerate(_CARDINALS)}
_UNIT_WORDS.update({w: i for i, w in enumerate(_ORDINALS)})
_TENS_WORDS: dict[str, int] = {w: 20 + 10 * i for i, w in enumerate(_TENS)}
_TENS_WORDS.update({w: 20 + 10 * i for i, w in enumerate(_TENS_ORDINAL)})
_HUNDRED_WORDS = {"hundred", "hundredth"}

ORDINAL_WORDS: tuple[str, ...] = tuple(_ORDINALS[1:] + _TENS_ORDINAL)
# `twenty` in `Twenty-First`: the tens that open a compound ordinal.
TENS_CARDINALS: tuple[str, ...] = tuple(_TENS)


def parse_roman(text: str) -> int | None:
    """The value of a canonical roman numeral (I..MMMCMXCIX, in capitals or in small
    letters), else None. Mixed case (`lV`, `Xl`) is a misreading (`misread_numbers`)."""
    printed = text.strip().rstrip(".")
    upper = printed.upper()
    if not upper or not (printed == upper or printed.islower()):
        return None
    if not _ROMAN_CANONICAL.fullmatch(upper):
        return None
    total = 0
    for index, char in enumerate(upper):
        value = _ROMAN_VALUES[char]
        following = _ROMAN_VALUES[upper[index + 1]] if index + 1 < len(upper) else 0
        total += -value if value < following else value
    return total


def parse_english_number(text: str) -> int | None:
    """The value of number words such as `Twenty-One`, `the First`, `ONE HUNDRED AND TWO`.

    Handles 0..999 as cardinals or ordinals; returns None for anything else.
    """
    words = [w for w in re.split(r"[\s\-]+", text.strip().rstrip(".").lower()) if w]
    if words and words[0] == "the":
        words = words[1:]
    words = [w for w in words if w != "and"]
    if not words:
        return None
    total = 0
    current = 0
    seen_tens = seen_unit = False
    for word in words:
        if word in _HUNDRED_WORDS:
            if current == 0 or current >= 10 or total:
                return None
            total, current = current * 100, 0
            seen_tens = seen_unit = False
        elif word in _TENS_WORDS:
            if seen_tens or seen_unit:
                return None
            current += _TENS_WORDS[word]
            seen_tens = True
        elif word in _UNIT_WORDS:
            value = _UNIT_WORDS[word]
            if seen_unit or (seen_tens and not 1 <= value <= 9):
                return None
            current += value
            seen_unit = True
        else:
            return None
    return total + current


def parse_heading_number(text: str) -> int | None:
    """An arabic, roman or word number as printed after a heading keyword, else None."""
    stripped = text.strip().rstrip(".")
    if stripped.isascii() and stripped.isdigit():
        return int(stripped)
    roman = parse_roman(stripped)
    if roman is not None:
        return roman
    return parse_english_number(stripped)
