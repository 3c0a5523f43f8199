"""`common/separator-line`: rules printed between a heading and its text go.

Scraped and hard-wrapped e-texts set a rule of one repeated mark under each heading or
between chapters (`------…` 66 dashes, `＝＝＝＝＝＝`, `━━━━`). Kept, it is no part of
the story; worse, it is as long as a full wrapped line, so unwrapping glued it to the
chapter's first sentence (`------…话说…`: 118 of 120 chapters of a held-out hard-wrapped
book). A line holding nothing but a run of one such mark (`MIN_LINE_RUN` or more) is
deleted, and so is a run of `MIN_GLUED_RUN` or more opening a line of text (the rule the
source had already glued to the sentence). Runs inside a line (a long dash in prose
`——`) are never touched. Runs before unwrapping, after the language rule sets (whose
blocks, such as Aozora's notes on symbols, may be fenced with such rules).
"""

from __future__ import annotations

import re

from lengthwise.builders.cleaning.line_rules import _line_removal
from lengthwise.builders.cleaning.rules import BlockRule, Span

# The marks rules are printed with (ASCII and full-width, dashes and box drawing). `*`
# stays out: `***` and `* * *` mark a scene break in English books.
RULE_MARKS = "-=_~－＝＿～—─━═"
MIN_LINE_RUN = 5
MIN_GLUED_RUN = 10
_MARK = f"[{re.escape(RULE_MARKS)}]"
_SEPARATOR = re.compile(
    rf"^[ \t\u3000]*(?:(?P<mark>{_MARK})(?P=mark){{{MIN_LINE_RUN - 1},}}[ \t\u3000]*$"
    rf"|(?P<glued>(?P<gmark>{_MARK})(?P=gmark){{{MIN_GLUED_RUN - 1},}})[ \t\u3000]*(?=\S))",
    re.MULTILINE,
)
_TRIGGERS = tuple(mark * MIN_LINE_RUN for mark in RULE_MARKS)


def is_separator_line(line: str) -> bool:
    """A line of one repeated rule mark and nothing else (`------`, `＝＝＝＝＝`)."""
    match = _SEPARATOR.match(line)
    return match is not None and match.group("glued") is None


def separator_spans(text: str) -> list[Span]:
    """The separator lines of `text` (with the blank lines above them, as any removed
    line), and the rules glued to the start of a line of text."""
    spans: list[Span] = []
    for match in _SEPARATOR.finditer(text):
        if match.group("glued") is not None:
            spans.append((match.start("glued"), match.end()))
        else:
            spans.append(_line_removal(text, match.start(), match.end()))
    return spans


SEPARATOR_LINE = BlockRule(
    name="common/separator-line",
    description=f"Lines holding only a rule of one repeated mark ({MIN_LINE_RUN} or more of "
    f"`{RULE_MARKS}`) are deleted, and a rule of {MIN_GLUED_RUN} or more glued to the start "
    "of a line of text (`------…话说…`); dashes inside prose are kept.",
    find_blocks=separator_spans,
    triggers=_TRIGGERS,
)
