"""Book titles printed in the text itself, for files without metadata.

An Aozora Bunko file's first lines (`aozora_title`: title, subtitle, author above the key
to its marks) come first; then two forms, tried after a Project Gutenberg header and a
《书名》 first line:
- a title repeated at the very start, glued (`封神演義封神演義封神演義第一回…`: files
  re-saved without line breaks keep the title page's repeated title lines);
- a title line near the start: in English the first line in capitals before any heading
  (`ALICE'S ADVENTURES IN WONDERLAND`, after credits such as `An Anonymous Volunteer…`);
  in Chinese or Japanese a first short line of ideographs and kana alone (`红楼梦`,
  `坊っちゃん`), unless it is the first section's heading (`第一卷`, `自序`, `楔子`):
  a book that prints no title of its own keeps its file name.
"""

from __future__ import annotations

import re

from lengthwise.text.numerals import NUMERAL_CLASS

MAX_TITLE_CHARS = 30
MAX_EN_TITLE_CHARS = 80
FIRST_LINES = 40  # non-blank lines examined before giving up
_HAN_TITLE_RE = re.compile(r"^[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff·・]{2,20}$")
# A first section's heading, not the book's title: 第一卷, 卷之一, 自序, 楔子, 目录, 上.
_CJK_SECTION_RE = re.compile(
    rf"^(?:第[{NUMERAL_CLASS}]+[回章卷节節部集篇话話]|卷[之第]?[{NUMERAL_CLASS}]+|"
    r"(?:自|原|小)?序(?:言|文|章)?|前言|引子|引言|楔子|凡例|目[录錄次]|例言|[上中下]巻?)$"
)
_AOZORA_KEY = "【テキスト中に現れる記号について】"
_AOZORA_HEAD_CHARS = 3000
_AOZORA_HEAD_LINES = 4
_NOT_A_TITLE_RE = re.compile(
    r"^(?:CHAPTER|CHAP\.|CONTENTS|BOOK|PART|VOLUME|PREFACE|PROLOGUE|INTRODUCTION|"
    r"ILLUSTRATIONS?|LETTER|STAVE|ADVENTURE|BY|TRANSLATED|EDITED|THE END|ETYMOLOGY|NOTE)\b"
)
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to"}


_LEADING_BLANKS = "\ufeff \t\r\n\u3000"


def repeated_title(text: str) -> str | None:
    """The shortest string the text starts with at least twice in a row (2-30 characters)."""
    # Measure the leading blank run on a bounded edge: stripping the whole text would
    # copy a multi-megabyte book.
    edge = text[:4096]
    start = len(edge) - len(edge.lstrip(_LEADING_BLANKS))
    if start == len(edge):
        start = len(text) - len(text.lstrip(_LEADING_BLANKS))
    head = text[start : start + 2 * MAX_TITLE_CHARS]
    for length in range(2, MAX_TITLE_CHARS + 1):
        candidate = head[:length]
        if head[length : 2 * length] == candidate and not any(c.isspace() for c in candidate):
            return candidate if not any(c in "，。,.!?！？：:" for c in candidate) else None
    return None


def title_line(text: str) -> str | None:
    """A title line near the start (see the module docstring), English title-cased."""
    seen = 0
    for raw in text[:20_000].split("\n"):
        line = raw.strip(" \t\r\u3000\ufeff")
        if not line:
            continue
        seen += 1
        if seen > FIRST_LINES or _NOT_A_TITLE_RE.match(line.upper()):
            return None
        if _HAN_TITLE_RE.match(line):
            return line if seen == 1 and not _CJK_SECTION_RE.match(line) else None
        letters = [c for c in line if c.isalpha()]
        if (
            len(letters) >= 2
            and len(line) <= MAX_EN_TITLE_CHARS
            and all(c.isupper() for c in letters)
            and all(ord(c) < 0x3000 for c in letters)
        ):
            return title_case(line.rstrip(". "))
    return None


def aozora_title(text: str) -> tuple[str | None, str | None]:
    """(title, author) of an Aozora Bunko file: the lines above its first blank line, before
    the key to its marks; the last is the author, the others title and subtitle
    (`夜明け前` / `第二部上` / `島崎藤村` -> (`夜明け前 第二部上`, `島崎藤村`))."""
    head = text[:_AOZORA_HEAD_CHARS]
    if _AOZORA_KEY not in head:
        return None, None
    top = head.lstrip("\ufeff \t\r\n\u3000").replace("\r\n", "\n").split("\n\n", 1)[0]
    lines = [line.strip(" \t\u3000") for line in top.split("\n")]
    if not 2 <= len(lines) <= _AOZORA_HEAD_LINES or any(line.startswith("-") for line in lines):
        return None, None
    return " ".join(lines[:-1]), lines[-1]


def has_title_text(title: str) -> bool:
    """Whether a title holds a letter, digit or ideograph (`--` or `***` is no title)."""
    return any(c.isalnum() for c in title)


def title_case(line: str) -> str:
    """`MOBY DICK; OR THE WHALE` -> `Moby Dick; or the Whale` (small words lower inside)."""
    words = line.lower().split()
    cased = [w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words)]
    return " ".join(cased)
