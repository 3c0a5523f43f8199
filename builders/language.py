"""Language detection for books: Chinese vs English by script share.

Books are long, so a script count over a bounded sample is reliable and fast; the
project only needs the languages its rule sets and chapter detectors support.
"""

from __future__ import annotations

import re

SAMPLE_CHARS = 60_000
# Both counts are taken in C, without building a string per run of letters:
# Latin letters are the ASCII bytes A-Z, a-z of the UTF-8 encoding (every byte of a
# non-ASCII character is >= 0x80); ideographs (U+3400-4DBF, U+4E00-9FFF, U+F900-FAFF)
# are the UTF-16 code units whose high byte is 0x34-0x9F or 0xF9-0xFA, less the
# U+4DC0-4DFF hexagram symbols that share the high byte 0x4D (surrogates are 0xD8-0xDF).
_NOT_LATIN_LETTER = bytes(b for b in range(256) if not (0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A))
_NOT_CJK_HIGH_BYTE = bytes(b for b in range(256) if not (0x34 <= b <= 0x9F or 0xF9 <= b <= 0xFA))
_HEXAGRAM = re.compile(r"[\u4dc0-\u4dff]")


def detect_language(text: str) -> str:
    """Return "zh" when CJK ideographs outnumber Latin letters / 4 in a sample, else "en".

    A Chinese book quoting English words stays "zh"; an English book with a few
    Chinese names stays "en" (a CJK char carries roughly four Latin letters' content).
    """
    sample = _sample(text)
    return "zh" if count_ideographs(sample) * 4 > count_latin_letters(sample) else "en"


def count_latin_letters(text: str) -> int:
    """Characters of `text` in A-Z, a-z."""
    return len(text.encode("utf-8", "surrogatepass").translate(None, _NOT_LATIN_LETTER))


def count_ideographs(text: str) -> int:
    """Characters of `text` in U+3400-4DBF, U+4E00-9FFF, U+F900-FAFF."""
    high_bytes = text.encode("utf-16-be", "surrogatepass")[0::2]
    count = len(high_bytes.translate(None, _NOT_CJK_HIGH_BYTE))
    if count and b"\x4d" in high_bytes:
        count -= len(_HEXAGRAM.findall(text))
    return count


def _sample(text: str) -> str:
    if len(text) <= SAMPLE_CHARS:
        return text
    third = SAMPLE_CHARS // 3
    middle = len(text) // 2
    return text[:third] + text[middle : middle + third] + text[-third:]
