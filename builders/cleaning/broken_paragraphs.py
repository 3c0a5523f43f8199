"""`common/rejoin-broken-paragraphs`: a paragraph break in the middle of a sentence.

Web and scanned e-texts sometimes break a paragraph mid-sentence with a blank line (a
page boundary, an advert cut out by the site): 红楼梦 here has
"…这是头一⏎⏎起摘下来的…". Left in, the two halves read as two paragraphs, and anything
cut at paragraph boundaries (task segments, hints, extractive drafts) splits a
sentence and can give away what follows what.

Detection uses the book's own habits, not a list: in a normally punctuated book almost
every paragraph ends with punctuation, so a long paragraph ending in a letter or an
ideograph, followed across blank lines by a paragraph starting with one, is one
sentence broken in two. The rule only acts when at most `MAX_OPEN_SHARE` of the book's
long paragraphs end without punctuation (books without punctuation habits, verse,
lists, are left alone), never joins a heading or other structure line
(`structure_lines`), and needs both touching lines to be long (`MIN_CHARS`). Chinese
halves join without a space; Latin ones (lower case on both sides) with one.
"""

from __future__ import annotations

import re
import unicodedata

from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.rules import (
    OutcomeRule,
    RuleOutcome,
    edited_outcome,
)
from lengthwise.builders.cleaning.structure_lines import MAX_HEADING_CHARS, is_structure_line

MIN_CHARS = 20  # both touching lines at least this long: titles and verse are shorter
MIN_PARAGRAPHS = 20  # long paragraphs needed to know the book's habits
MAX_OPEN_SHARE = 0.10  # of long non-heading paragraphs ending without punctuation, at most
_BLANK_LINES = r"[ \t\u3000]*\n(?:[ \t\u3000]*\n)*[ \t\u3000]*"
_GAP = re.compile(r"\n" + _BLANK_LINES)
# The cheap scans below find every gap that can matter; each found one is then checked
# with the exact conditions, so they only save work, never change an answer.
_JOINABLE = r"\u3400-\u9fff\uf900-\ufaffa-z"  # what `_joiner` accepts on either side
# Gap starts whose line may end in a letter or a joinable character (letters are word
# characters, not digits; after trailing spaces the last visible one is further back).
# A removable gap and an open paragraph end both start so.
_OPEN_GAP_START = re.compile(rf"\n(?=[ \t\u3000]*\n)(?<=[{_JOINABLE}]\n|[^\W\d_]\n|[^\S\n]\n)")
# Either a gap start after a line that is surely a long punctuated paragraph end (more
# visible characters than any heading or capitals title has, the last one neither a
# letter nor a digit: no open end, no contents page number), or (the group) the start
# of a line that may be a list item, the only structure such a line can still be.
_PUNCTUATED_END_OR_LIST = re.compile(
    rf"\n(?:(?=[ \t\u3000]*\n)(?<=\S[^\n]{{{MAX_HEADING_CHARS - 1}}}[^\w\s]\n)"
    r"|[^\S\n]*([\d\-*•·–(]))"
)
_STRETCH_CHARS = 100_000  # counted at a time: most books settle long before their end
_CLAUSE_MARKS = frozenset(",;:-")
_OPENING_QUOTES = "\"'\u201c\u2018"
_LONG_LINE_CHARS = 50  # a full line of wrapped prose, longer than titles and most verse
_CJK_CLAUSE_MARKS = frozenset("，、")


