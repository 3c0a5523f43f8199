"""Comparison text: what two copies of one work still share after script, encoding, layout
and punctuation differences are taken away, cut into shingles.

- Chinese is converted traditional -> simplified with OpenCC (``t2s``), so a Big5 traditional
  copy and a GBK simplified copy of one novel compare equal; text in other languages is
  case-folded.
- Every CJK character is a token (Chinese has no spaces between words); any other run of
  letters or digits is a token; punctuation, whitespace and symbols are dropped, so line
  breaks, full-width/ASCII punctuation and indentation do not matter.
- A shingle is ``k`` consecutive tokens, hashed to 64 bits (a polynomial over the token ids,
  then a mixing step). Only shingles whose hash is divisible by ``SAMPLE_RATE`` are kept:
  the same shingle is kept or dropped in every book (consistent sampling), so the Jaccard
  similarity of the sampled sets estimates that of the full sets, at a quarter of the cost.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

SAMPLE_RATE = 4
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W\d_{_CJK}]+|\d+")
_WORDS = 0x110000  # word ids start past the last code point
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)


@lru_cache(maxsize=1)
def _to_simplified() -> Any:
    import opencc  # imported lazily: only books being compared need it

    return opencc.OpenCC("t2s")


def comparison_text(text: str, language: str) -> str:
    """The text as compared: NFKC, simplified script for Chinese, case-folded otherwise."""
    normalised = unicodedata.normalize("NFKC", text)
    if language == "zh":
        return str(_to_simplified().convert(normalised))
    return normalised.casefold()


def token_ids(text: str) -> npt.NDArray[np.uint64]:
    """One id per token: a CJK character's code point, a word's CRC-32 shifted past Unicode."""
    ids = [
        ord(token)
        if len(token) == 1 and token > "\u2fff"
        else zlib.crc32(token.encode()) + 0x110000
        for token in _TOKEN.findall(text)
    ]
    return np.asarray(ids, dtype=np.uint64)


def _mix(values: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """splitmix64's finaliser: spreads polynomial hashes over all 64 bits."""
    values = values ^ (values >> np.uint64(30))
    values = values * np.uint64(0xBF58476D1CE4E5B9)
    values = values ^ (values >> np.uint64(27))
    values = values * np.uint64(0x94D049BB133111EB)
    return values ^ (values >> np.uint64(31))


def shingle_hashes(text: str, language: str, size: int) -> npt.NDArray[np.uint32]:
    """The distinct sampled shingle hashes of ``text`` (32-bit values for MinHash), sorted."""
    ids = token_ids(comparison_text(text, language))
    if len(ids) < size:
        return np.zeros(0, dtype=np.uint32)
    count = len(ids) - size + 1
    with np.errstate(over="ignore"):  # arithmetic modulo 2**64 is intended
        hashes = np.zeros(count, dtype=np.uint64)
        for offset in range(size):
            hashes *= _MULTIPLIER
            hashes += ids[offset : offset + count]
        mixed = _mix(hashes)
    kept = mixed[mixed % np.uint64(SAMPLE_RATE) == 0] >> np.uint64(32)
    distinct: npt.NDArray[np.uint32] = np.unique(kept.astype(np.uint32))
    return distinct
