"""Words and sentences for Chinese and English, shared by statistics and evaluation.

Chinese words come from jieba's default mode (``jieba.cut(text)``, HMM on). When the
``rjieba`` package (a binding of the Rust port jieba-rs, same dictionary) is installed
it is used instead for speed: on the four shared classics (2.9 M characters) it gave
token-identical output except on 2 of about 100k lines, at about 20x jieba's speed,
which is what keeps statistics over a whole release within a minute. `SEGMENTER`
says which one runs; pass ``segmenter="jieba"`` where exact jieba output matters
(CNNSum-compatible ROUGE always uses jieba itself, see lengthwise.text.rouge).

Text is segmented line by line: jieba splits its input at every character outside
its word-character class (a newline is one) before segmenting, so per-line
segmentation gives the same words as segmenting the whole text, and lines shared by
overlapping samples (nested subsets reuse chapters) are segmented once (LRU cache).
"""

from __future__ import annotations

import functools
import importlib
import logging
import re
import threading
from collections.abc import Callable
from typing import Literal

from lengthwise.errors import UserError

Segmenter = Literal["auto", "jieba", "rjieba"]

_JIEBA_LOCK = threading.Lock()
_LINE_CACHE_SIZE = 200_000  # lines; a 128k-token Chinese sample has a few thousand

