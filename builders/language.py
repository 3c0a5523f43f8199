"""Language detection for books: Chinese vs English by script share.

Books are long, so a script count over a bounded sample is reliable and fast; the
project only needs the languages its rule sets and chapter detectors support.
"""

from __future__ import annotations

import re

# Runs, not single characters: counting run lengths builds a few thousand strings
# instead of one per character.
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_LATIN_RUN = re.compile(r"[A-Za-z]+")
SAMPLE_CHARS = 60_000


def detect_language(text: str) -> str:
    """Return "zh" when CJK ideographs outnumber Latin letters / 4 in a sample, else "en".

    A Chinese book quoting English words stays "zh"; an English book with a few
    Chinese names stays "en" (a CJK char carries roughly four Latin letters' content).
    """
    sample = _sample(text)
    cjk = sum(map(len, _CJK_RUN.findall(sample)))
    latin = sum(map(len, _LATIN_RUN.findall(sample)))
    return "zh" if cjk * 4 > latin else "en"


def _sample(text: str) -> str:
    if len(text) <= SAMPLE_CHARS:
        return text
    third = SAMPLE_CHARS // 3
    middle = len(text) // 2
    return text[:third] + text[middle : middle + third] + text[-third:]
