"""One reader for the numbers books print, in every script, with their look-alikes.

Every module that reads a number (chapter detection, cleaning's structural line tests,
the audit's vocabulary, task clues) takes its characters and parsers from here, so a
numeral form taught once is known everywhere (a test scans the sources for tables of
their own). What is read:

- arabic digits and their full-width forms (`12`, `１２`);
- CJK numerals in every style scraped books mix: standard (一百二十), financial
  (壹佰贰拾), Japanese old-style (壱弐参拾), contracted tens (廿一, 卅), 两/兩 for two,
  zero printed as 零, 〇, the white circle ○ (U+25CB) or a full-width Ｏ, digit by digit
  (一一九 = 119, 一○○ = 100), zero-padded (第01回);
- roman numerals in capitals or small letters (`XII`, `xii`);
- number words, through a registry per language (`NUMBER_WORD_READERS`, English built
  in; `register_number_words` is the hook other languages plug into).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

ChineseNumberStyle = Literal["standard", "financial", "digits"]

ARABIC_DIGITS = "0123456789"
FULLWIDTH_DIGITS = "０１２３４５６７８９"
# Both digit sets, for character tests and regex classes (`[0-9０-９]`).
ALL_DIGITS = ARABIC_DIGITS + FULLWIDTH_DIGITS
DIGIT_CLASS = "0-9０-９"
TO_ARABIC = str.maketrans(FULLWIDTH_DIGITS, ARABIC_DIGITS)
# Every digit (either width) to 0: numbered lines compare equal whatever their number.
DIGITS_TO_ZERO = str.maketrans(ALL_DIGITS, "0" * len(ALL_DIGITS))

# What is printed for zero: 零, the ideographic 〇, the white circle ○ and a full-width Ｏ
# (the last two are look-alikes typed for 〇 in scraped texts: 第一○○回).
ZERO_FORMS = "零〇○Ｏ"
DIGITS: dict[str, int] = {
    **dict.fromkeys(ZERO_FORMS, 0),
    "一": 1, "壹": 1, "壱": 1, "弌": 1,
    "二": 2, "贰": 2, "貳": 2, "弐": 2, "弍": 2, "两": 2, "兩": 2,
    "三": 3, "叁": 3, "參": 3, "参": 3, "弎": 3,
    "四": 4, "肆": 4,
    "五": 5, "伍": 5,
    "六": 6, "陆": 6, "陸": 6,
    "七": 7, "柒": 7,
    "八": 8, "捌": 8,
    "九": 9, "玖": 9,
}  # fmt: skip
UNITS: dict[str, int] = {
    "十": 10, "拾": 10,
    "百": 100, "佰": 100,
    "千": 1000, "仟": 1000,
    "万": 10_000, "萬": 10_000,
}  # fmt: skip
# Contracted tens: 廿 = 二十, 卅 = 三十, 卌 = 四十 (卄 and 丗 are variant glyphs).
CONTRACTED_TENS: dict[str, str] = {
    "廿": "二十",
    "卄": "二十",
    "卅": "三十",
    "丗": "三十",
    "卌": "四十",
}
# Every character a CJK numeral may contain (without arabic digits)...
NUMERAL_CHARS: str = "".join(DIGITS) + "".join(UNITS) + "".join(CONTRACTED_TENS)
# ... and as the inside of a regex character class, with both digit sets.
NUMERAL_CLASS: str = re.escape(NUMERAL_CHARS) + DIGIT_CLASS
# The ten plain digits 一..九 and 十 (a short bracketed marker, `（三）`).
SIMPLE_NUMERAL_CHARS = "一二三四五六七八九十"

ROMAN_CAPITALS = "IVXLCDM"
ROMAN_CLASS = ROMAN_CAPITALS  # inside a regex class: `[IVXLCDM]`
# The letters of small roman numbers (below 40: a part marker `(II)`, a list item `(iv)`).
SMALL_ROMAN_CAPITALS = ROMAN_CAPITALS[:3]
_ROMAN_CANONICAL = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}

_STANDARD_DIGITS = "零一二三四五六七八九"
_FINANCIAL_DIGITS = "零壹贰叁肆伍陆柒捌玖"
_STANDARD_UNITS = ("", "十", "百", "千")
_FINANCIAL_UNITS = ("", "拾", "佰", "仟")


def parse_chinese_number(s: str) -> int:
    """The integer a CJK (or arabic / full-width) numeral denotes.

    Raises ValueError, quoting the input, for empty or malformed numerals
    (unknown characters, units out of order such as 十百, a trailing 零).
    """
    raw = s
    s = s.strip().translate(TO_ARABIC)
    if not s:
        raise ValueError(f"empty Chinese numeral: {raw!r}")
    if s.isascii() and s.isdigit():
        return int(s)
    for short, long in CONTRACTED_TENS.items():
        s = s.replace(short, long)
    unknown = sorted({c for c in s if c not in DIGITS and c not in UNITS})
    if unknown:
        raise ValueError(f"not a Chinese numeral: {raw!r} (unexpected {''.join(unknown)!r})")
    if not any(c in UNITS for c in s):
        # Digit-by-digit form: 一一九 = 119, 一二零 = 120, 二〇 = 20.
        return int("".join(str(DIGITS[c]) for c in s))
    if "万" in s or "萬" in s:
        split_at = max(s.rfind("万"), s.rfind("萬"))
        high, low = s[:split_at], s[split_at + 1 :]
        high_value = _parse_below_10000(high, raw) if high else 1
        low_value = _parse_below_10000(low, raw, after_higher=True) if low else 0
        return high_value * 10_000 + low_value
    return _parse_below_10000(s, raw)


def _parse_below_10000(s: str, raw: str, after_higher: bool = False) -> int:
    """Parse a numeral made of digits and the units 十/百/千 (value below 10000)."""
    total = 0
    pending: int | None = None  # a digit waiting for its unit
    last_unit = 10_000
    saw_zero = after_higher and s[:1] in ZERO_FORMS
    for index, char in enumerate(s):
        if char in UNITS:
            unit = UNITS[char]
            if unit >= last_unit:
                raise ValueError(f"malformed Chinese numeral: {raw!r} (unit {char!r} out of order)")
            if pending is None:
                # A bare leading unit means one of it (十五 = 15, 百二十 = 120), and so
                # does a bare 十 after a higher unit (第一百十回 = 110 in 三国演义).
                if index != 0 and not saw_zero and unit != 10:
                    raise ValueError(f"malformed Chinese numeral: {raw!r} (unit without digit)")
                pending = 1
            total += pending * unit
            pending = None
            last_unit = unit
            saw_zero = False
        else:
            digit = DIGITS[char]
            if pending is not None:
                raise ValueError(f"malformed Chinese numeral: {raw!r} (two digits in a row)")
            if digit == 0:
                if index == len(s) - 1 and s != char:
                    raise ValueError(f"malformed Chinese numeral: {raw!r} (trailing zero)")
                saw_zero = True
                continue
            pending = digit
    if pending is not None:
        # Chapter numbers are ordinals: 第一百八回 is 108 (三国演义), not the colloquial
        # quantity 一百八 = 180, so a digit after 百/千 without 零 still counts units.
        total += pending
    return total


def to_chinese_number(
    n: int, style: ChineseNumberStyle = "standard", zero: Literal["零", "〇"] = "零"
) -> str:
    """Write 0 <= n <= 9999 as a Chinese numeral.

    `standard`: 一百零五, 十五, 一千零一十; `financial`: 壹佰零伍, 壹拾伍;
    `digits`: digit by digit as some editions number chapters (一一九, 一二〇 with zero="〇").
    """
    if not 0 <= n <= 9999:
        raise ValueError(f"to_chinese_number handles 0..9999, got {n}")
    if style == "digits":
        digits = zero + _STANDARD_DIGITS[1:]
        return "".join(digits[int(d)] for d in str(n))
    financial = style == "financial"
    digits = _FINANCIAL_DIGITS if financial else _STANDARD_DIGITS
    units = _FINANCIAL_UNITS if financial else _STANDARD_UNITS
    if n == 0:
        return digits[0]
    parts: list[str] = []
    pending_zero = False
    for power in (3, 2, 1, 0):
        digit = (n // 10**power) % 10
        if digit == 0:
            pending_zero = bool(parts)
            continue
        if pending_zero:
            parts.append(digits[0])
            pending_zero = False
        # Standard style writes 十五, not 一十五, when ten is the leading unit.
        if not (power == 1 and digit == 1 and not parts and not financial):
            parts.append(digits[digit])
        parts.append(units[power])
    return "".join(parts)


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


def to_roman(n: int) -> str:
    """Write 1 <= n <= 3999 as a roman numeral in capitals."""
    if not 1 <= n <= 3999:
        raise ValueError(f"to_roman handles 1..3999, got {n}")
    out: list[str] = []
    for value, letters in (
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
        (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ):  # fmt: skip
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


# Number words per language (`Twenty-One`, `Erstes`, `primero`): a reader returns the
# value or None. English is registered by `lengthwise.text.number_words`.
NumberWordReader = Callable[[str], "int | None"]
NUMBER_WORD_READERS: dict[str, NumberWordReader] = {}


def register_number_words(language: str, reader: NumberWordReader) -> None:
    """Teach `parse_number` the number words of `language` (an ISO 639-1 code)."""
    NUMBER_WORD_READERS[language] = reader


def parse_number_words(text: str, language: str | None = None) -> int | None:
    """The value of number words in `language` (every registered language when None)."""
    # Imported here: the English reader registers itself on import, and imports this module.
    from lengthwise.text import number_words, number_words_europe  # noqa: F401

    languages = [language] if language else list(NUMBER_WORD_READERS)
    for code in languages:
        reader = NUMBER_WORD_READERS.get(code)
        value = reader(text) if reader else None
        if value is not None:
            return value
    return None


def parse_number(text: str, language: str | None = None) -> int | None:
    """Any number as printed: digits of either width, a roman or CJK numeral (with its
    look-alikes), or number words of `language`; None when `text` is none of these."""
    stripped = text.strip().rstrip(".")
    if not stripped:
        return None
    arabic = stripped.translate(TO_ARABIC)
    if arabic.isascii() and arabic.isdigit():
        return int(arabic)
    roman = parse_roman(stripped)
    if roman is not None:
        return roman
    if all(c in NUMERAL_CHARS or c in ALL_DIGITS for c in stripped):
        try:
            return parse_chinese_number(stripped)
        except ValueError:
            return None
    return parse_number_words(stripped, language)
