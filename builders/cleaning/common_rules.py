"""The `common` rule set: invisible characters and whitespace, for every language.

Split in two phases: `PRE` runs before everything else (so that, e.g., a zero-width
space inside a site advert cannot hide it from the advert rule) and `POST` runs last
(so the blank lines other rules leave behind are normalised once).

Indentation is kept, only normalised to ASCII spaces: chapter detection uses it (a
heading at the margin versus the same words indented inside a paragraph).
"""

from __future__ import annotations

import html
import re

from lengthwise.builders.cleaning.broken_paragraphs import (
    REJOIN_BROKEN_PARAGRAPHS,
)
from lengthwise.builders.cleaning.damage_rules import MOJIBAKE
from lengthwise.builders.cleaning.double_spacing import DOUBLE_SPACING
from lengthwise.builders.cleaning.glued_fragments import GLUED_FRAGMENT
from lengthwise.builders.cleaning.html_tags import HTML_TAG
from lengthwise.builders.cleaning.line_rules import LineRule, _line_removal
from lengthwise.builders.cleaning.rules import (
    HSPACE,
    BlockRule,
    OutcomeRule,
    Rule,
    Span,
    ascii_index,
)
from lengthwise.builders.cleaning.separator_lines import SEPARATOR_LINE
from lengthwise.builders.cleaning.unwrap import UNWRAP_PARAGRAPHS, UnwrapRule
from lengthwise.builders.cleaning.watermarks import DISGUISED_WATERMARK

LINE_ENDINGS = Rule(
    name="common/line-endings",
    description="CRLF and lone CR line ends become LF.",
    pattern=re.compile(r"\r\n?"),
    replacement="\n",
    triggers=("\r",),
    whitespace_only=True,
)

_ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
ZERO_WIDTH = Rule(
    name="common/zero-width",
    description="Zero-width spaces/joiners, word joiners, BOMs and soft hyphens are deleted.",
    pattern=re.compile(f"[{_ZERO_WIDTH}]+"),
    triggers=tuple(_ZERO_WIDTH),
    whitespace_only=True,
)

_CONTROL_CHARS = frozenset(chr(code) for code in (*range(0, 9), 11, 12, *range(14, 32), 127))
_USUAL_CONTROL_CHARS = ("\x0c", "\x00", "\x1a", "\x0b", "\x1b", "\x7f", "\x08")


def _has_control_chars(text: str) -> bool:
    index = ascii_index(text)
    if index is not None:  # exact and cheap: a set of the few ASCII characters
        return not index[1].isdisjoint(_CONTROL_CHARS)
    # Mostly-ASCII text: one scan per character would add up; check the usual ones.
    return any(char in text for char in _USUAL_CONTROL_CHARS)


def _page_break_lines(text: str) -> list[Span]:
    spans = []
    at = text.find("\f")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        if not text[start:end].strip():  # (str.strip takes form feeds for whitespace)
            spans.append(_line_removal(text, start, end))
        at = text.find("\f", end)
    return spans


PAGE_BREAK = BlockRule(
    name="common/page-break",
    description="Lines holding nothing but form feeds (page breaks in text from PDFs and "
    "print layouts) are deleted with the page's blank padding: a paragraph the page broke "
    "rejoins, one that ended there keeps one paragraph break.",
    find_blocks=_page_break_lines,
    triggers=("\f",),
    whitespace_only=True,
)

CONTROL_CHARS = Rule(
    name="common/control-chars",
    description="ASCII control characters other than tab and newline (form feeds, NULs, "
    "escapes) are deleted (in mostly-ASCII text: looked for when FF, NUL, SUB, VT, ESC, "
    "DEL or BS occurs).",
    pattern=re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]+"),
    gate=_has_control_chars,
    whitespace_only=True,
)


def _unescape(match: re.Match[str]) -> str:
    decoded = html.unescape(match.group())
    return " " if decoded == "\xa0" else decoded


HTML_ENTITY = Rule(
    name="common/html-entity",
    description="HTML character references left by scraping (&nbsp; &amp; &#8220; ...) are "
    "decoded; &nbsp; becomes a plain space.",
    pattern=re.compile(
        r"&(?:nbsp|amp|lt|gt|quot|apos|hellip|mdash|ndash|#\d{2,6}|#x[0-9a-fA-F]{2,5});"
    ),
    replacement=_unescape,
    triggers=("&",),
)


# A line end preceded by one of these means there is trailing whitespace to look at;
# without any (and with no whitespace ending the last line), the rule does not run.
_TRAILING_TRIGGERS = frozenset(" \t\u3000\xa0")
# A line end after whitespace: the literal newline lets `re` jump from one line end to
# the next in C, and `[^\S\n]` is `str.isspace` exactly (what `str.rstrip` strips).
_SPACE_BEFORE_LINE_END = re.compile(r"\n(?<=[^\S\n]\n)")


