"""Chinese numerals as printed in chapter headings, both ways.

Headings in scraped Chinese books use every numeral style at once: standard
(一百二十), financial (壹佰贰拾), contracted tens (廿一, 卅), 两 for two, zero as
零/〇/○, digit-by-digit (一一九 = 119, 一二零 = 120, as in 红楼梦), arabic and
full-width digits, sometimes zero-padded (第01回). `parse_chinese_number`
accepts all of them; `to_chinese_number` writes the standard, financial and
digit-by-digit forms so the parser can be property-tested against it.
"""

from __future__ import annotations

from typing import Literal

ChineseNumberStyle = Literal["standard", "financial", "digits"]

DIGITS: dict[str, int] = {
    "零": 0, "〇": 0, "○": 0,
    "一": 1, "壹": 1,
    "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2,
    "三": 3, "叁": 3, "參": 3, "参": 3,
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
FULLWIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")

# Every character a numeral in a heading may contain; the heading regexes are built from it.
NUMERAL_CHARS: str = "".join(DIGITS) + "".join(UNITS) + "".join(CONTRACTED_TENS)

_STANDARD_DIGITS = "零一二三四五六七八九"
_FINANCIAL_DIGITS = "零壹贰叁肆伍陆柒捌玖"
_STANDARD_UNITS = ("", "十", "百", "千")
_FINANCIAL_UNITS = ("", "拾", "佰", "仟")


def parse_chinese_number(s: str) -> int:
    """The integer a Chinese (or arabic / full-width) numeral denotes.

    Raises ValueError, quoting the input, for empty or malformed numerals
    (unknown characters, units out of order such as 十百, a trailing 零).
    """
    raw = s
    s = s.strip().translate(FULLWIDTH_DIGITS)
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
    saw_zero = after_higher and s.startswith(("零", "〇", "○"))
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
