"""Heading candidates in English text, one precompiled multi-line regex per form.

Forms: `CHAPTER XII.`, `Chapter 12: title`, `CHAP. the First`, `STAVE ONE`, `CANTO IV`,
`LETTER IV`, `ADVENTURE I. A SCANDAL IN BOHEMIA` (chapter level);
`BOOK ONE: 1805`, `PART II`, `VOLUME 3` (part level); `FIRST EPILOGUE: 1813 - 20`,
`Epilogue`, `PROLOGUE` (special); a number alone on its line, `VII. THE ADVENTURE OF…`
(bare). English headings sit on a line of their own; a keyword followed by a
lowercase word (`Chapter five was…`) is prose, not a heading.
"""

from __future__ import annotations

import re

from lengthwise.builders.chapters.en_numerals import (
    ORDINAL_WORDS,
    parse_english_number,
    parse_heading_number,
    parse_roman,
)
from lengthwise.builders.chapters.model import Candidate, ChapterKind, HeadingLevel
from lengthwise.builders.chapters.next_line_titles import title_after

MAX_HEADING_LINE = 200
_CHAPTER_WORDS = ("CHAPTER", "CHAP.", "STAVE", "CANTO", "LETTER", "ADVENTURE", "STORY", "TALE")
_PART_WORDS = ("BOOK", "PART", "VOLUME", "VOL.")
_SPECIAL_WORDS: dict[str, ChapterKind] = {
    "PROLOGUE": "prologue",
    "EPILOGUE": "epilogue",
    "AFTERWORD": "afterword",
}
_FAMILY_ALIASES = {"CHAP.": "CHAPTER", "VOL.": "VOLUME"}


def _cased_forms(words: tuple[str, ...] | list[str]) -> set[str]:
    """`CHAPTER`, `Chapter` for each word: headings are upper or title case, prose is not."""
    return {form for w in words for form in (w.upper(), w.capitalize())}


def _cased(words: tuple[str, ...] | list[str]) -> str:
    """`CHAPTER|Chapter|…`: the cased forms as a regex alternation, longest first."""
    return "|".join(re.escape(f) for f in sorted(_cased_forms(words), key=len, reverse=True))


def _initials(words: tuple[str, ...]) -> str:
    return "".join(sorted({form[0] for form in _cased_forms(words)}))


