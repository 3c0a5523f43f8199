"""Heading candidates in English text, one precompiled multi-line regex per form.

Forms: `CHAPTER XII.`, `Chapter 12: title`, `CHAP. the First`, `STAVE ONE`, `CANTO IV`,
`LETTER IV`, `ADVENTURE I. A SCANDAL IN BOHEMIA`, `The First Chapter` (chapter level);
`BOOK ONE: 1805`, `PART II`, `VOLUME 3` (part level); `FIRST EPILOGUE: 1813 - 20`,
`Epilogue`, `PROLOGUE` (special); a number alone on its line, `VII. THE ADVENTURE OF…`
(bare). English headings sit on a line of their own; a keyword followed by a
lowercase word (`Chapter five was…`) is prose, not a heading.

How editions set a keyword heading varies in classes, each taken as a whole rather
than per site: case (`CHAPTER`, `Chapter`, and `chapter 12` when nothing but the number
follows), letter-spacing (`C H A P T E R  X I I`), and a frame of decoration around the
heading (`[Chapter 12]`, `**Chapter 12**`, `-- Chapter 12 --`, `=== PART II ===`), which
belongs to the heading.
"""

from __future__ import annotations

import re

from lengthwise.builders.chapters.en_numerals import (
    ORDINAL_WORDS,
    TENS_CARDINALS,
    parse_english_number,
    parse_heading_number,
    parse_roman,
)
from lengthwise.builders.chapters.heading_words import (
    CHAPTER_WORDS,
    FAMILY_ALIASES,
    FRAME_CHARS,
    FRAME_OPEN,
    HS,
    ORDINAL,
    PART_WORDS,
    SPECIAL_WORDS,
    cased,
    cased_forms,
    lowercase,
    spaced,
)
from lengthwise.builders.chapters.layout import Layout
from lengthwise.builders.chapters.misread_numbers import misread_readings
from lengthwise.builders.chapters.model import Candidate, ChapterKind, HeadingLevel
from lengthwise.builders.chapters.next_line_titles import title_after
from lengthwise.text.numerals import ARABIC_DIGITS, ROMAN_CAPITALS, ROMAN_CLASS

MAX_HEADING_LINE = 200


def _initials(words: tuple[str, ...], with_lowercase: bool = False) -> str:
    forms = cased_forms(words) | ({w.lower() for w in words} if with_lowercase else set())
    return "".join(sorted({form[0] for form in forms}))


