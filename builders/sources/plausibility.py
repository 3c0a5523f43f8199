"""Is a legacy-codec reading of some bytes plausible text? The check behind every legacy guess.

A legacy codec (cp1252, GBK, Big5, Shift_JIS ...) decodes almost any byte string into *some*
characters, so "it decoded" proves nothing: stray bytes in English become half-width katakana,
private-use characters or a lone ideograph. A reading is believed only when the characters the
non-ASCII bytes turned into are what text in the file's own script contains:

* mostly-ASCII (Latin-script) text: Latin letters inside words that also hold an ASCII letter
  (café, Zürich) or standing alone as a one-letter word (à, À); punctuation that
  touches text on one side and is not wedged between two letters (“quotes”, don’t), or is a
  free-standing dash or ellipsis; CJK characters only in runs (a name such as 李白);
* mostly non-ASCII text: letters of one dominant script group (CJK ideographs with kana,
  Hangul and full-width forms count as one group; Cyrillic, Greek ... each its own) plus
  punctuation.

Undecodable bytes, controls, private-use, unassigned and half-width katakana characters always
count against a reading. No-break spaces are neutral: whitespace is no evidence for any codec.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass

# Below this share of non-ASCII bytes a file is Latin-script text with a few special characters.
MOSTLY_ASCII_SHARE = 0.3
# A reading is plausible when at least this share of its non-ASCII characters are plausible.
MIN_PLAUSIBLE_SHARE = 0.95
# In Latin-script text a double-byte reading needs this many CJK characters: a few stray bytes
# can pair up into one or two "ideographs", a real name or phrase list rarely stays this short.
MIN_CJK_IN_LATIN = 6
# Characters that may stand between two letters: "don’t", "well‐known", "then—at last".
_INSIDE_WORD = "\u2019\u2010\u00ad\u2013\u2014"
_NEUTRAL = "\u00a0\u202f\u2007"
# Punctuation that stands between spaces in ordinary prose.
_FREE_STANDING = "\u2013\u2014\u2026\u2022\u00a7\u00b6\u00b7\u00d7"
_UNDECODABLE = "\ufffd"


@dataclass(frozen=True)
class Reading:
    """How plausible one decoding of a sample is."""

    plausible: int  # non-ASCII characters that fit the script
    implausible: int  # non-ASCII characters that do not (undecodable bytes included)
    min_evidence: int = 1  # plausible characters needed before the reading is believed

    @property
    def share(self) -> float:
        total = self.plausible + self.implausible
        return self.plausible / total if total else 0.0

    @property
    def believable(self) -> bool:
        return self.plausible >= self.min_evidence and self.share >= MIN_PLAUSIBLE_SHARE


def mostly_ascii(sample: bytes) -> bool:
    """True when non-ASCII bytes are under MOSTLY_ASCII_SHARE of the non-space bytes."""
    visible = len(sample) - sum(sample.count(c) for c in b" \t\r\n")
    non_ascii = sum(1 for byte in sample if byte >= 0x80)
    return visible > 0 and non_ascii < MOSTLY_ASCII_SHARE * visible


def script_group(char: str) -> str:
    """A coarse script for a letter: "cjk", "latin", "cyrillic", "greek", ...; "bad" for
    characters no text contains; "punct" for punctuation, symbols, numbers and spaces."""
    if char == _UNDECODABLE or "\uff61" <= char <= "\uff9f":  # half-width katakana
        return "bad"
    category = unicodedata.category(char)
    if category in ("Cc", "Co", "Cn", "Cs"):
        return "bad"
    name = unicodedata.name(char, "")
    if name.startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "FULLWIDTH", "IDEOGRAPHIC")):
        return "cjk"
    if category[0] != "L":
        return "punct"
    return name.split(" ", 1)[0].lower() or "bad"


def latin_reading(text: str, single_byte: bool) -> Reading:
    """Plausibility of the non-ASCII characters of mostly-ASCII `text`."""
    plausible = implausible = 0
    for index, char in enumerate(text):
        if char < "\x80" or char in _NEUTRAL:
            continue
        if _plausible_in_latin(text, index, script_group(char), single_byte):
            plausible += 1
        else:
            implausible += 1
    return Reading(plausible, implausible, 1 if single_byte else MIN_CJK_IN_LATIN)


def _plausible_in_latin(text: str, index: int, group: str, single_byte: bool) -> bool:
    before = text[index - 1] if index > 0 else " "
    after = text[index + 1] if index + 1 < len(text) else " "
    if group == "latin":
        # Double-byte codecs' Latin letters (pinyin tables) are accidents in English text.
        return single_byte and _latin_word(text, index)
    if group == "punct":
        char = text[index]
        if unicodedata.category(char) == "Sk":
            return False  # spacing accents (˙ ¨ ´): what stray bytes become, not prose
        if before.isalpha() and after.isalpha():
            return char in _INSIDE_WORD
        isolated = _is_space(before) and _is_space(after)
        return not isolated or char in _FREE_STANDING
    if group == "cjk":
        # A name or phrase is a run; one stray byte pair makes a lone ideograph.
        return script_group(before) == "cjk" or script_group(after) == "cjk"
    return False


def _is_space(char: str) -> bool:
    return char.isspace() or char in _NEUTRAL


def _latin_word(text: str, index: int) -> bool:
    """The word around text[index] holds an ASCII letter, or is one lower-case letter (à)."""
    start = index
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    end = index + 1
    while end < len(text) and text[end].isalpha():
        end += 1
    word = text[start:end]
    if len(word) == 1:  # a one-letter word stands between spaces or ASCII punctuation
        outside = (text[start - 1] if start else " ") + (text[end] if end < len(text) else " ")
        return all(char < "\x80" or _is_space(char) for char in outside)
    return any(char < "\x80" for char in word)


def wide_reading(text: str) -> Reading:
    """Plausibility of the non-ASCII characters of mostly non-ASCII `text`: one script group
    (the most frequent) plus punctuation are plausible, everything else is not."""
    groups = Counter(script_group(char) for char in text if char >= "\x80" and char not in _NEUTRAL)
    letters = [(n, g) for g, n in groups.items() if g not in ("punct", "bad")]
    dominant = max(letters)[0] if letters else 0
    total = sum(groups.values())
    plausible = dominant + groups.get("punct", 0)
    return Reading(plausible, total - plausible)


def texty_share(text: str) -> float:
    """Share of characters that ordinary text contains (no controls, unassigned, private use)."""
    if not text:
        return 0.0
    sample = text[:4096]
    ok = sum(
        1
        for char in sample
        if char in "\t\n\r\f" or unicodedata.category(char) not in ("Cc", "Cn", "Co", "Cs")
    )
    return ok / len(sample)


def plausible_utf16_text(text: str) -> bool:
    """Guards BOM-less UTF-16/32 guesses: those decoders accept most byte strings, so ask for
    text-like characters, almost all in the Basic Multilingual Plane, and whitespace or CJK."""
    if texty_share(text) < 0.95:
        return False
    sample = text[:4096]
    beyond_bmp = sum(1 for char in sample if char > "\uffff")
    has_space = any(char in sample for char in " \n\t\u3000")
    cjk = sum(1 for char in sample if "\u3000" <= char <= "\u9fff" or "\uff00" <= char <= "\uffef")
    mostly_cjk = cjk >= 0.5 * len(sample)  # Chinese paragraphs can run without whitespace
    return beyond_bmp <= len(sample) * 0.01 and (has_space or mostly_cjk or len(sample) < 200)
