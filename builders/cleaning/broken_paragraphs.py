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
from dataclasses import dataclass

from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.rules import MAX_EXAMPLES, RuleOutcome, format_example
from lengthwise.builders.cleaning.structure_lines import is_structure_line

MIN_CHARS = 20  # both touching lines at least this long: titles and verse are shorter
MIN_PARAGRAPHS = 20  # long paragraphs needed to know the book's habits
MAX_OPEN_SHARE = 0.10  # of long non-heading paragraphs ending without punctuation, at most
_GAP = re.compile(r"\n[ \t\u3000]*\n(?:[ \t\u3000]*\n)*[ \t\u3000]*")


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


def _habitually_punctuated(paragraph_ends: list[str]) -> bool:
    if len(paragraph_ends) < MIN_PARAGRAPHS:
        return False
    open_ends = sum(1 for end in paragraph_ends if _is_letter(end))
    return open_ends <= MAX_OPEN_SHARE * len(paragraph_ends)


def rejoin_broken_paragraphs(text: str) -> RuleOutcome:
    """Join paragraphs broken mid-sentence; unchanged text when the book has no habit."""
    gaps = list(_GAP.finditer(text))
    ends = []
    for gap in gaps:
        line = text[text.rfind("\n", 0, gap.start()) + 1 : gap.start()].strip()
        if len(line) >= MIN_CHARS and not is_structure_line(line):  # headings end openly
            ends.append(line[-1])
    if not _habitually_punctuated(ends):
        return RuleOutcome(text, 0)
    edits: list[Edit] = []
    examples: list[str] = []
    for gap in gaps:
        before = text[text.rfind("\n", 0, gap.start()) + 1 : gap.start()].rstrip()
        after_end = text.find("\n", gap.end())
        after = text[gap.end() : after_end if after_end >= 0 else len(text)].rstrip()
        if len(before.strip()) < MIN_CHARS or len(after) < MIN_CHARS:
            continue
        if is_structure_line(before) or is_structure_line(after):
            continue
        separator = _joiner(before, after)
        if separator is None:
            continue
        edits.append((gap.start(), gap.end(), separator))
        if len(examples) < MAX_EXAMPLES:
            examples.append(format_example(text, gap.start(), gap.end(), separator))
    if not edits:
        return RuleOutcome(text, 0)
    pieces: list[str] = []
    position = 0
    for start, end, separator in edits:
        pieces += (text[position:start], separator)
        position = end
    pieces.append(text[position:])
    return RuleOutcome("".join(pieces), len(edits), examples, edits=tuple(edits))


@dataclass(frozen=True)
class BrokenParagraphsRule:
    """The rejoining as a `TextRule` (one change per paragraph break removed)."""

    name: str = "common/rejoin-broken-paragraphs"
    description: str = (
        "A blank-line break in the middle of a sentence (a long paragraph ending in a "
        "letter, the next starting with one) is removed, in books whose paragraphs "
        "otherwise end with punctuation; headings and short lines are never joined."
    )
    languages: tuple[str, ...] = ()
    whitespace_only: bool = True

    def apply(self, text: str) -> RuleOutcome:
        """Rejoin the broken paragraphs of `text`."""
        return rejoin_broken_paragraphs(text)


REJOIN_BROKEN_PARAGRAPHS = BrokenParagraphsRule()
