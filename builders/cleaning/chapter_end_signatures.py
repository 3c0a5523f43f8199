"""Site signatures glued to chapter ends: `…且听下回分解。本章由某某书屋整理校对（xxx.net）`.

Line-based learning (`learned.py`) removes a signature on a line of its own. Sites that
glue it to the chapter's last sentence (and files saved without line breaks) leave it
inside the story's last paragraph, and a signature usually ends in a bracket or full
stop, so the running-title test (`running_titles.py`: the clause-free fragment after
the last sentence end) does not see it either.

Once chapters are known, the ends of the chapters are compared: a *tail* is a suffix of
a chapter that starts after whitespace or punctuation. A tail that ends at
least `learned_min_chapter_share` of the chapters (and three), digits aside, is a
recurring chapter ending. Recurring endings are also how books close chapters
(`且听下回分解。`), so only a tail that holds a web address (a URL, `www` address, bare
domain or e-mail, `web_addresses.py`) or a site word (`收藏`, `最新章节`, `download`:
site_terms.py) is taken for a signature, and a tail never reaches back over a sentence
end before its first address or site word: the closing formula before a signature
stays (`…且听下回分解。喜欢本书请大家收藏：某某书屋` loses only the plea). A tail that is
one short bracketed phrase and nothing else (`（本章完）`, `【未完待续】`, `(To be
continued.)`) is taken too, site words or not: a story's sentence does not end in the
same bracketed aside in a third of its chapters, a serial's end marker does. Quote
brackets (`「」『』`) do not count, since they close dialogue. The longest such tail is
removed from every chapter it ends (with the spaces before it), counted under
``learned/chapter-end-signature``.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence

from lengthwise.builders.chapters.spans import rstripped_end
from lengthwise.builders.cleaning.learned import CHAPTER_END_SIGNATURE, LearnedLine
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.site_terms import (
    first_site_term,
    has_site_term,
    may_hold_site_term,
)
from lengthwise.builders.cleaning.web_addresses import (
    FULLWIDTH_TO_ASCII,
    MAY_HOLD_ADDRESS,
    first_address,
)
from lengthwise.text.numerals import DIGITS_TO_ZERO

RULE = CHAPTER_END_SIGNATURE
MAX_TAIL_CHARS = 80
MIN_CHAPTERS = 3
# A tail may not hold one of these before its address (a full sentence of the story).
_SENTENCE_ENDS = "。！？!?…"
_DIGITS = DIGITS_TO_ZERO
# Brackets an end marker may stand in (not quotes: `」` closes dialogue).
_MARKER_BRACKETS = {"（": "）", "(": ")", "【": "】", "[": "]", "〖": "〗", "〔": "〕"}
_MARKER_CLOSERS = frozenset(_MARKER_BRACKETS.values())
MAX_MARKER_CHARS = 24


def _is_punctuation(char: str) -> bool:
    # Any punctuation, not only sentence ends: `正是——` and `____` end chapters too.
    return unicodedata.category(char)[0] == "P"


def _may_open(char: str) -> bool:
    """Whether a signature may start with `char`: not with punctuation that closes or
    joins (`——`, `。`, `」`): that belongs to the story before it. Opening brackets and
    quotes may start one (`（本章完）…`)."""
    category = unicodedata.category(char)
    return category[0] != "P" or category in ("Ps", "Pi")


def _tail_starts(text: str, start: int, stop: int) -> list[int]:
    """Offsets in the last `MAX_TAIL_CHARS` of a chapter where a tail may start."""
    first = max(start + 1, stop - MAX_TAIL_CHARS)
    return [
        cut
        for cut in range(first, stop - 3)
        if (text[cut - 1].isspace() or _is_punctuation(text[cut - 1]))
        and not text[cut].isspace()
        and _may_open(text[cut])
    ]


def _ends_with_evidence(text: str, bounds: Sequence[tuple[int, int]]) -> int:
    """How many chapters (start, content end) may hold a web address or a site word in
    their last `MAX_TAIL_CHARS`."""
    windows = [text[max(start, stop - MAX_TAIL_CHARS) : stop] for start, stop in bounds]
    words = may_hold_site_term("\n".join(windows))  # most books: no site word at all
    found = 0
    for window in windows:
        if window[-1:] in _MARKER_CLOSERS:
            found += 1  # may end in a bracketed end marker
            continue
        address = MAY_HOLD_ADDRESS.search(window.translate(FULLWIDTH_TO_ASCII)) is not None
        found += address or (words and has_site_term(window))
    return found


def is_end_marker(tail: str) -> bool:
    """One short bracketed phrase and nothing else: `（本章完）`, `(To be continued.)`."""
    closer = _MARKER_BRACKETS.get(tail[:1])
    inner = tail[1:-1]
    return (
        closer is not None
        and tail.endswith(closer)
        and 0 < len(inner.strip()) <= MAX_MARKER_CHARS
        and not any(char in inner for char in (*_MARKER_BRACKETS, *_MARKER_CLOSERS, "\n"))
    )


def _is_signature(tail: str) -> bool:
    """An end marker, or holds a web address or a site word and no sentence end before
    the first."""
    if is_end_marker(tail):
        return True
    address = first_address(tail)
    word = first_site_term(tail)
    found = [at for at in (address[0] if address else None, word) if at is not None]
    if not found:
        return False
    return not any(mark in tail[: min(found)] for mark in _SENTENCE_ENDS)


def _evidence(tail: str) -> str:
    if first_address(tail) is not None:
        return "a web address"
    return "site words" if first_site_term(tail) is not None else "only a bracketed marker"


def chapter_end_signature_edits(
    text: str, chapter_spans: Sequence[tuple[int, int]], min_chapter_share: float
) -> tuple[list[Edit], list[LearnedLine]]:
    """Edits removing a recurring web signature from the ends of `chapter_spans` of `text`."""
    needed = max(MIN_CHAPTERS, round(min_chapter_share * len(chapter_spans)))
    bounds = [(start, rstripped_end(text, start, end)) for start, end in chapter_spans]
    if len(bounds) < MIN_CHAPTERS or _ends_with_evidence(text, bounds) < needed:
        return [], []  # the usual case, decided on the chapters' last characters only
    tails: list[dict[str, int]] = []  # per chapter: digit-folded tail -> its start
    counts: Counter[str] = Counter()
    for start, stop in bounds:
        found = {text[cut:stop].translate(_DIGITS): cut for cut in _tail_starts(text, start, stop)}
        tails.append(found)
        counts.update(found.keys())  # a mapping would add its values
    learned = max(
        (tail for tail, count in counts.items() if count >= needed and _is_signature(tail)),
        key=len,
        default=None,
    )
    if learned is None:
        return [], []
    edits: list[Edit] = []
    for (start, stop), found in zip(bounds, tails, strict=True):
        cut = found.get(learned)
        if cut is None:
            continue
        while cut > start and text[cut - 1] in " \t\u3000":
            cut -= 1  # the spaces that glued it on go with it
        edits.append((cut, stop, ""))
    line = LearnedLine(
        rule=RULE,
        line=learned,
        count=len(edits),
        scope="book",
        why=f"ends {len(edits)} of {len(chapter_spans)} chapters and holds {_evidence(learned)}",
    )
    return edits, [line]