# Each pattern starts with a literal newline (the text is searched with one prepended):
# sre then jumps from line to line instead of trying `^` at every character (3-4x faster).
# A heading printed inside an illustration block: `[Illustration: CHAPTER I.]` (cleaning
# keeps such a heading line when it drops the rest of the block).
_IN_ILLUSTRATION = rf"\[(?:Illustration|ILLUSTRATION)[:.]?{HS}*"
_FRAME = rf"(?P<frame>{_IN_ILLUSTRATION}|{FRAME_OPEN})?"
_KEYWORDS = CHAPTER_WORDS + PART_WORDS
NUMBERED_RE = re.compile(
    rf"\n(?P<line>{HS}*{_FRAME}"
    rf"(?P<kw>{cased(_KEYWORDS)}|{spaced(_KEYWORDS)}|{lowercase(_KEYWORDS)}){HS}+"
    rf"(?P<num>(?:[Tt]he{HS}+|THE{HS}+)?(?:[0-9]{{1,4}}|[A-Za-z]+(?:-[A-Za-z]+)?|[|!][A-Za-z0-9|!]*))"
    r"(?P<rest>[^\n]*))$",
    re.MULTILINE,
)
ORDINAL_SPECIAL_RE = re.compile(
    rf"\n(?P<line>{HS}*{_FRAME}(?P<ord>{ORDINAL}){HS}+"
    rf"(?P<kw>{cased([*SPECIAL_WORDS, *_KEYWORDS])})(?![A-Za-z])(?P<rest>[^\n]*))$",
    re.MULTILINE,
)
SPECIAL_RE = re.compile(
    rf"\n(?P<line>{HS}*{_FRAME}(?P<kw>{cased(list(SPECIAL_WORDS))})\b(?P<rest>[^\n]*))$",
    re.MULTILINE,
)
BARE_RE = re.compile(
    rf"\n(?P<line>{HS}*(?P<num>[{ROMAN_CLASS}]{{1,8}}|[0-9]{{1,3}})(?P<rest>\.[^\n]*|{HS}*))$",
    re.MULTILINE,
)
# The characters each form's line can start with after its indentation.
# (`[` opens `[Illustration: …]`, inside which every keyword form may be printed.)
_FORM_INITIALS = (
    (NUMBERED_RE, "[" + _initials(_KEYWORDS, with_lowercase=True)),
    (ORDINAL_SPECIAL_RE, "[" + _initials(ORDINAL_WORDS + TENS_CARDINALS + ("THE",))),
    (SPECIAL_RE, "[" + _initials(tuple(SPECIAL_WORDS))),
    (BARE_RE, ROMAN_CAPITALS + ARABIC_DIGITS),
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
    rf"\n{HS}*(?:{FRAME_OPEN})?(?=(?P<initial>[{re.escape(''.join(sorted(_FORMS_BY_INITIAL)))}]))"
    r"(?:\[(?:Illustration|ILLUSTRATION)"
    rf"|{cased(_KEYWORDS + tuple(SPECIAL_WORDS) + ORDINAL_WORDS + TENS_CARDINALS)}"
    rf"|{spaced(_KEYWORDS)}|{lowercase(_KEYWORDS)}"
    rf"|(?:The|THE){HS}+(?:{cased(ORDINAL_WORDS + TENS_CARDINALS)})"
    rf"|[0-9]|[{ROMAN_CLASS}]{{1,8}}(?:\.|{HS}*$))",
    re.MULTILINE,
)
_SEPARATORS = ".:;,—–-]"
_NEXT_WORD_RE = re.compile(rf"{HS}+([A-Za-z]+(?:-[A-Za-z]+)?)")
_THE_RE = re.compile(rf"^(?:the|THE|The){HS}+")


def find_en_candidates(text: str, layout: Layout | None = None) -> list[Candidate]:
    """All English heading candidates, in text order.

    `layout`: how the book sets paragraphs apart, which decides a candidate's strength
    (`Layout`); read from `text` when not given (pass the whole book's when `text` is a
    piece of it).
    """
    layout = layout or Layout.of(text)
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
        if number is None or not _rest_is_heading(_unframed_rest(match)):
            continue
        kind = SPECIAL_WORDS.get(keyword, "chapter")
        family = FAMILY_ALIASES.get(keyword, keyword)
        found.append(_make(text, match, _keyword_level(keyword), family, number, kind))
    # A section word on the line right below a chapter heading, inside that candidate's
    # span, is the chapter's title (Moby Dick's `CHAPTER 25.` / `Postscript.`).
    spans = [(c.start, c.end) for c in found]
    for match in special:
        keyword = match.group("kw").upper()
        if any(start <= match.start() < end for start, end in spans):
            continue
        if not _rest_is_heading(_unframed_rest(match)):
            continue
        found.append(_make(text, match, "special", keyword, None, SPECIAL_WORDS[keyword]))
    for match in bare:
        candidate = _bare(text, match)
        if candidate is not None:
            found.append(candidate)
    for candidate in found:
        if not candidate.strong and not layout.blank_line_paragraphs:
            candidate.strong = layout.ends_paragraph(text, candidate.start)
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
    token, rest = match.group("num"), _unframed_rest(match)
    printed_keyword = match.group("kw")
    lowercase_keyword = printed_keyword[0].islower()
    if len(printed_keyword.split()) > 1:
        # Letter-spaced (`C H A P T E R   X I I`): so is the number.
        spaced_number = _SPACED_DIGITS_RE.match(rest)
        if spaced_number is not None and token.isalnum() and len(token) == 1:
            token += "".join(spaced_number.group().split())
            rest = rest[spaced_number.end() :]
    number = _parse_token(token, lowercase_roman=lowercase_keyword)
    if number is None or (_GLUED_TOKEN_RE.match(rest) and not lowercase_keyword):
        return _misread(text, match, token, rest, printed_keyword)
    # Two-word numbers: `Twenty One`, `ONE HUNDRED`.
    extra = _NEXT_WORD_RE.match(rest)
    if extra and not token.isdigit() and parse_roman(token) is None:
        longer = parse_english_number(f"{token} {extra.group(1)}")
        if longer is not None:
            number, rest = longer, rest[extra.end() :]
    if not _rest_is_heading(rest):
        return None
    title = _clean_title(rest)
    if lowercase_keyword and title:
        return None  # `chapter 12` alone is a heading; `chapter 12 of the act…` is prose
    keyword = "".join(printed_keyword.split()).upper()
    family = FAMILY_ALIASES.get(keyword, keyword)
    return _make(text, match, _keyword_level(keyword), family, number, "chapter", title=title)