# Horizontal space between a heading's words: also the no-break space HTML leaves
# (`Chapter&nbsp;12`) and the ideographic space of Chinese-set books.
_HS = r"[ \t\xa0\u3000\u2000-\u200a\u202f]"
# Each pattern starts with a literal newline (the text is searched with one prepended):
# sre then jumps from line to line instead of trying `^` at every character (3-4x faster).
# A heading printed inside an illustration block: `[Illustration: CHAPTER I.]` (cleaning
# keeps such a heading line when it drops the rest of the block).
_IN_ILLUSTRATION = rf"(?:\[(?:Illustration|ILLUSTRATION)[:.]?{_HS}*)?"
NUMBERED_RE = re.compile(
    rf"\n(?P<line>{_HS}*{_IN_ILLUSTRATION}(?P<kw>{_cased(_CHAPTER_WORDS + _PART_WORDS)}){_HS}+"
    rf"(?P<num>(?:[Tt]he{_HS}+|THE{_HS}+)?(?:[0-9]{{1,4}}|[A-Za-z]+(?:-[A-Za-z]+)?))"
    r"(?P<rest>[^\n]*))$",
    re.MULTILINE,
)
ORDINAL_SPECIAL_RE = re.compile(
    rf"\n(?P<line>{_HS}*(?P<ord>{_cased(list(ORDINAL_WORDS))}){_HS}+"
    rf"(?P<kw>{_cased([*_SPECIAL_WORDS, *_PART_WORDS])})\b(?P<rest>[^\n]*))$",
    re.MULTILINE,
)
SPECIAL_RE = re.compile(
    rf"\n(?P<line>{_HS}*(?P<kw>{_cased(list(_SPECIAL_WORDS))})\b(?P<rest>[^\n]*))$", re.MULTILINE
)
BARE_RE = re.compile(
    rf"\n(?P<line>{_HS}*(?P<num>[IVXLCDM]{{1,8}}|[0-9]{{1,3}})(?P<rest>\.[^\n]*|{_HS}*))$",
    re.MULTILINE,
)
# The characters each form's line can start with after its indentation.
_FORM_INITIALS = (
    (NUMBERED_RE, "[" + _initials(_CHAPTER_WORDS + _PART_WORDS)),
    (ORDINAL_SPECIAL_RE, _initials(ORDINAL_WORDS)),
    (SPECIAL_RE, _initials(tuple(_SPECIAL_WORDS))),
    (BARE_RE, "IVXLCDM0123456789"),
)
_FORMS_BY_INITIAL = {
    char: tuple(index for index, (_, initials) in enumerate(_FORM_INITIALS) if char in initials)
    for char in "".join(initials for _, initials in _FORM_INITIALS)
}
# What every form above starts with after the line's indentation (the bare form's number
# with what must follow it): a superset filter, so the form patterns run on these lines
# only, and only those whose line can start with the line's first character. The
# lookahead rejects most prose lines at their first letter.
LINE_OPENING_RE = re.compile(
    rf"\n{_HS}*(?=(?P<initial>[{re.escape(''.join(sorted(_FORMS_BY_INITIAL)))}]))"
    r"(?:\[(?:Illustration|ILLUSTRATION)"
    rf"|{_cased(_CHAPTER_WORDS + _PART_WORDS + tuple(_SPECIAL_WORDS) + ORDINAL_WORDS)}"
    rf"|[0-9]|[IVXLCDM]{{1,8}}(?:\.|{_HS}*$))",
    re.MULTILINE,
)
_SEPARATORS = ".:;,—–-]"
_NEXT_WORD_RE = re.compile(rf"{_HS}+([A-Za-z]+(?:-[A-Za-z]+)?)")
_THE_RE = re.compile(rf"^(?:the|THE|The){_HS}+")


def find_en_candidates(text: str) -> list[Candidate]:
    """All English heading candidates, in text order."""
    text = "\n" + text  # offsets below are shifted back by one at the end
    numbered, ordinal_special, special, bare = _matches_by_form(text)
    found: list[Candidate] = []
    for match in numbered:
        candidate = _numbered(text, match)
        if candidate is not None:
            found.append(candidate)
    for match in ordinal_special:
        number = parse_english_number(match.group("ord"))
        keyword = match.group("kw").upper()
        if number is None or not _rest_is_heading(match.group("rest")):
            continue
        level: HeadingLevel = "special" if keyword in _SPECIAL_WORDS else "part"
        kind = _SPECIAL_WORDS.get(keyword, "chapter")
        found.append(_make(text, match, level, _FAMILY_ALIASES.get(keyword, keyword), number, kind))
    for match in special:
        keyword = match.group("kw").upper()
        if not _rest_is_heading(match.group("rest")):
            continue
        found.append(_make(text, match, "special", keyword, None, _SPECIAL_WORDS[keyword]))
    for match in bare:
        candidate = _bare(text, match)
        if candidate is not None:
            found.append(candidate)
    for candidate in found:
        candidate.start -= 1
        candidate.end -= 1
    found.sort(key=lambda c: c.start)
    return found


def _matches_by_form(text: str) -> list[list[re.Match[str]]]:
    """The matches of the four form patterns, each as its own `finditer` gives them.

    Each pattern matches one whole line from its leading newline, so its `finditer`
    matches are exactly the line starts where its `match` succeeds. Only the few lines
    `LINE_OPENING_RE` finds can match at all (and only the forms that can start with
    the line's first character): one scan of the book instead of four.
    """
    found: list[list[re.Match[str]]] = [[] for _ in _FORM_INITIALS]
    for opening in LINE_OPENING_RE.finditer(text):
        for index in _FORMS_BY_INITIAL[opening.group("initial")]:
            match = _FORM_INITIALS[index][0].match(text, opening.start())
            if match is not None:
                found[index].append(match)
    return found


