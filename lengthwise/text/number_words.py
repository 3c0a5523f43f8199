"""Number words per language, registered with `lengthwise.text.numerals`.

English cardinals and ordinals (`Twenty-One`, `the First`, `ONE HUNDRED AND TWO`) are
built in; other languages plug in with `register_number_words` (one reader each).
"""

from __future__ import annotations

import re

from lengthwise.text.numerals import register_number_words

# fmt: off
CARDINAL_WORDS: list[str] = [
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

_UNIT_WORDS: dict[str, int] = {w: i for i, w in enumerate(CARDINAL_WORDS)}
_UNIT_WORDS.update({w: i for i, w in enumerate(_ORDINALS)})
_TENS_WORDS: dict[str, int] = {w: 20 + 10 * i for i, w in enumerate(_TENS)}
_TENS_WORDS.update({w: 20 + 10 * i for i, w in enumerate(_TENS_ORDINAL)})
_HUNDRED_WORDS = {"hundred", "hundredth"}

ORDINAL_WORDS: tuple[str, ...] = tuple(_ORDINALS[1:] + _TENS_ORDINAL)
# `twenty` in `Twenty-First`: the tens that open a compound ordinal.
TENS_CARDINALS: tuple[str, ...] = tuple(_TENS)


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


register_number_words("en", parse_english_number)