def _trailing_spaces(text: str) -> list[Span]:
    # Only the few lines that end in whitespace are looked at in Python.
    ends = [match.start() for match in _SPACE_BEFORE_LINE_END.finditer(text)]
    if text[-1:].isspace() and text[-1] != "\n":
        ends.append(len(text))  # the last line, with no newline after it
    last = len(text) - 1
    while last >= 0 and text[last] == "\n":
        last -= 1
    ends_in_space = last >= 0 and text[last].isspace()
    if not ends_in_space and not any(text[end - 1] in _TRAILING_TRIGGERS for end in ends):
        return []
    spans = []
    for end in ends:
        start = text.rfind("\n", 0, end) + 1
        spans.append((start + len(text[start:end].rstrip()), end))
    return spans


TRAILING_SPACE = BlockRule(
    name="common/trailing-space",
    description="Whitespace at line ends is deleted (whitespace-only lines become empty).",
    find_blocks=_trailing_spaces,
    whitespace_only=True,
)

_INDENT_WIDTH = {"\t": "    ", "\u3000": "  "}
_INDENT = re.compile(rf"\n *+[\t\u3000\xa0\u2000-\u200a\u202f\u205f]{HSPACE}*(?=\S)")


def _may_have_indent(text: str) -> bool:
    # In ASCII text only a tab can start such an indentation (one memchr-speed search).
    if text.isascii() and "\t" not in text:
        return False
    # Else look for a match without the sentinel copy `apply` makes: in the text (a
    # match starts at a newline), or on the first line (it never reaches past its line).
    first_end = text.find("\n")
    first_line = text if first_end < 0 else text[:first_end]
    return _INDENT.search(text) is not None or _INDENT.match("\n" + first_line) is not None


def _normalise_indent(match: re.Match[str]) -> str:
    return "\n" + "".join(_INDENT_WIDTH.get(char, " ") for char in match.group()[1:])


INDENT = Rule(
    name="common/indent",
    description="Indentation made of tabs, NBSP or ideographic spaces becomes ASCII spaces "
    "(tab = 4, ideographic space = 2, others = 1).",
    pattern=_INDENT,
    replacement=_normalise_indent,
    gate=_may_have_indent,
    line_start=True,
    whitespace_only=True,
)

TAB_RUN = Rule(
    name="common/tab-run",
    description="Runs of tabs (with spaces) inside a line become one space.",
    pattern=re.compile(r"(?<=\S) *\t[ \t]*(?=\S)"),
    replacement=" ",
    triggers=("\t",),
    whitespace_only=True,
)

BLANK_LINES = Rule(
    name="common/blank-lines",
    description="More than two consecutive blank lines become two.",
    pattern=re.compile(r"\n\n\n\n+"),
    replacement="\n\n\n",
    whitespace_only=True,
)


_LEADING_NEWLINES = re.compile(r"\n+")


def _edge_blank_lines(text: str) -> list[Span]:
    leading = _LEADING_NEWLINES.match(text)
    if leading is not None and leading.end() == len(text):
        return [(0, len(text))]
    spans: list[Span] = [(0, leading.end())] if leading is not None else []
    end_of_body = len(text)
    while end_of_body > 0 and text[end_of_body - 1] == "\n":
        end_of_body -= 1
    if len(text) - end_of_body > 1:
        spans.append((end_of_body + 1, len(text)))
    return spans


EDGE_BLANK_LINES = BlockRule(
    name="common/edge-blank-lines",
    description="Blank lines at the start of the text are deleted, and all but one newline "
    "at its end.",
    find_blocks=_edge_blank_lines,
    whitespace_only=True,
)

PRE: tuple[Rule | BlockRule | LineRule, ...] = (
    LINE_ENDINGS,
    DOUBLE_SPACING,  # early: every later rule reads blank lines as paragraph breaks
    ZERO_WIDTH,
    PAGE_BREAK,
    CONTROL_CHARS,
    MOJIBAKE,
    HTML_TAG,  # before entities: an escaped `&lt;i&gt;` is text, not a tag
    HTML_ENTITY,
)
# `POST` in two parts: lines are normalised and unwrapped first, so that rules which read
# within a line (Chinese punctuation: a `．` after an ideograph) see the lines a fixed-width
# wrap had split as one; paragraphs and blank lines come last.
POST_LINES: tuple[Rule | BlockRule | UnwrapRule, ...] = (
    TRAILING_SPACE,
    INDENT,
    TAB_RUN,
    SEPARATOR_LINE,  # before unwrapping: a rule as long as a full line is glued to text
    UNWRAP_PARAGRAPHS,
)
POST_PARAGRAPHS: tuple[Rule | BlockRule | OutcomeRule, ...] = (
    GLUED_FRAGMENT,  # after unwrapping: a sentence is part of one line
    DISGUISED_WATERMARK,  # after unwrapping: a watermark a wrap had cut is whole again
    REJOIN_BROKEN_PARAGRAPHS,
    BLANK_LINES,
    EDGE_BLANK_LINES,
)
POST: tuple[Rule | BlockRule | UnwrapRule | OutcomeRule, ...] = (*POST_LINES, *POST_PARAGRAPHS)