def _numbered(text: str, match: re.Match[str]) -> Candidate | None:
    token, rest = match.group("num"), match.group("rest")
    number = _parse_token(token)
    if number is None:
        return None
    # Two-word numbers: `Twenty One`, `ONE HUNDRED`.
    extra = _NEXT_WORD_RE.match(rest)
    if extra and not token.isdigit() and parse_roman(token) is None:
        longer = parse_english_number(f"{token} {extra.group(1)}")
        if longer is not None:
            number, rest = longer, rest[extra.end() :]
    if not _rest_is_heading(rest):
        return None
    keyword = match.group("kw").upper()
    family = _FAMILY_ALIASES.get(keyword, keyword)
    level: HeadingLevel = "part" if keyword in _PART_WORDS else "chapter"
    return _make(text, match, level, family, number, "chapter", title=_clean_title(rest))


def _parse_token(token: str) -> int | None:
    bare = _THE_RE.sub("", token)
    if bare.isdigit():
        return int(bare)
    # Roman numerals only in capitals: lowercase `mix` or `did` is a word.
    roman = parse_roman(bare) if bare.isupper() else None
    return roman if roman is not None else parse_english_number(token)


def _bare(text: str, match: re.Match[str]) -> Candidate | None:
    token, rest = match.group("num"), match.group("rest")
    number = parse_heading_number(token)
    if number is None:
        return None
    title = _clean_title(rest)
    # A titled bare number is a heading only when the title looks like one (capitalised,
    # not a sentence); an untitled one is kept as a possible sub-section marker.
    if title and (not title[0].isupper() or len(title) > 100 or title.endswith((",", ";"))):
        return None
    return _make(text, match, "bare", "bare", number, "chapter", title=title)


def _rest_is_heading(rest: str) -> bool:
    """Whether what follows the keyword/number on its line can be part of a heading."""
    if len(rest) > MAX_HEADING_LINE:
        return False
    stripped = rest.strip()
    if not stripped:
        return True
    if rest[0] in _SEPARATORS or stripped[0] in _SEPARATORS:
        return True
    return rest[0].isspace() and not stripped[0].islower()


def _clean_title(rest: str) -> str:
    return rest.strip().lstrip(_SEPARATORS).strip().rstrip("].").strip()


def _make(
    text: str,
    match: re.Match[str],
    level: HeadingLevel,
    family: str,
    number: int | None,
    kind: ChapterKind,
    title: str | None = None,
) -> Candidate:
    line = match.group("line")
    start = match.start("line") + len(line) - len(line.lstrip(" \t"))
    if title is None:
        title = _clean_title(match.group("rest"))
    end, heading = match.end(), line.strip()
    if not title and level in ("chapter", "special", "bare"):
        below = title_after(text, end)
        if below is not None:
            title, end = _clean_title(below[0]), below[1]
            # Both lines as printed (blank lines and indentation between them dropped).
            lines = text[match.start("line") : end].split("\n")
            heading = "\n".join(part.strip() for part in lines if part.strip())
    return Candidate(
        start=start,
        end=end,
        level=level,
        family=family,
        number=number,
        heading=heading,
        title=title,
        kind=kind,
        strong=_follows_blank_line(text, match.start("line")),
    )


def _follows_blank_line(text: str, line_start: int) -> bool:
    """Headings are set off by a blank line; a wrapped prose line is not.

    `text` has the prepended newline, so the book's first line starts at offset 1.
    """
    if line_start <= 1:
        return True
    previous_start = text.rfind("\n", 0, line_start - 1) + 1
    return not text[previous_start : line_start - 1].strip()
