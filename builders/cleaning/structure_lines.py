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

_ROMAN = r"[IVXLCDM]{1,8}"
_NUMBER = rf"(?:\d{{1,4}}|{_ROMAN}|[A-Z][a-z]+(?:-[a-z]+)?|[A-Z]+(?:-[A-Z]+)?)"
_EN_HEADING = re.compile(
    r"[ \t\xa0\u3000]*(?:(?:CHAPTER|Chapter|CHAP\.|Chap\.|BOOK|Book|PART|Part|VOLUME|Volume|VOL\.|"
    r"STAVE|Stave|LETTER|Letter|ADVENTURE|Adventure|EPILOGUE|Epilogue|PROLOGUE|Prologue|"
    r"SECTION|Section|CANTO|Canto)\b(?:[ \t\xa0\u3000]+" + _NUMBER + r"\b)?(?![ \t]+[a-z])"
    rf"|{_ROMAN}\.?[ \t]*$|{_ROMAN}\.[ \t]+[A-Z][^a-z\n]*$|\d{{1,3}}\.?[ \t]*$"
    r"|(?:THE END|FINIS|CONTENTS|FOOTNOTES|NOTES)\.?[ \t]*$"
    r"|(?:PREFACE|Preface|INTRODUCTION|Introduction|APPENDIX|Appendix)\b(?![ \t]+[a-z]))"
)
_ZH_NUMERAL = "[0-9０-９零〇一二三四五六七八九十百千万两]{1,8}"
_ZH_HEADING = re.compile(  # a bracket may open the line: `【第十回】…`, `[第十章 标题]`
    rf"[ \t\u3000]*[【\[〔〖（(「]?(?:第{_ZH_NUMERAL}[回章节卷集部篇]|卷[之第]?{_ZH_NUMERAL}"
    r"|序章|序言|楔子|引子|尾声|番外|后记|後記|终章|正文)"
)
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*•·–]|\d{1,3}[.)]|\(?[a-z]\)|\([ivx]{1,4}\))[ \t]+\S")
_TOC_LINE = re.compile(r".*\S(?:[ \t]{2,}|[ \t]*\.{3,}[ \t]*|[ \t]*…+[ \t]*)\d{1,4}[ \t]*$")
MAX_HEADING_CHARS = 120
_LETTERS = re.compile(r"[A-Za-z]")


def is_heading_line(line: str) -> bool:
    """A chapter, part or special heading (`CHAPTER IV.`, `PREFACE`, `第三回`, `XII.`,
    `十一、标题`)."""
    return _is_heading(line, line.strip())


def _is_heading(line: str, stripped: str) -> bool:
    if not stripped or len(stripped) > MAX_HEADING_CHARS:
        return False
    return (
        _EN_HEADING.match(line) is not None
        or _ZH_HEADING.match(line) is not None
        or is_zh_bare_heading(line)
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
    if first.islower():
        return False  # every heading and title starts with a capital, digit, CJK or quote
    return _is_title(line, stripped)  # the stripped line once, not once per test


def is_list_item(line: str) -> bool:
    """`- item`, `1. item`, `(a) item`: lines that start an entry of their own."""
    return _LIST_ITEM.match(line) is not None


def is_toc_line(line: str) -> bool:
    """A contents entry ending in a page number after a gap, dots or an ellipsis."""
    return len(line) < 160 and _TOC_LINE.match(line) is not None
