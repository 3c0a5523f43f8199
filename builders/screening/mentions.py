"""Does a probe output name the book or its author? Normalised matching, zh and en.

Names are compared after NFKC normalisation and case folding. Names with CJK characters
are found as substrings of the output with spaces and punctuation removed; other names
must match whole words ("moby dick" in "... of Moby-Dick, ..."). Variants tried: the full
title; the part before a subtitle (":", ";", " or ", a dash or a bracket); without a
leading article; for authors the full name and, for Latin-script names, the surname.
Underscores (titles taken from file names) count as spaces.

A name that occurs in the chapter text itself proves nothing (the model may just be
repeating the text), so such names are not counted. Out of scope: alternative titles
(a translated title, "石头记" for 红楼梦), traditional/simplified variants, pen names.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)
_SUBTITLE = re.compile(r"\s*(?:[:;：；(（\[—–]|\s-\s|,\s*or\b|\bor,)\s*", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
_BRACKETS = re.compile(r"[《》〈〉「」『』]")
MIN_LATIN_LETTERS = 4  # shorter names ("Emma" is fine, "Us" is not) match too much
MIN_CJK_CHARS = 2


@dataclass(frozen=True)
class Mention:
    kind: str  # "title" or "author"
    name: str  # the variant found, as written in the book's metadata


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _words(text: str) -> str:
    """Lower-case words separated by single spaces, padded: ' moby dick '."""
    return f" {' '.join(_NON_WORD.sub(' ', _fold(text)).split())} "


def _compact(text: str) -> str:
    """Everything but spaces and punctuation, for CJK substring matching."""
    return _NON_WORD.sub("", _fold(text))


def title_variants(title: str) -> list[str]:
    base = _BRACKETS.sub("", title.replace("_", " ")).strip()
    variants = [base]
    head = _SUBTITLE.split(base, maxsplit=1)[0].strip()
    variants.append(head)
    variants += [_ARTICLE.sub("", v) for v in list(variants)]
    return _usable(variants)


def author_variants(author: str | None) -> list[str]:
    if not author:
        return []
    name = author.replace("_", " ").strip()
    variants = [name]
    if not _CJK.search(name):
        words = name.replace(",", " ").split()
        if len(words) > 1:
            # "Melville, Herman" and "Herman Melville" both give the surname.
            variants.append(words[0] if "," in name else words[-1])
    return _usable(variants)


def _usable(variants: list[str]) -> list[str]:
    out: list[str] = []
    for variant in variants:
        if _CJK.search(variant):
            ok = len(_compact(variant)) >= MIN_CJK_CHARS
        else:
            ok = sum(c.isalpha() for c in variant) >= MIN_LATIN_LETTERS
        if ok and variant not in out:
            out.append(variant)
    return out


def contains_name(text: str, name: str) -> bool:
    """Whether `name` occurs in `text` under the normalisation described above."""
    if _CJK.search(name):
        return _compact(name) in _compact(text)
    return _words(name) in _words(text)


def find_mentions(output: str, chapter_text: str, title: str, author: str | None) -> list[Mention]:
    """Title or author names in `output` that the chapter text does not contain."""
    found: list[Mention] = []
    for kind, variants in (("title", title_variants(title)), ("author", author_variants(author))):
        for variant in variants:
            if contains_name(output, variant) and not contains_name(chapter_text, variant):
                found.append(Mention(kind=kind, name=variant))
                break  # one variant per kind is enough evidence
    return found