def _misread(
    text: str, match: re.Match[str], token: str, rest: str, printed_keyword: str
) -> Candidate | None:
    """A keyword heading whose number does not parse but may be a misreading of one
    (`CHAPTER lV.`, `CHAPTER 1X.`: `misread_numbers`), without a number for now."""
    if printed_keyword[0].islower():
        return None  # `chapter ill…` is prose
    glued = _GLUED_TOKEN_RE.match(rest)
    if glued is not None:  # `1X.`: the regex took `1` as the number
        token, rest = token + glued.group(), rest[glued.end() :]
    readings = misread_readings(token)
    if not readings or not _rest_is_heading(rest):
        return None
    keyword = "".join(printed_keyword.split()).upper()
    family = FAMILY_ALIASES.get(keyword, keyword)
    if _keyword_level(keyword) != "chapter":
        return None
    candidate = _make(text, match, "chapter", family, None, "chapter", title=_clean_title(rest))
    candidate.readings = readings
    return candidate


# What continues a number token that the heading regex cut short (`1` of `1X`, `X` of `X|V`).
_GLUED_TOKEN_RE = re.compile(r"[A-Za-z0-9|!]+")


def _keyword_level(keyword: str) -> HeadingLevel:
    """`PROLOGUE` heads a special chapter, `BOOK` a part, the rest chapters."""
    if keyword in SPECIAL_WORDS:
        return "special"
    return "part" if keyword in PART_WORDS else "chapter"


# The rest of a letter-spaced number: single digits or roman capitals one space apart.
_SPACED_DIGITS_RE = re.compile(rf"(?:{HS}[0-9{ROMAN_CLASS}](?![^\s]))+")


def _unframed_rest(match: re.Match[str]) -> str:
    """The line after the heading's keyword or number, without the closing half of a
    frame the heading opened with (`**`, `]`)."""
    rest = match.group("rest")
    if "frame" not in match.re.groupindex or match.group("frame") is None:
        return rest
    return rest.rstrip().rstrip(FRAME_CHARS).rstrip()


def _parse_token(token: str, lowercase_roman: bool = False) -> int | None:
    bare = _THE_RE.sub("", token)
    if bare.isdigit():
        return int(bare)
    # Roman numerals only in capitals: lowercase `mix` or `did` is a word (but not after
    # a lowercase keyword, whose line holds nothing else: `chapter xii`).
    roman = parse_roman(bare) if bare.isupper() or lowercase_roman else None
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
        title = _clean_title(_unframed_rest(match))
    end, heading = match.end(), line.strip()
    own_line_end = None
    if not title and level in ("chapter", "special", "bare"):
        below = title_after(text, end)
        if below is not None:
            own_line_end = end
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
        own_line_end=own_line_end,
    )


def _follows_blank_line(text: str, line_start: int) -> bool:
    """Headings are set off by a blank line; a wrapped prose line is not.

    `text` has the prepended newline, so the book's first line starts at offset 1.
    """
    if line_start <= 1:
        return True
    previous_start = text.rfind("\n", 0, line_start - 1) + 1
    return not text[previous_start : line_start - 1].strip()
