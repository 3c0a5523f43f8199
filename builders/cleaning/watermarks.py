"""`common/disguised-watermark`: a site watermark glued into sentences, learned by its
skeleton and removed wherever it is printed, however it is separated.

A disguised cluster (`watermark_skeletons`) whose skeleton has `MIN_SKELETON` characters
or more, an ideograph or a web word among them, is learned when the skeleton recurs
`MIN_REPEATS` times in the book, or when it names a site (`www`, `com`, `小说网`, `下载`)
even once. Where the same characters stand next to it in most of its places
(`ｗωｗ奇Qisuu書com` is followed by `网` every time, the story by whatever), they are
part of it. Every printing of a learned skeleton then goes: any separators between its
characters (none too), any of its characters' look-alikes, width and script forms, and
a bracket pair or frame around it that holds nothing else. Held-out check: written against
`（奇*书*网^.^整*理*提*供）` and `ｗωｗ奇Qisuu書com网`, tested on `|奇-_-书^_^网|` and
`SJTXT小说下载网+sjtxt.Com` planted in the shared classics (tests/builders/cleaning/
test_disguised_watermarks.py). Chinese (mostly-CJK) text only; off with
`learned_boilerplate = false` or `disable_rules`.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from lengthwise.builders.cleaning.learned import LearnedLine
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.rules import OutcomeRule, RuleOutcome, edited_outcome
from lengthwise.builders.cleaning.watermark_skeletons import (
    DISGUISE_SYMBOLS,
    Cluster,
    clusters,
    has_web_word,
    skeleton,
)
from lengthwise.builders.language import count_ideographs, count_latin_letters

NAME = "common/disguised-watermark"
MIN_SKELETON = 3
MIN_REPEATS = 3
MAX_EXTEND = 8  # characters a skeleton grows by on each side
AGREE_SHARE = 0.8  # share of places where the same character stands next to it
MAX_SEPARATORS = 4  # separator characters between two characters of a skeleton
_IDEOGRAPH = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# Between a skeleton's characters: anything its skeleton drops but a line end (Chinese
# stops too: cleaning made `奇.书` `奇。书` before this rule runs).
_SEPARATOR = r"(?:[^\w\n]|_)"
_OPENERS, _CLOSERS = "（(【[〔|｜", "）)】]〕|｜"
_SPACES = frozenset(" \t\u3000")


def learnable(cluster: Cluster) -> bool:
    """A disguised skeleton long enough, with an ideograph or a web word, or letters
    spelled out one by one (`ｂ.ｉ.ｑ.ｕ.ｇ.ｅ`, disguised only so): not `3-5`."""
    bare = cluster.skeleton
    if not cluster.disguised or len(bare) < MIN_SKELETON:
        return False
    return _IDEOGRAPH.search(bare) is not None or has_web_word(bare) or bare.isalpha()


def learn_skeletons(text: str) -> dict[str, int]:
    """The watermark skeletons of `text` with how many disguised clusters carry each."""
    by_skeleton: defaultdict[str, list[Cluster]] = defaultdict(list)
    for cluster in clusters(text):
        if learnable(cluster):
            by_skeleton[cluster.skeleton].append(cluster)
    learned: dict[str, int] = {}
    for bare, group in by_skeleton.items():
        if len(group) >= MIN_REPEATS or group[0].names_a_site:
            learned[_extended(text, bare, group)] = len(group)
    return learned


def _extended(text: str, bare: str, group: list[Cluster]) -> str:
    """The skeleton with the characters standing next to it in most of its places."""
    if len(group) < MIN_REPEATS:
        return bare
    before, after = "", ""
    for side in ("before", "after"):
        grown, step = 0, 0
        while grown < MAX_EXTEND:
            chars: Counter[str] = Counter()
            for c in group:
                at = c.start - 1 - step if side == "before" else c.end + step
                printed = text[at] if 0 <= at < len(text) else ""
                # A space between a site's name and its address (`某某文学网提供 abc.com`)
                # is stepped over, as the patterns step over separators; a stop is not.
                chars[" " if printed in _SPACES else skeleton(printed)] += 1
            step += 1
            char, count = chars.most_common(1)[0]
            if len(char) != 1 or count < AGREE_SHARE * len(group):
                break
            if char == " ":
                continue
            grown += 1
            if side == "before":
                before = char + before
            else:
                after += char
    return before + bare + after


def skeleton_patterns(skeletons: Iterable[str], text: str) -> list[re.Pattern[str]]:
    """A regex for each skeleton as printed in `text`: each character by any of its forms
    there, any separators between them."""
    forms: defaultdict[str, set[str]] = defaultdict(set)
    for char in set(text):
        folded = skeleton(char)
        if len(folded) == 1:
            forms[folded].add(char)
    patterns = []
    for bare in skeletons:
        classes = ["[" + re.escape("".join(sorted(forms[c] | {c}))) + "]" for c in bare]
        patterns.append(re.compile(f"{_SEPARATOR}{{0,{MAX_SEPARATORS}}}".join(classes)))
    return patterns


def watermark_spans(text: str, skeletons: Iterable[str]) -> list[tuple[int, int]]:
    """Where each skeleton is printed in `text`, with a bracket pair or frame around it
    (overlapping printings of two skeletons merged: `SJTXT小说下载网` and `网+sjtxt.Com`)."""
    spans = []
    for pattern in skeleton_patterns(skeletons, text):
        for match in pattern.finditer(text):
            start, end = match.span()
            # The frame's symbols around it (`~顶~点~小~说~`), then a bracket pair.
            while start and text[start - 1] in DISGUISE_SYMBOLS:
                start -= 1
            while end < len(text) and text[end] in DISGUISE_SYMBOLS:
                end += 1
            if (
                start
                and end < len(text)
                and text[start - 1] in _OPENERS
                and text[end] == _CLOSERS[_OPENERS.index(text[start - 1])]
            ):
                start, end = start - 1, end + 1
            spans.append((start, end))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def remove_watermarks(text: str) -> RuleOutcome:
    """The edits removing every printing of the book's learned watermarks."""
    sample = text[:20_000]
    if count_ideographs(sample) * 4 <= count_latin_letters(sample):
        return RuleOutcome(text, 0)
    learned = learn_skeletons(text)
    spans = watermark_spans(text, learned)
    if not spans:
        return RuleOutcome(text, 0)
    edits: list[Edit] = [(start, end, "") for start, end in spans]
    removed = [text[start:end] for start, end in spans]
    bare_removed = [skeleton(printed) for printed in removed]
    lines = []
    for bare, clustered in learned.items():
        # A printing holds the skeleton (merged with a neighbour's: `SJTXT小说下载网+…`).
        held = [printed for printed, b in zip(removed, bare_removed, strict=True) if bare in b]
        why = f"skeleton {bare}: {clustered} disguised printings"
        lines.append(LearnedLine(NAME, held[0] if held else bare, len(held), "book", why))
    return edited_outcome(text, edits, tuple(lines))


DISGUISED_WATERMARK = OutcomeRule(
    name=NAME,
    description="A site watermark disguised by separators or look-alikes "
    "(`（奇*书*网^.^整*理*提*供）`, `ｗωｗ奇Qisuu書com网`) is learned by its skeleton (letters "
    "and ideographs after folding width, look-alikes, case and script) when it recurs or "
    "names a site, and removed wherever that skeleton is printed, however separated.",
    change=remove_watermarks,
)
