"""`common/address-line`: a line that is mostly a web address is site furniture.

`Retrieved from "https://en.wikisource.org/w/index.php?title=…&oldid=1037"`, `Source:
https://…`, a bare `www.example.com` between paragraphs: whatever the site, a line whose
web addresses make up at least half of its visible characters is not the story's. Such
lines are often longer than learned boilerplate looks at, and carry ids that differ on
every line, so they do not recur as one line either. Runs after the site rule sets (a
line they know goes under their name) and before the learned step.

A story that mentions an address keeps it: in a sentence the address is a minority of
the line (the audit's `url` class still lists it), and a line whose remainder holds
sentence punctuation stays whole. A line of dialogue made mostly of an
address (`He wrote: www.example.org`) goes like furniture; the ledger counts it. Hard-
wrapped text can leave an address nearly alone on a line in the middle of a sentence, so
the line must also stand on its own: a paragraph by itself, or a line that starts after
a sentence end and does not run on into the next line (it ends with the address, a
bracket, a quote or a sentence end).
"""

from __future__ import annotations

import re

from lengthwise.builders.cleaning.line_rules import _line_removal, candidate_lines
from lengthwise.builders.cleaning.rules import BlockRule, Span
from lengthwise.builders.cleaning.web_addresses import needs_translation, url_spans

MIN_ADDRESS_SHARE = 0.5
# In what the addresses leave of a line, these mean a sentence (`他说，好的。顶点小说www…`):
# the line stays, and the address with it (a site rule or the audit sees it).
_SENTENCE_MARKS = frozenset("。！？；，、!?;,")
_SENTENCE_BREAK = re.compile(r"\.\s+\S")
_ANCHORS = ("://", "www.", "WWW.", "ｗｗｗ")
_ENDS = frozenset("。！？.!?…”」』’\"')）]】>》")


def _mostly_address(line: str) -> bool:
    """At least half address, and what is left is a label, not a sentence."""
    visible = len(line) - sum(map(line.count, " \t\u3000"))
    spans = url_spans(line, needs_translation(line))
    covered = sum(end - start for start, end in spans)
    if not visible or covered < MIN_ADDRESS_SHARE * visible:
        return False
    rest = "".join(line[start:end] for start, end in _gaps(spans, len(line)))
    return _SENTENCE_MARKS.isdisjoint(rest) and _SENTENCE_BREAK.search(rest) is None


def _gaps(spans: list[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    bounds = [0, *(edge for span in spans for edge in span), length]
    return list(zip(bounds[::2], bounds[1::2], strict=True))


def _stands_alone(text: str, start: int, end: int) -> bool:
    """Whether line [start, end) is not the middle of a wrapped sentence."""
    above = text[text.rfind("\n", 0, start - 1) + 1 : start - 1].strip() if start else ""
    below_end = text.find("\n", end + 1)
    below = text[end + 1 : len(text) if below_end < 0 else below_end].strip()
    if not above and not below:
        return True
    line = text[start:end].strip()
    starts_fresh = not above or above[-1] in _ENDS
    ends_here = not below or line[-1] in _ENDS or _ends_with_address(line)
    return starts_fresh and ends_here


def _ends_with_address(line: str) -> bool:
    spans = url_spans(line, needs_translation(line))
    return bool(spans) and not line[spans[-1][1] :].strip()


def _address_lines(text: str) -> list[Span]:
    spans: list[Span] = []
    for start, end in candidate_lines(text, _ANCHORS):
        line = text[start:end]
        if line.strip() and _mostly_address(line) and _stands_alone(text, start, end):
            spans.append(_line_removal(text, start, end))
    return spans


ADDRESS_LINE = BlockRule(
    name="common/address-line",
    description="Lines standing on their own whose web addresses (URLs, www addresses) make "
    "up at least half of their visible characters.",
    find_blocks=_address_lines,
    triggers=_ANCHORS,
)
