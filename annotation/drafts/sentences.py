"""Sentence splitting for Chinese and English prose, good enough for extractive drafts.

A sentence keeps its closing punctuation and any closing quotes after it, so that
sentences joined back together read like the original. Splitting never drops or
reorders characters: the sentences of a paragraph concatenate to the paragraph
(whitespace between English sentences aside).
"""

from __future__ import annotations

import re

_ZH_ENDS = frozenset("。！？…")  # not ；: it joins clauses of one sentence
_EN_ENDS = frozenset(".!?")
_OPENERS = frozenset("“‘「『（(")
_CLOSERS = frozenset("”’」』）)")
# Abbreviations after which a full stop does not end the sentence.
_EN_ABBREVIATIONS = frozenset(
    {"mr", "mrs", "ms", "dr", "st", "jr", "sr", "prof", "capt", "col", "gen", "lt", "mt", "no"}
)
_LAST_WORD = re.compile(r"([A-Za-z]+)\.$")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def is_chinese(text: str, threshold: float = 0.3) -> bool:
    """Whether CJK characters make up at least `threshold` of the non-space characters."""
    visible = [c for c in text if not c.isspace()]
    if not visible:
        return False
    return sum(1 for c in visible if _CJK.match(c)) / len(visible) >= threshold


def paragraphs(text: str) -> list[str]:
    """Non-empty lines, stripped (the corpus stores one paragraph per line)."""
    return [line.strip(" \t\u3000\r") for line in text.split("\n") if line.strip(" \t\u3000\r")]


def split_sentences(text: str, language: str) -> list[str]:
    """Sentences of `text` in order; `language` is "zh" or anything else (English rules).

    A sentence ends at end punctuation outside quotes and brackets, or at the closing
    quote right after it, so a quoted speech of several sentences stays one sentence and
    no sentence starts or ends inside a quotation.
    """
    out: list[str] = []
    for paragraph in paragraphs(text):
        out += [s for s in _scan(paragraph, language == "zh") if s]
    return out


def _scan(paragraph: str, zh: bool) -> list[str]:
    ends = _ZH_ENDS if zh else _EN_ENDS
    sentences: list[str] = []
    start = 0
    depth = 0
    after_end = False  # the previous character ended a sentence (inside quotes, maybe)
    for i, char in enumerate(paragraph):
        if char == '"':  # straight quotes open or close by parity
            char = "“" if depth == 0 else "”"
        if char in _OPENERS:
            depth += 1
        elif char in _CLOSERS:
            depth = max(0, depth - 1)
        if char in ends:
            after_end = True
        elif char not in _CLOSERS:
            after_end = False
        if not after_end or depth:
            continue
        following = paragraph[i + 1 : i + 2]
        if following and (following in _CLOSERS or following in ends or following == '"'):
            continue  # the sentence goes on to take its closing marks
        if not zh and following and not following.isspace():
            continue  # "3.5", "e.g.x": not a boundary
        if not zh and _abbreviation(paragraph[: i + 1]):
            continue
        sentences.append(paragraph[start : i + 1].strip())
        start = i + 1
        after_end = False
    sentences.append(paragraph[start:].strip())
    return sentences


def _abbreviation(head: str) -> bool:
    """Whether the full stop ending `head` belongs to "Mr." or an initial such as "J."."""
    match = _LAST_WORD.search(head)
    if not match:
        return False
    word = match.group(1)
    return word.lower() in _EN_ABBREVIATIONS or (len(word) == 1 and word.isupper())
