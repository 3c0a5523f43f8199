"""Language detection for books: any language, with a fast path for Chinese and English.

Books are long, so a bounded sample is reliable. Chinese (ideographs without kana or
Hangul) and English (Latin letters with English function words) are decided by counts
taken in C; any other text goes to a language identifier (py3langid: langid.py's model,
97 languages, shipped in the wheel, loaded on first use), so a French, Russian or
Japanese book is named as such instead of being called English.

zh, en and ja have rule sets of their own (`SUPPORTED_LANGUAGES`: ja's are the Aozora
Bunko conventions). Every other language goes the generic path: the common and
Gutenberg cleaning rules, learned boilerplate, headings read in its script (CJK
numerals for `CJK_LANGUAGES`, Latin keywords and numbers otherwise, with the heading
words of `HEADING_WORD_LANGUAGES`) and the audit; its book report carries a warning
saying so (`generic_path_warning`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

# The languages with cleaning rule sets and chapter detectors of their own.
SUPPORTED_LANGUAGES = ("zh", "en", "ja")
# Languages whose headings and numbers are read as CJK text (第一章, 一, 上).
CJK_LANGUAGES = ("zh", "ja")
# Languages whose chapter and part words heading detection knows (chapters/latin_words.py;
# listed here so the warning can name them without importing chapter detection).
HEADING_WORD_LANGUAGES = ("de", "fr", "es", "it", "pt", "nl", "ru")
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
    """The language of `text` as an ISO 639-1 code ("zh", "en", "fr", "ru", "ja", ...).

    "zh" when CJK ideographs outnumber Latin letters / 4 in a sample (a CJK character
    carries roughly four Latin letters' content) and kana and Hangul are rare among them;
    "en" when Latin letters dominate and English function words are frequent. Otherwise
    the language identifier decides, believed at probability >= 0.9 on at least 500
    letters; below that (short or mixed texts) the script's guess stands: "zh" for
    ideographs, else "en". A Chinese book quoting English words stays "zh"; an English
    book with a few Chinese names stays "en".
    """
    sample = _sample(text)
    ideographs, latin = count_ideographs(sample), count_latin_letters(sample)
    if ideographs * 4 > latin:
        if _kana_and_hangul(sample) * _KANA_SHARE_DENOMINATOR <= ideographs:
            return "zh"
        script_guess = "zh"
    else:
        if latin and _english_words(sample) * 1000 >= latin * _ENGLISH_WORDS_PER_1000_LETTERS:
            return "en"
        script_guess = "en"
    return _identified(sample) or script_guess


# Japanese prose is a third or more kana; Chinese e-texts hold a stray `の` at most.
_KANA_OR_HANGUL = re.compile(r"[\u3040-\u30ff\u3130-\u318f\uac00-\ud7af]")
_KANA_SHARE_DENOMINATOR = 50  # zh only while kana + Hangul <= 2% of the ideographs
# English prose holds 24-31 of these per 1,000 Latin letters (the ten shared English
# books); French, German or Dutch prose next to none.
_ENGLISH_WORDS = (" the ", " and ", " of ", " to ")
_ENGLISH_WORDS_PER_1000_LETTERS = 8
_IDENTIFY_CHARS = 20_000
_MIN_LETTERS_TO_IDENTIFY = 500
_MIN_PROBABILITY = 0.9
_NOT_LANGUAGE = "zxx"  # the identifier's "no linguistic content"


def _kana_and_hangul(sample: str) -> int:
    if _KANA_OR_HANGUL.search(sample) is None:
        return 0
    return len(_KANA_OR_HANGUL.findall(sample))


def _english_words(sample: str) -> int:
    return sum(sample.count(word) for word in _ENGLISH_WORDS)


def _identified(sample: str) -> str | None:
    """The identifier's language for `sample`, or None when it is not sure."""
    sample = sample[:_IDENTIFY_CHARS]
    if sum(c.isalpha() for c in sample) < _MIN_LETTERS_TO_IDENTIFY:
        return None
    language, probability = _identifier().classify(sample)
    if probability < _MIN_PROBABILITY or language == _NOT_LANGUAGE:
        return None
    return str(language)


@lru_cache(maxsize=1)
def _identifier() -> Any:  # py3langid ships no type hints
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def base_language(language: str) -> str:
    """ "zh-Hans", "zh_TW", "ZH" -> "zh"; "en-US" -> "en"; other codes are returned lowered."""
    return re.split(r"[-_]", language.strip().lower(), maxsplit=1)[0]


def is_supported(language: str) -> bool:
    """Whether `language` ("zh", "zh-Hans", "en_US", "ja", ...) has rule sets of its own."""
    return base_language(language) in SUPPORTED_LANGUAGES


def is_cjk(language: str) -> bool:
    """Whether `language`'s headings and numbers are read as CJK text (zh, ja)."""
    return base_language(language) in CJK_LANGUAGES


def generic_path_warning(language: str) -> str | None:
    """The book report's warning for a language without rule sets of its own, naming
    which rules it gets; None for zh, en and ja."""
    base = base_language(language)
    if base in SUPPORTED_LANGUAGES:
        return None
    if base in HEADING_WORD_LANGUAGES:
        headings = f"numbered headings with the {base} chapter/part words and number words"
    else:
        headings = "numbered headings in English words or bare numbers only"
    return (
        f"language {language!r}: generic path (no {base} rule set; supported with own "
        f"rules: {', '.join(SUPPORTED_LANGUAGES)}): common and Gutenberg cleaning rules, "
        f"learned boilerplate, {headings}, contents-list titles, and the audit"
    )


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


# A Project Gutenberg file wraps any language in English: its header and licence (a
# third of a short book's sample) would make a French novel read as English.
_PG_START = re.compile(r"\*\*\*\s*START OF (?:THE|THIS) PROJECT GUTENBERG[^\n]*", re.IGNORECASE)
_PG_END = re.compile(r"\*\*\*\s*END OF (?:THE|THIS) PROJECT GUTENBERG", re.IGNORECASE)
_PG_MARKER_CHARS = 40_000


def _without_gutenberg_wrapper(text: str) -> str:
    start = _PG_START.search(text, 0, _PG_MARKER_CHARS)
    end = _PG_END.search(text, max(0, len(text) - 4 * _PG_MARKER_CHARS))
    if start is None and end is None:
        return text
    body = text[start.end() if start else 0 : end.start() if end else len(text)]
    return body if body.strip() else text


def _sample(text: str) -> str:
    text = _without_gutenberg_wrapper(text)
    if len(text) <= SAMPLE_CHARS:
        return text
    third = SAMPLE_CHARS // 3
    middle = len(text) // 2
    return text[:third] + text[middle : middle + third] + text[-third:]
