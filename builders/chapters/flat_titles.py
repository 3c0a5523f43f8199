"""Cut the titles of headings glued on both sides, in books saved without line breaks.

`…且聽下回分解。第二回冀州侯蘇護反商詩曰：丞相金鑾直諫君，…`: after `第二回` comes the 回目
(`冀州侯蘇護反商`) and, with nothing in between, the body (`詩曰：…`). The candidate finder
took the whole run up to the first punctuation; here each run is cut, using the book's own
headings, at the first boundary that holds:

1. a body opener: a conventional one of 章回 novels (詩曰, 話說, 卻說, …) or one the book
   itself uses, i.e. the last two characters before a colon ending the runs of at least
   `MIN_LEARNED` headings (`古風一首` is not learned from one heading, `詩曰` from 97);
2. a verse line: when the run is followed by a comma, the body opens with a poem whose lines
   have equal length, so the run's last k characters are a line as long as the clause after
   the comma (`恩州驛狐狸死妲己|天下荒荒起戰場，致生讒佞亂家邦。`);
3. the length of the 回目: titles cut by 1-2 give the book's usual title lengths; a longer
   run is cut at the most common one.
A run already no longer than the usual titles is kept whole.

A heading after a sentence end whose title is followed by a body opener is as good as one on
a line of its own (a chapter reference inside a sentence is not followed by `詩曰：`): it is
marked strong, so a misprinted number (封神演義 prints its last heading `第一回`) is kept as
a chapter and reported as a duplicate instead of vanishing into the chapter before it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from lengthwise.builders.chapters.model import Candidate

OPENERS = (
    "詩曰", "詞曰", "詩云", "詞云", "贊曰", "诗曰", "词曰", "诗云", "词云", "赞曰",
    "話說", "话说", "話表", "话表", "卻說", "却說", "却说", "且說", "且说", "再說", "再说",
    "單說", "单说", "看官", "列位", "古風", "古风", "有詩", "有诗", "正是",
)  # fmt: skip
MIN_TITLE = 4  # shortest 回目 kept before an opener
MIN_LEARNED = 3
_CLAUSE_RE = re.compile(r"[，,]([^，,。！？!?；;：:、\s]{3,12})[，,。！？!?；;]")


def cut_flat_titles(text: str, candidates: list[Candidate]) -> list[Candidate]:
    """Candidates with their flat titles cut (others unchanged), same order."""
    flat = [c for c in candidates if c.flat]
    if not flat:
        return candidates
    lead_ins = _learned_lead_ins(text, flat)
    flat = [_anchor(text, c, lead_ins) for c in flat]
    by_start = {c.start: c for c in flat}
    candidates = [by_start.get(c.start, c) if c.flat else c for c in candidates]
    openers = set(OPENERS) | _learned_openers(text, flat)
    cuts = {id(c): _opener_cut(c.title, openers) for c in flat}
    opened = {id(c) for c in flat if cuts[id(c)] is not None and c.anchored and not c.unprefixed}
    for c in flat:
        if cuts[id(c)] is None:
            cuts[id(c)] = _verse_cut(text, c)
    lengths = Counter(cut for cut in cuts.values() if cut is not None)
    usual = lengths.most_common(1)[0][0] if lengths else None
    longest = max(lengths) if lengths else None
    result: list[Candidate] = []
    for candidate in candidates:
        if not candidate.flat:
            result.append(_line_title_cut(candidate, text, openers, usual))
            continue
        cut = cuts[id(candidate)]
        if cut is None and usual is not None and longest is not None:
            cut = usual if len(candidate.title) > longest else None
        candidate = _with_title(text, candidate, cut)
        if id(candidates[len(result)]) in opened:
            candidate = replace(candidate, strong=True)
        result.append(candidate)
    return result


def _line_title_cut(
    candidate: Candidate, text: str, openers: set[str], usual: int | None
) -> Candidate:
    """A heading that starts a line in a book whose other headings are glued: its line
    may go on into the body (the book hard-wrapped after its line breaks were lost:
    `第九回服肉芝延年益壽食朱草入聖超凡話說唐敖聞多九`). A title longer than the book's
    usual glued title is cut at a body opener, as those are."""
    if usual is None or len(candidate.title) <= usual:
        return candidate
    return _with_title(text, candidate, _opener_cut(candidate.title, openers))


def _lead_in(text: str, candidate: Candidate) -> str:
    """The two characters before a heading, sentence punctuation skipped."""
    before = text[max(0, candidate.start - 6) : candidate.start].rstrip('。！？!?．.；;…」』”’"')
    return before[-2:]


def _learned_lead_ins(text: str, flat: list[Candidate]) -> set[str]:
    """What precedes many headings: `…下回分解。` or a running title `…官場現形記第二回`."""
    counts = Counter(_lead_in(text, c) for c in flat if not c.unprefixed)
    least = max(MIN_LEARNED, len(flat) // 5)
    return {lead for lead, count in counts.items() if count >= least and len(lead) == 2}


def _anchor(text: str, candidate: Candidate, lead_ins: set[str]) -> Candidate:
    """A prefixed heading after a learned lead-in is anchored like one after a sentence end."""
    if candidate.anchored or candidate.unprefixed or _lead_in(text, candidate) not in lead_ins:
        return candidate
    return replace(candidate, anchored=True)


def _learned_openers(text: str, flat: list[Candidate]) -> set[str]:
    """Two-character endings of runs that stop at a colon, seen in several headings."""
    endings = Counter(
        c.title[-2:]
        for c in flat
        if len(c.title) > MIN_TITLE + 1 and text[c.end : c.end + 1] in ":："
    )
    return {ending for ending, count in endings.items() if count >= MIN_LEARNED}


def _opener_cut(title: str, openers: set[str]) -> int | None:
    positions = [i for i in range(MIN_TITLE, len(title) - 1) if title[i : i + 2] in openers]
    return min(positions) if positions else None


def _verse_cut(text: str, candidate: Candidate) -> int | None:
    clause = _CLAUSE_RE.match(text, candidate.end)
    if clause is None:
        return None
    cut = len(candidate.title) - len(clause.group(1))
    return cut if cut >= MIN_TITLE else None


def _with_title(text: str, candidate: Candidate, cut: int | None) -> Candidate:
    if cut is None or cut >= len(candidate.title):
        return candidate
    end = candidate.end - (len(candidate.title) - cut)
    return replace(
        candidate,
        end=end,
        title=candidate.title[:cut],
        heading=text[candidate.start : end].strip(),
    )
