"""How summaries are measured: length units, n-grams and tokens per language.

Limits follow CNNSum: Chinese summaries are limited in characters, others in words.
- Chinese length = every non-whitespace character, punctuation included (what a
  "500 字" limit means in an editor's character count).
- English (and other space-separated languages) length = whitespace-separated tokens
  that contain at least one letter or digit ("—" alone is not a word).
- Copy detection n-grams: Chinese uses *character* n-grams over letters/digits/CJK
  (punctuation and spaces dropped). Character 4-grams (about two words) need no
  segmenter, so the share does not move with jieba's dictionary; English uses
  lower-cased word n-grams.
- Words for ROUGE and passage retrieval come from `lengthwise.text` (jieba for Chinese).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]")
_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
_HAS_ALNUM = re.compile(r"[^\W_]")


def is_chinese(language: str) -> bool:
    return language.lower().startswith("zh")


def length_unit(language: str) -> str:
    """The unit a summary limit is counted in: "chars" for Chinese, else "words"."""
    return "chars" if is_chinese(language) else "words"


def limit_label(limit: int, language: str) -> str:
    """How the limit is shown to annotators, e.g. "≤ 500 字" or "≤ 600 words"."""
    return f"≤ {limit} 字" if is_chinese(language) else f"≤ {limit} words"


def count_units(text: str, language: str) -> int:
    """Summary length in the language's limit unit (see module docstring)."""
    if is_chinese(language):
        return sum(1 for ch in text if not ch.isspace())
    return sum(1 for token in text.split() if _HAS_ALNUM.search(token))


def ngram_units(text: str, language: str) -> list[str]:
    """The units n-grams are built from: characters for Chinese, lower-cased words else."""
    if is_chinese(language):
        return [ch for ch in text if ch.isalnum() or _CJK.match(ch)]
    return [w.lower() for w in _WORD.findall(text)]


def ngrams(units: Sequence[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(units[i : i + n]) for i in range(len(units) - n + 1)]


def text_language(language: str) -> str:
    """The language code `lengthwise.text` tokenises with: "zh" for Chinese, else "en"."""
    return "zh" if is_chinese(language) else "en"
