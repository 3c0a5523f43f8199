"""Book titles and metadata found inside plain text: 《书名》 lines and Project Gutenberg headers.

Small line-level patterns only; no library covers these conventions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The first non-blank line of many Chinese e-texts is the title in book-title brackets.
# "《红楼梦》" or "《西游记》吴承恩（明）": a title, optionally followed by a short author note.
_BRACKETED_TITLE = re.compile(r"^[《『〈]([^《》『』〈〉\n]{1,40})[》』〉][ \t\u3000]*(.{0,20})$")
_AUTHOR_NOTE = re.compile(r"^(?:作者[:：]\s*)?(.+?)\s*(?:[（(][^）)]*[）)])?\s*著?$")
_PG_START = re.compile(r"^\*{3}\s*START OF (?:THE|THIS) PROJECT GUTENBERG", re.I | re.M)
_PG_FIELD = re.compile(r"^(Title|Author|Language):[ \t]*(.*(?:\n[ \t]+\S.*)*)", re.M)
_PG_FIRST_LINE = re.compile(
    r"^\ufeff?\s*The Project Gutenberg e-?Book,? of (.+?)(?:, by (.+?))?\s*$", re.I | re.M
)
# Project Gutenberg writes languages as English names.
_LANGUAGE_CODES = {
    "english": "en",
    "chinese": "zh",
    "french": "fr",
    "german": "de",
    "spanish": "es",
    "italian": "it",
    "portuguese": "pt",
    "dutch": "nl",
    "russian": "ru",
    "japanese": "ja",
    "latin": "la",
    "finnish": "fi",
    "swedish": "sv",
    "danish": "da",
    "norwegian": "no",
    "greek": "el",
    "polish": "pl",
    "hungarian": "hu",
}
HEADER_LINES = 200  # PG headers are a few dozen lines; never scan a whole book


@dataclass
class PGHeader:
    title: str | None = None
    author: str | None = None
    language: str | None = None  # ISO 639-1 code when the name is known, e.g. "en"
    language_name: str | None = None


_NOTICE_LINE = re.compile(r"^(?:【[^【】]*】|\[[^\[\]]*\])$")
MAX_NOTICE_LINES = 3


def bracketed_title(text: str) -> tuple[str | None, str | None]:
    """(title, author) from a first non-blank line like 《红楼梦》曹雪芹; (None, None) otherwise.

    A parenthesised dynasty or note after the author ("吴承恩（明）") is dropped. Notice lines
    wholly in 【】 or [] before it (a site's or an editor's note) are passed over.
    """
    notices = 0
    for line in text[:2000].split("\n"):
        stripped = line.strip(" \t\u3000\ufeff")
        if not stripped:
            continue
        if _NOTICE_LINE.match(stripped) and notices < MAX_NOTICE_LINES:
            notices += 1
            continue
        match = _BRACKETED_TITLE.match(stripped)
        if not match:
            return None, None
        note = _AUTHOR_NOTE.match(match.group(2).strip())
        author = note.group(1).strip() if note else None
        return match.group(1).strip(), author or None
    return None, None


def parse_pg_header(text: str) -> PGHeader:
    """Title/Author/Language from a Project Gutenberg header (empty fields when absent)."""
    head = "\n".join(text[:20_000].split("\n")[:HEADER_LINES])
    start = _PG_START.search(head)
    if start:
        head = head[: start.start()]
    header = PGHeader()
    for key, value in _PG_FIELD.findall(head):
        value = " ".join(value.split())
        if not value:
            continue
        if key == "Title" and header.title is None:
            header.title = value
        elif key == "Author" and header.author is None:
            header.author = value
        elif key == "Language" and header.language_name is None:
            header.language_name = value
            first = re.split(r"[,;/]| and ", value)[0].strip().lower()
            header.language = _LANGUAGE_CODES.get(first)
    if header.title is None:
        first_line = _PG_FIRST_LINE.search(head[:1000])
        if first_line:
            header.title = first_line.group(1).strip()
            header.author = header.author or (first_line.group(2) or "").strip() or None
    return header
