"""Book titles printed in the text itself, for files without metadata.

Two forms, tried after a Project Gutenberg header and a 《书名》 first line:
- a title repeated at the very start, glued (`封神演義封神演義封神演義第一回…`: files
  re-saved without line breaks keep the title page's repeated title lines);
- a title line near the start: in English the first line in capitals before any heading
  (`ALICE'S ADVENTURES IN WONDERLAND`, after credits such as `An Anonymous Volunteer…`);
  in Chinese a first short line of Han characters alone (`红楼梦`).
"""

from __future__ import annotations

import re

MAX_TITLE_CHARS = 30
MAX_EN_TITLE_CHARS = 80
FIRST_LINES = 40  # non-blank lines examined before giving up
_HAN_TITLE_RE = re.compile(r"^[\u3400-\u9fff\uf900-\ufaff·・]{2,20}$")
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
            return line if seen == 1 else None
        letters = [c for c in line if c.isalpha()]
        if (
            len(letters) >= 2
            and len(line) <= MAX_EN_TITLE_CHARS
            and all(c.isupper() for c in letters)
            and all(ord(c) < 0x3000 for c in letters)
        ):
            return title_case(line.rstrip(". "))
    return None


def title_case(line: str) -> str:
    """`MOBY DICK; OR THE WHALE` -> `Moby Dick; or the Whale` (small words lower inside)."""
    words = line.lower().split()
    cased = [w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words)]
    return " ".join(cased)
