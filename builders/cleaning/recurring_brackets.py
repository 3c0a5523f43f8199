"""Bracketed site notes repeated inside paragraphs, learned per book (`zh-web/recurring-brackets`).

Sites insert their name or a plea into the text itself, in brackets, over and over:
`…东逝水。【某某文学网】浪花淘尽…`, `（某某书屋首发，请支持正版阅读）`. Which site, which words and
which brackets differ per source, so nothing here names them: a bracketed fragment
(（…） (…) 【…】 […] 〔…〕 on one line, 4-40 characters inside, at least two of them letters
or ideographs, no sentence end inside) that recurs verbatim at least `MIN_REPEATS`
times in one book is not the story's: a narrator's or editor's notes in brackets say
something different each time. Digits are not folded: notes that differ only in a
number (`（见第12回）`, `（见第30回）`) are an editor's cross-references. Every occurrence of
such a fragment is removed, counted, and listed with the learned boilerplate, with the
words before it when nearly all occurrences have the same ones (`本章由某某书屋整理校对` before
`（xxxx.net）`): they belong to the note. A note alone on its line goes with the line.

Adverts worded differently each time (`『青柠书斋首发，请支持正版』`,
`『一秒记住青柠书斋，最新章节免费看』`) never repeat verbatim; the site's name they share
does (`_named_adverts`).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from lengthwise.builders.cleaning.learned import LearnedLine
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.rules import (
    OutcomeRule,
    RuleOutcome,
    edited_outcome,
)
from lengthwise.builders.cleaning.site_terms import first_site_term, site_term_spans

NAME = "zh-web/recurring-brackets"
MIN_REPEATS = 10
MIN_INSIDE = 4
MAX_INSIDE = 40
LEAD_IN_SHARE = 0.9
_CLOSERS = {"（": "）", "(": ")", "【": "】", "[": "]", "〔": "〕"}
# Adverts worded differently each time are told by the site name they share, so they may
# sit in quote brackets too (a story's own 『…』 shares no name with a site word).
_ADVERT_CLOSERS = {**_CLOSERS, "『": "』", "「": "」"}
NAME_CHARS = 4
NAME_INSIDE_SHARE = 0.9
_SENTENCE_ENDS = "。！？!?\n"


def _bracketed(text: str, closers: dict[str, str]) -> list[tuple[int, int]]:
    """(start, end) of every one-line bracketed fragment of the right size.

    Found from the openers the text holds with `str.find` (cheaper than a pattern tried
    at every position of a book).
    """
    spans = []
    for opener, closer in closers.items():
        start = text.find(opener)
        while start >= 0:
            end = text.find(closer, start + 1, start + MAX_INSIDE + 2)
            inside = text[start + 1 : end] if end >= 0 else ""
            if (
                end >= 0
                and len(inside) >= MIN_INSIDE
                and opener not in inside
                and not any(mark in inside for mark in _SENTENCE_ENDS)
                and sum(1 for char in inside if char.isalpha()) >= 2
            ):
                spans.append((start, end + 1))
            start = text.find(opener, start + 1)
    return spans


def _lead_in_start(text: str, start: int) -> int:
    """Where the clause holding the note at `start` begins (after a sentence end)."""
    floor = max(0, start - MAX_INSIDE)
    return max(text.rfind(mark, floor, start) for mark in _SENTENCE_ENDS) + 1 or floor


def _with_lead_in(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans, each widened to a lead-in that all but a few of them share.

    A note often comes with fixed words before it (`本章由某某书屋整理校对（xxxx.net）`): the
    same words before nearly every occurrence belong to the note, and go with it.
    """
    leads = [text[_lead_in_start(text, start) : start] for start, _ in spans]
    common, count = Counter(leads).most_common(1)[0]
    if not common.strip() or count < LEAD_IN_SHARE * len(spans):
        return spans
    return [
        (start - len(common) if lead == common else start, end)
        for (start, end), lead in zip(spans, leads, strict=True)
    ]