# English words: runs of letters/digits (Unicode-aware), lowercased. "don't" -> don, t
# (the same split ROUGE tokenizers make).
_EN_WORD = re.compile(r"[^\W_]+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

# Chinese sentence ends: a run of terminators, then any closing quotes/brackets that
# belong to the sentence (“……了。”), e.g. 他说：“走吧。”我们就走了。
_ZH_SENTENCE_END = re.compile(r"[。！？；…!?;]+[”’」』\"')）》]*")
# English: a candidate boundary is terminal punctuation (plus closing quotes) and
# whitespace before something that can start a sentence.
_EN_BOUNDARY = re.compile(r"([.!?]+[\"'”’)\]]*)\s+(?=[\"“‘'(\[]?[A-Z0-9])")
_EN_ABBREVIATIONS = frozenset(
    {
        *("mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "rev", "gen", "col", "capt"),
        *("lt", "sgt", "hon", "messrs", "mme", "mlle", "vs", "etc", "no", "vol", "fig"),
        *("ch", "pp", "ed", "eds", "al", "e.g", "i.e", "viz", "cf", "approx", "dept"),
        *("est", "inc", "ltd", "co", "mt", "ft"),
    }
)
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


@functools.cache
def _jieba_cut() -> Callable[[str], list[str]]:
    """jieba.cut as a list-returning function, initialised once with its log silenced."""
    with _JIEBA_LOCK:
        jieba = importlib.import_module("jieba")
        jieba.setLogLevel(logging.WARNING)  # it prints "Building prefix dict..." otherwise
        jieba.initialize()

        def cut(text: str) -> list[str]:
            return list(jieba.cut(text))

        return cut


@functools.cache
def _rjieba_cut() -> Callable[[str], list[str]] | None:
    try:
        rjieba = importlib.import_module("rjieba")
    except ImportError:
        return None
    cut: Callable[[str], list[str]] = rjieba.cut
    return cut


def segmenter_name(segmenter: Segmenter = "auto") -> str:
    """Which segmenter `words(..., "zh")` uses for `segmenter` ("jieba" or "rjieba")."""
    if segmenter == "jieba":
        return "jieba"
    if _rjieba_cut() is not None:
        return "rjieba"
    if segmenter == "rjieba":
        raise UserError("segmenter 'rjieba' requested but the rjieba package is not installed")
    return "jieba"


def cut_zh(text: str, segmenter: Segmenter = "auto") -> list[str]:
    """Raw jieba-style segmentation of `text` (whitespace and punctuation tokens included)."""
    if segmenter_name(segmenter) == "rjieba":
        cut = _rjieba_cut()
        assert cut is not None
        return cut(text)
    return _jieba_cut()(text)


# Token -> its lowercased form when it is a word, "" when it is whitespace or punctuation.
# Keeps CJK words, Latin words and numbers ([^\W_] matches CJK characters too). A
# plain dict: the distinct tokens of a corpus are few, and a lookup beats a regex.
_NORMALISED: dict[str, str] = {}
_WORD_CHAR = re.compile(r"[^\W_]")


def _normalise(token: str) -> str:
    value = token.lower() if _WORD_CHAR.search(token) else ""
    _NORMALISED[token] = value
    return value


@functools.lru_cache(maxsize=_LINE_CACHE_SIZE)
def _zh_line_words(line: str, segmenter: Segmenter) -> tuple[str, ...]:
    get = _NORMALISED.get
    out = []
    for token in cut_zh(line, segmenter):
        value = get(token)
        if value is None:
            value = _normalise(token)
        if value:
            out.append(value)
    return tuple(out)


def words(text: str, lang: str, *, segmenter: Segmenter = "auto") -> list[str]:
    """The word tokens of `text`: what statistics count and match.

    zh: jieba words (see module doc), whitespace and punctuation tokens dropped, Latin
    letters lowercased. ja: each ideograph and kana a token (jieba's dictionary is
    Chinese; runs of Latin letters or digits stay words). en and every other language
    code: lowercased runs of letters and digits (any script). Raises ValueError for an
    empty or malformed code.
    """
    _check_code(lang)
    if lang == "ja":
        return [token.lower() for token in _JA_TOKEN.findall(text)]
    if lang == "zh":
        out: list[str] = []
        for line in text.split("\n"):
            if line.strip():
                out.extend(_zh_line_words(line, segmenter))
        return out
    return _EN_WORD.findall(text.lower())


# A Japanese token: one ideograph or kana (or the prolonged sound mark), or a run of
# other letters and digits.
_JA_TOKEN = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|(?:(?![\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])[^\W_])+"
)


def _check_code(lang: str) -> None:
    if not (lang.isascii() and lang.isalpha() and 2 <= len(lang) <= 3):
        raise ValueError(f"unsupported language {lang!r} (a code such as 'zh', 'en', 'ja', 'fr')")


def _has_word(sentence: str) -> bool:
    return _WORD_CHAR.search(sentence) is not None


def _zh_sentences(text: str) -> list[str]:
    out: list[str] = []
    for line in text.split("\n"):
        start = 0
        for match in _ZH_SENTENCE_END.finditer(line):
            out.append(line[start : match.end()])
            start = match.end()
        out.append(line[start:])
    return [s.strip() for s in out if _has_word(s)]


def _is_abbreviation(before: str) -> bool:
    """True when the text before a '.' ends with an abbreviation or a single initial."""
    last = before.rsplit(None, 1)[-1] if before.strip() else ""
    last = last.lstrip("\"'“‘([").lower()
    return last in _EN_ABBREVIATIONS or (len(last) == 1 and last.isalpha())


def _en_sentences(text: str) -> list[str]:
    out: list[str] = []
    # Blank lines separate paragraphs; single newlines are hard wraps (Gutenberg texts).
    for paragraph in _PARAGRAPH_BREAK.split(text):
        flat = " ".join(paragraph.split())
        start = 0
        for match in _EN_BOUNDARY.finditer(flat):
            single_period = match.group(1).rstrip("\"'”’)]") == "."
            if single_period and _is_abbreviation(flat[start : match.start()]):
                continue
            out.append(flat[start : match.end(1)])
            start = match.end()
        out.append(flat[start:])
    return [s.strip() for s in out if _has_word(s)]


def paragraphs(text: str) -> list[str]:
    """The paragraphs of `text`: pieces between blank lines, stripped, empty ones dropped.

    Cleaned books (zh and en) separate paragraphs with a blank line; single newlines inside
    a paragraph (verse lines, hard wraps) are kept.
    """
    return [p.strip() for p in _PARAGRAPH_BREAK.split(text) if p.strip()]


def sentences(text: str, lang: str) -> list[str]:
    """The sentences of `text`, stripped; pieces without any letter or digit are dropped.

    zh: a sentence ends after a run of 。！？；… (or ASCII !?;) plus any closing quotes
    or brackets, and at every line end (lines are paragraphs in Chinese e-texts).
    en: paragraphs are split at blank lines (single newlines are hard wraps); inside a
    paragraph a sentence ends at . ! ? (plus closing quotes) followed by whitespace and
    an upper-case letter, digit or opening quote, except after common abbreviations
    (Mr., Dr., St., e.g., ...) and single-letter initials.
    ja: as zh (。！？ end sentences, lines are paragraphs). Any other language code: as en.
    """
    _check_code(lang)
    if lang in ("zh", "ja"):
        return _zh_sentences(text)
    return _en_sentences(text)


def detect_lang(text: str, sample_chars: int = 20_000) -> str:
    """'zh' when CJK characters are at least a fifth of (CJK characters + Latin words)."""
    head = text[:sample_chars]
    cjk = len(_CJK.findall(head))
    latin_words = len(re.findall(r"[A-Za-z]+", head))
    # A CJK character is about a word; compare with Latin words, not Latin letters.
    return "zh" if cjk and cjk >= 0.2 * (cjk + latin_words) else "en"
