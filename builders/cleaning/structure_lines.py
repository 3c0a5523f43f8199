"""What a single line is, structurally: a heading, a list item, a table-of-contents entry.

Block ends and paragraph unwrapping both need to know where the story's own structure
is: a notice never runs across a chapter heading, and a heading, list item or contents
line is never joined to a paragraph. These tests look at one line only and err on the
side of "structural" (a false heading stops a block early or leaves a line break, both
harmless; a missed heading could glue a title to prose, which chapter detection would
then miss).
"""

from __future__ import annotations

import re

from lengthwise.builders.chapters.bare_zh import is_zh_bare_heading
from lengthwise.builders.chapters.heading_words import (
    CHAPTER_WORDS,
    FRAME_CHARS,
    FRAME_OPEN,
    HS,
    MAX_WRAPPED_TITLE_CHARS,
    ORDINAL,
    PART_WORDS,
    SPECIAL_WORDS,
    ZH_BRACKETS,
    ZH_HSPACE,
    ZH_UNIT,
    cased,
    lowercase,
    spaced,
)
from lengthwise.builders.chapters.latin_words import is_word_heading_line
from lengthwise.builders.chapters.misread_numbers import MISREAD_TOKEN
from lengthwise.builders.chapters.templates import is_counted_heading_line
from lengthwise.text.numerals import NUMERAL_CLASS, ROMAN_CLASS, SMALL_ROMAN_CAPITALS

_ROMAN = f"[{ROMAN_CLASS}]{{1,8}}"
_NUMBER = rf"(?:\d{{1,4}}|{_ROMAN}|[A-Z][a-z]+(?:-[a-z]+)?|[A-Z]+(?:-[A-Z]+)?|{MISREAD_TOKEN})"
# The heading words and marks are chapter detection's own (heading_words): a form
# detection learns is structural here too.
_KEYWORDS = CHAPTER_WORDS + PART_WORDS + tuple(SPECIAL_WORDS) + ("SECTION",)
_EN_KEYWORD = rf"(?:{cased(_KEYWORDS)}|{spaced(_KEYWORDS)})(?![A-Za-z])"
_EN_HEADING = re.compile(
    rf"{HS}*(?:{FRAME_OPEN})?(?:{_EN_KEYWORD}(?:{HS}+(?:(?:[Tt]he|THE){HS}+)?{_NUMBER}\b)?"
    rf"(?!{HS}+[a-z])"
    rf"|{ORDINAL}{HS}+{_EN_KEYWORD}"
    rf"|{_ROMAN}\.?[ \t]*$|{_ROMAN}\.[ \t]+[A-Z][^a-z\n]*$|\d{{1,3}}\.?[ \t]*$"
    r"|(?:THE END|FINIS|CONTENTS|FOOTNOTES|NOTES)\.?[ \t]*$"
    r"|(?:PREFACE|Preface|INTRODUCTION|Introduction|APPENDIX|Appendix)\b(?![ \t]+[a-z]))"
)
# `chapter 12`, `part iv`: a lowercase keyword is a heading only with a number alone after it.
_LOWERCASE_HEADING = re.compile(
    rf"{HS}*(?:{FRAME_OPEN})?(?:{lowercase(_KEYWORDS)}){HS}+(?:(?:[Tt]he|THE){HS}+)?"
    rf"(?:\d{{1,4}}|[A-Za-z]+(?:-[A-Za-z]+)?)(?:{HS}|[.:;,{re.escape(FRAME_CHARS)}])*$"
)
_ZH_NUMERAL = f"[{NUMERAL_CLASS}]{{1,8}}"
_ZH_SPACE = f"[{ZH_HSPACE}]*"
_ZH_HEADING = re.compile(  # a bracket may open the line: `【第十回】…`, `[第十章 标题]`
    rf"{_ZH_SPACE}[{re.escape(''.join(ZH_BRACKETS))}]?"
    rf"(?:第{_ZH_SPACE}{_ZH_NUMERAL}{_ZH_SPACE}(?:{ZH_UNIT})|卷[之第]?{_ZH_NUMERAL}"
    r"|序章|序言|楔子|引子|尾声|番外|后记|後記|终章|正文)"
)
_LIST_ITEM = re.compile(
    r"[ \t]*(?:[-*•·–]|\d{1,3}[.)]|\(?[a-z]\)|\(["
    + SMALL_ROMAN_CAPITALS.lower()
    + r"]{1,4}\))[ \t]+\S"
)
_TOC_LINE = re.compile(r".*\S(?:[ \t]{2,}|[ \t]*\.{3,}[ \t]*|[ \t]*…+[ \t]*)\d{1,4}[ \t]*$")
MAX_HEADING_CHARS = 120
_LETTERS = re.compile(r"[A-Za-z]")


def is_heading_line(line: str) -> bool:
    """A chapter, part or special heading (`CHAPTER IV.`, `PREFACE`, `第三回`, `XII.`,
    `十一、标题`)."""
    return _is_heading(line, line.strip())


def _is_heading(line: str, stripped: str) -> bool:
    if not stripped:
        return False
    if len(stripped) > MAX_HEADING_CHARS:
        # A heading and its long title, wrapped over lines that unwrapping joined
        # (`Capítulo VI. Del donoso y grande escrutinio que…`), is still a heading: no
        # paragraph is glued to it.
        return len(stripped) <= MAX_WRAPPED_TITLE_CHARS and is_word_heading_line(line)
    return (
        _EN_HEADING.match(line) is not None
        or _ZH_HEADING.match(line) is not None
        or _LOWERCASE_HEADING.match(line) is not None
        or is_zh_bare_heading(line)
        or is_word_heading_line(line)
        or is_counted_heading_line(line)
    )


def is_title_line(line: str) -> bool:
    """A heading, or a short all-capitals line (`THE PRISON-DOOR.`, a title page line)."""
    return _is_title(line, line.strip())


def _is_title(line: str, stripped: str) -> bool:
    if _is_heading(line, stripped):
        return True
    # A short line in capitals (`THE PRISON-DOOR.`): a title, not prose.
    if not (3 <= len(stripped) <= 80 and stripped.isupper()):
        return False
    return len(_LETTERS.findall(stripped)) >= 3


def is_structure_line(line: str) -> bool:
    """A title line, list item or contents line (cheap checks first: called per line)."""
    stripped = line.strip()
    if not stripped:
        return False
    first = stripped[0]
    if stripped[-1].isdigit() and is_toc_line(line):
        return True
    if (first.isdigit() or first in "-*•·–(") and is_list_item(line):
        return True
    if first.islower():  # every heading and title but `chapter 12` starts otherwise
        return _LOWERCASE_HEADING.match(line) is not None
    return _is_title(line, stripped)  # the stripped line once, not once per test


def is_list_item(line: str) -> bool:
    """`- item`, `1. item`, `(a) item`: lines that start an entry of their own."""
    return _LIST_ITEM.match(line) is not None


def is_toc_line(line: str) -> bool:
    """A contents entry ending in a page number after a gap, dots or an ellipsis."""
    return len(line) < 160 and _TOC_LINE.match(line) is not None