def _line_if_whole(text: str, start: int, end: int) -> tuple[int, int]:
    """The note's line with its line break when the note is all the line holds.

    Removing only the note would leave an empty line: a paragraph break in a book whose
    paragraphs are one line each."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if text[line_start:start].strip() or text[end:line_end].strip():
        return start, end
    return line_start, min(line_end + 1, len(text))


def _named_adverts(
    text: str, spans: list[tuple[int, int]], verbatim: set[tuple[int, int]]
) -> dict[str, list[tuple[int, int]]]:
    """Bracketed adverts worded differently each time but naming one site, by that name.

    A name is a run of `NAME_CHARS` ideographs, no site word or part of one, found in
    `MIN_REPEATS` fragments or more, in two wordings or more, and (nearly) never outside
    them (`NAME_INSIDE_SHARE` of its occurrences): a character's name is mostly in the
    story. Only where some of its fragments hold a site word (site_terms.py: `首发`,
    `本站`, `最新章节`…). Fragments in `verbatim` (learned as repeats already) count as
    evidence but are not listed again.
    """
    fragments = [text[start:end] for start, end in spans]
    if len(fragments) < MIN_REPEATS or first_site_term("\n".join(fragments)) is None:
        return {}
    holders: dict[str, list[int]] = defaultdict(list)
    for index, fragment in enumerate(fragments):
        # A name is no site word, nor part of one (`说曹操首` in `却说曹操首发`).
        worded = {k for start, end in site_term_spans(fragment) for k in range(start, end)}
        grams = {
            fragment[k : k + NAME_CHARS]
            for k in range(1, len(fragment) - NAME_CHARS)
            if worded.isdisjoint(range(k, k + NAME_CHARS))
        }
        for gram in grams:
            if all("\u4e00" <= char <= "\u9fff" for char in gram):
                holders[gram].append(index)
    adverts: dict[str, list[tuple[int, int]]] = {}
    taken: set[int] = set()
    for gram, indexes in sorted(holders.items(), key=lambda item: -len(item[1])):
        indexes = [index for index in indexes if index not in taken]
        wordings = {fragments[index] for index in indexes}
        if (
            len(indexes) >= MIN_REPEATS
            and len(wordings) >= 2
            and len(indexes) >= NAME_INSIDE_SHARE * text.count(gram)
            and any(first_site_term(wording) is not None for wording in wordings)
        ):
            taken.update(indexes)
            named = [spans[index] for index in indexes if spans[index] not in verbatim]
            if named:
                adverts[gram] = named
    return adverts


def remove_recurring_brackets(text: str) -> RuleOutcome:
    """Learn this book's recurring bracketed notes and remove them."""
    fragments = sorted(_bracketed(text, _ADVERT_CLOSERS))  # one scan for both uses
    groups: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for start, end in fragments:
        if text[start] in _CLOSERS:  # verbatim repeats: not quote brackets
            groups[text[start:end]].append((start, end))
    learned = {
        key: _with_lead_in(text, spans)
        for key, spans in groups.items()
        if len(spans) >= MIN_REPEATS
    }
    # Identical notes learned above count as their site's too: the name may be in both.
    verbatim = {span for key, spans in groups.items() if key in learned for span in spans}
    named = _named_adverts(text, fragments, verbatim)
    if not learned and not named:
        return RuleOutcome(text, 0)
    edits: list[Edit] = []
    found = [*learned.values(), *named.values()]
    spans = sorted(_line_if_whole(text, *span) for spans in found for span in spans)
    for start, end in spans:
        if not edits or start >= edits[-1][1]:  # nested notes: the outer one goes
            edits.append((start, end, ""))
    lines = tuple(
        LearnedLine(
            NAME,
            text[spans[0][0] : spans[0][1]],
            len(spans),
            "book",
            f"the same bracketed note {len(spans)} times inside the text",
        )
        for spans in learned.values()
    ) + tuple(
        LearnedLine(
            NAME,
            text[spans[0][0] : spans[0][1]],
            len(spans),
            "book",
            f"{len(spans)} bracketed notes naming {name}, worded differently",
        )
        for name, spans in named.items()
    )
    return edited_outcome(text, edits, lines)


RECURRING_BRACKETS = OutcomeRule(
    name=NAME,
    description=(
        "A bracketed note repeated verbatim at least 10 times inside the "
        "text (`【某某文学网】`, `（某某书屋首发，请支持正版阅读）`) is removed; learned per book."
    ),
    change=remove_recurring_brackets,
)