def _is_cjk(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"


def _is_letter(char: str) -> bool:
    return unicodedata.category(char).startswith("L")


def _joiner(before: str, after: str) -> str | None:
    """The separator joining two halves of one sentence, or None when they are not."""
    last, first = before[-1], after[0]
    if _is_cjk(last) and _is_cjk(first):
        return ""
    if last.isascii() and first.isascii() and last.islower() and first.islower():
        return " "
    return None


def sentence_halves_joiner(before: str, after: str) -> str | None:
    """The separator when the lines `before` and `after` (without newlines) read as two
    halves of one sentence that something removed between them had parted, else None.

    For the lines on either side of a removed page marker, header or advert: without the
    book-habit test and the length test on `after` that `rejoin_broken_paragraphs` needs
    (a page break is known to be there; the second half may be a paragraph's short last
    line), but `before` must be long, neither may be a structure line, and `after` may
    not be indented deeper than `before` (a paragraph or verse starts there; a page's
    continuation starts at the margin).
    """
    after_indent = _indent_width(after)
    if after_indent > _indent_width(before):
        return None
    before, after = before.strip(), after.strip()
    if len(before) < MIN_CHARS or not after:
        return None
    last, first = before[-1], after[0]
    # Latin halves join when the second starts in lower case after a word or a clause
    # mark (`chance;` / `and, therefore`), or when a long first half ends on a lower-case
    # word, whatever follows (`towards` / `Jane`): no sentence starts so, no prose
    # paragraph ends so. A short line so ended may be a title or a verse line, and a
    # comma or a dash before the cut may end a paragraph before speech (`she observed,`,
    # `cried out--`): those stay apart. Opening quotes before the second half's first
    # letter are looked through. Chinese halves join only after a comma (`，` / `着外面`)
    # and when the second is not indented: classical novels end paragraphs on an
    # ideograph or `；` before verse (`诗曰`, couplets), and print verse as indented lines
    # ending in `，`; those are left to the book-habit test.
    head = after.lstrip(_OPENING_QUOTES)
    latin = last.isascii() and head[:1].isascii() and head[:1].isalpha()
    long_before = len(before) >= _LONG_LINE_CHARS
    if latin and (
        (head[0].islower() and (last.isalpha() or last in _CLAUSE_MARKS))
        or (last.islower() and long_before)
    ):
        separator: str | None = " "
    elif _is_cjk(first) and last in _CJK_CLAUSE_MARKS and not after_indent:
        separator = ""
    else:
        return None
    if is_structure_line(before) or is_structure_line(after):
        return None
    return separator


def _indent_width(line: str) -> int:
    return len(line) - len(line.lstrip())


def _line_before(text: str, position: int) -> str:
    """The line ending at `position` (a newline), with its indent and trailing spaces."""
    return text[text.rfind("\n", 0, position) + 1 : position]


def _paragraph_ends(text: str) -> list[str]:
    """The last character of every long non-structure line before a gap (exact, slow)."""
    ends = []
    for gap in _GAP.finditer(text):
        line = _line_before(text, gap.start()).strip()
        if len(line) >= MIN_CHARS and not is_structure_line(line):  # headings end openly
            ends.append(line[-1])
    return ends


def _habitually_punctuated(paragraph_ends: list[str]) -> bool:
    if len(paragraph_ends) < MIN_PARAGRAPHS:
        return False
    open_ends = sum(1 for end in paragraph_ends if _is_letter(end))
    return open_ends <= MAX_OPEN_SHARE * len(paragraph_ends)


def _open_end_count(text: str, gaps: list[re.Match[str]]) -> int:
    """How many of `_paragraph_ends(text)` are letters, all such gaps being in `gaps`."""
    count = 0
    for gap in gaps:
        line = _line_before(text, gap.start()).strip()  # blank when inside a gap: skipped
        if len(line) >= MIN_CHARS and _is_letter(line[-1]) and not is_structure_line(line):
            count += 1
    return count


def _book_is_punctuated(text: str, open_gaps: list[re.Match[str]]) -> bool:
    """`_habitually_punctuated(_paragraph_ends(text))`, from counts where they settle it.

    The open ends are counted exactly. In any stretch of the book cut at newlines, the
    long punctuated ends less the lines there that could be list items (and the first
    line of the book, which follows no newline) are a lower bound of the other paragraph
    ends. More ends only lower the open share, so once such a bound passes the test it
    is the answer; a book whose bound never does is decided end by end.
    """
    open_ends = _open_end_count(text, open_gaps)
    ends_at_least = open_ends - 1
    start = 0
    while start < len(text):
        cut = text.find("\n", start + _STRETCH_CHARS)
        end = cut if cut >= 0 else len(text)
        found = _PUNCTUATED_END_OR_LIST.findall(text, start, end)
        punctuated = found.count("")
        ends_at_least += punctuated - (len(found) - punctuated)
        if ends_at_least >= MIN_PARAGRAPHS and open_ends <= MAX_OPEN_SHARE * ends_at_least:
            return True
        start = end
    return _habitually_punctuated(_paragraph_ends(text))


def _separator(text: str, gap: re.Match[str]) -> str | None:
    """What replaces `gap`, or None when the paragraphs on its two sides stay apart."""
    before = _line_before(text, gap.start()).rstrip()
    after_end = text.find("\n", gap.end())
    after = text[gap.end() : after_end if after_end >= 0 else len(text)].rstrip()
    if len(before.strip()) < MIN_CHARS or len(after) < MIN_CHARS:
        return None
    separator = _joiner(before, after)
    if separator is None or is_structure_line(before) or is_structure_line(after):
        return None
    return separator


def _open_gaps(text: str) -> list[re.Match[str]]:
    """The gaps (as `_GAP` finds them) after a line that may end in a letter, and maybe
    some blank stretches inside a gap, whose line before is blank."""
    gaps = (_GAP.match(text, start.start()) for start in _OPEN_GAP_START.finditer(text))
    return [gap for gap in gaps if gap is not None]


def rejoin_broken_paragraphs(text: str) -> RuleOutcome:
    """Join paragraphs broken mid-sentence; unchanged text when the book has no habit."""
    open_gaps = _open_gaps(text)
    edits: list[Edit] = []
    for gap in open_gaps:
        separator = _separator(text, gap)
        if separator is not None:
            edits.append((gap.start(), gap.end(), separator))
    # The habit is only looked at when there is something to join.
    if not edits or not _book_is_punctuated(text, open_gaps):
        return RuleOutcome(text, 0)
    return edited_outcome(text, edits)


REJOIN_BROKEN_PARAGRAPHS = OutcomeRule(
    name="common/rejoin-broken-paragraphs",
    description=(
        "A blank-line break in the middle of a sentence (a long paragraph ending in a "
        "letter, the next starting with one) is removed, in books whose paragraphs "
        "otherwise end with punctuation; headings and short lines are never joined."
    ),
    change=rejoin_broken_paragraphs,
    whitespace_only=True,
)
