"""Compression ratios: how many times longer the source is than its summary.

Token level: words(source) / words(summary) (`lengthwise.text.words`: jieba words for
Chinese, lowercased words for English). Sentence level: sentences(source) /
sentences(summary) (`lengthwise.text.sentences`). A summary without words or
sentences is a ValueError: the ratio is undefined, and a zero would look like data.
"""

from __future__ import annotations

from lengthwise.text import sentences, words


def ratio(source_units: int, summary_units: int, unit: str) -> float:
    if summary_units <= 0:
        raise ValueError(f"the summary has no {unit}: compression ratio is undefined")
    return source_units / summary_units


def compression_ratio(source: str, summary: str, lang: str) -> float:
    """Token-level compression ratio: words in the source per word in the summary."""
    return ratio(len(words(source, lang)), len(words(summary, lang)), "words")


def sentence_compression_ratio(source: str, summary: str, lang: str) -> float:
    """Sentence-level compression ratio: source sentences per summary sentence."""
    return ratio(len(sentences(source, lang)), len(sentences(summary, lang)), "sentences")
