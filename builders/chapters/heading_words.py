"""The words and marks chapter headings are printed with, shared by chapter detection
and by cleaning's structural line tests (`cleaning/structure_lines.py`), so a heading
form taught to one is known to the other: cleaning never glues a heading that detection
would find to the paragraph below it, and never stops a block at one it would not.
"""

from __future__ import annotations

import re

from lengthwise.builders.chapters.en_numerals import ORDINAL_WORDS, TENS_CARDINALS
from lengthwise.builders.chapters.model import ChapterKind

# English keywords, as the upper-case form; `cased` gives the forms headings print.
CHAPTER_WORDS = (
    "CHAPTER", "CHAP.", "CH.", "STAVE", "CANTO", "LETTER", "ADVENTURE", "STORY", "TALE",
)  # fmt: skip
PART_WORDS = ("BOOK", "PART", "VOLUME", "VOL.")
# Sections of the story that carry no number. (Editorial sections, INTRODUCTION, PREFACE,
# FOREWORD, are front matter: they stay out of the chapters, listed in the book report.)
SPECIAL_WORDS: dict[str, ChapterKind] = {
    "PROLOGUE": "prologue",
    "PRELUDE": "prologue",
    "OVERTURE": "prologue",
    "INTERLUDE": "interlude",
    "EPILOGUE": "epilogue",
    "CODA": "epilogue",
    "AFTERWORD": "afterword",
    "POSTSCRIPT": "afterword",
    "ENVOI": "afterword",
}
# The longest a heading with its title wrapped over the lines below it can be: unwrapping
# joins no more onto a heading line, and a contents entry's lines count up to this.
MAX_WRAPPED_TITLE_CHARS = 240
FAMILY_ALIASES = {"CHAP.": "CHAPTER", "CH.": "CHAPTER", "VOL.": "VOLUME"}


def cased_forms(words: tuple[str, ...] | list[str]) -> set[str]:
    """`CHAPTER`, `Chapter` for each word: headings are upper or title case, prose is not."""
    return {form for w in words for form in (w.upper(), w.capitalize())}


def cased(words: tuple[str, ...] | list[str]) -> str:
    """`CHAPTER|Chapter|…`: the cased forms as a regex alternation, longest first."""
    return "|".join(re.escape(f) for f in sorted(cased_forms(words), key=len, reverse=True))


# Horizontal space between a heading's words: also the no-break space HTML leaves
# (`Chapter&nbsp;12`) and the ideographic space of Chinese-set books.
HS = r"[ \t\xa0\u3000\u2000-\u200a\u202f]"


def spaced(words: tuple[str, ...]) -> str:
    """`C H A P T E R|P A R T|…`: the capitals set letter-spaced, as title-page-style
    headings are printed."""
    return "|".join(f"{HS}{{1,2}}".join(w) for w in words if w.isalpha())


def lowercase(words: tuple[str, ...]) -> str:
    """`chapter|part|…`: taken only with nothing but a number after them (candidates_en)."""
    return "|".join(re.escape(w.lower()) for w in sorted(words, key=len, reverse=True))


# A frame printed around a heading: `[Chapter 12]`, `**Chapter 12**`, `-- PART II --`.
FRAME_OPEN = rf"[*_=~#<\[(\-—–•·+|]{{1,6}}{HS}*"
FRAME_CHARS = "*_=~#<>[](){}-—–•·+|"

# `First Epilogue`, `THE SECOND PART`, `The Twenty-First Chapter`.
ORDINAL = (
    rf"(?:(?:The|THE){HS}+)?(?:(?:{cased(TENS_CARDINALS)})[-{HS[1:-1]}]"
    rf"(?:{lowercase(ORDINAL_WORDS)}|{cased(ORDINAL_WORDS)})|{cased(ORDINAL_WORDS)})"
)


# Chinese units after a number (`第十回`, `第三章`, `第二节`, `第一卷`, `第一话`), and the
# `部分` of `第一部分`.
CHAPTER_UNITS = "回章话話"
SECTION_UNITS = "节節"
PART_UNITS = "卷部集篇"
ZH_UNIT = rf"部分|[{CHAPTER_UNITS}{SECTION_UNITS}{PART_UNITS}]"
# Horizontal space in Chinese text.
ZH_HSPACE = " \t\u3000"
# Brackets a site may print around a heading's number (`【第十回】title`, `[第十章 标题]`).
ZH_BRACKETS = {"【": "】", "[": "]", "〔": "〕", "〖": "〗", "（": "）", "(": ")", "「": "」"}
