"""No-model solvers of the ordering family, run on every instance at build time.

A benchmark a surface heuristic beats measures the heuristic. These solvers read only
the instance's context (segments and hints, as `ordering.render_context` lays them out)
and use cues a careless build leaves at segment boundaries:

- `boundary-overlap`: words shared across a boundary (the end of one piece and the
  start of the next: names, the object of a sentence carried over) and damaged
  boundaries (a piece ending without a sentence stop must go on; an English piece
  opening in lower case must follow one); the order with the most continuity wins;
- `hints`: the segment whose start shares most with the paragraph(s) shown before
  the segments goes first, the one whose end shares most with those after goes last,
  the rest stay as shown;
- `formula-start`: a segment opening with a chapter-transition formula (却说, 话说,
  且说, "Meanwhile", ...) starts a new thread, so it rarely follows the hint before
  the segments: such segments go last.

For synopsis ordering, `lexical-position` puts each shown synopsis where the
context's paragraphs share most words with it. Each returns an order of the labels;
`shortcuts` scores it as the evaluator does beside the random guess.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lengthwise.task_records import TaskInstance

# Lines that open a block of an ordering context (see ordering.render_context).
_MARKER = re.compile(
    r"^(?:\[Segment (?P<en>[A-Z]+)\]|【片段(?P<zh>[A-Z]+)】"
    r"|(?P<before>\[Before the segments\]|【片段之前】)"
    r"|(?P<after>\[After the segments\]|【片段之后】))$",
    re.MULTILINE,
)
# Chapter-transition formulae of Chinese vernacular novels and their English kin: a
# paragraph opening with one starts a new thread of the story.
TRANSITION_FORMULAE = (
    "却说", "话说", "且说", "再说", "单说", "却表", "且表", "话分两头", "不说", "且不说", "再表",
    "meanwhile", "in the meantime", "the next morning", "the next day",
)  # fmt: skip
_STOPS = tuple(".!?。！？…”’」』\"')）】")
_EN_WORD = re.compile(r"[a-z][a-z']{3,}")
_HAN = re.compile(r"[\u3400-\u9fff]+")
_WINDOW = 400  # characters of a piece's edge compared across a boundary
_BRUTE_FORCE = 7  # segments up to which every order is tried


@dataclass(frozen=True)
class OrderingParts:
    """An ordering context read back: hints and segments as shown (label, text)."""

    before: str
    segments: list[tuple[str, str]]
    after: str
    language: str


def read_ordering_context(context: str) -> OrderingParts:
    """The blocks of an ordering context, by their marker lines."""
    matches = list(_MARKER.finditer(context))
    before = after = ""
    segments: list[tuple[str, str]] = []
    language = "en"
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(context)
        text = context[match.end() : end].strip()
        if match.group("before"):
            before = text
        elif match.group("after"):
            after = text
        else:
            language = "zh" if match.group("zh") else "en"
            segments.append((match.group("en") or match.group("zh"), text))
    return OrderingParts(before, segments, after, language)


def edge_features(text: str, language: str, *, head: bool) -> set[str]:
    """Content units of a piece's first (head) or last characters: English words of 4+
    letters, Chinese character pairs."""
    window = text[:_WINDOW] if head else text[-_WINDOW:]
    if language == "zh":
        runs = _HAN.findall(window)
        return {run[i : i + 2] for run in runs for i in range(len(run) - 1)}
    return set(_EN_WORD.findall(window.casefold()))


def overlap(left: set[str], right: set[str]) -> float:
    """Shared units over the geometric mean of the sizes (0 when either is empty)."""
    if not left or not right:
        return 0.0
    return len(left & right) / math.sqrt(len(left) * len(right))


def ends_unstopped(text: str) -> bool:
    """A piece that ends without a sentence stop (cut inside a sentence or a line)."""
    stripped = text.rstrip()
    return bool(stripped) and not stripped.endswith(_STOPS)


def starts_lowercase(text: str) -> bool:
    stripped = text.lstrip(" \"'“‘(—-")
    return bool(stripped) and stripped[0].islower()


def opens_with_formula(text: str) -> bool:
    start = text.lstrip(" \u3000\"'“‘「").casefold()
    return start.startswith(TRANSITION_FORMULAE)


def _best_order(n: int, pair: Callable[[int, int], float], first: Callable[[int], float],
                last: Callable[[int], float]) -> list[int]:  # fmt: skip
    """The order of 0..n-1 maximising first + consecutive pairs + last (greedy beyond
    `_BRUTE_FORCE` items); ties keep the shown order."""

    def total(order: Sequence[int]) -> float:
        inner = sum(pair(a, b) for a, b in itertools.pairwise(order))
        return first(order[0]) + inner + last(order[-1])

    if n <= _BRUTE_FORCE:
        orders = [list(p) for p in itertools.permutations(range(n))]
        return max(orders, key=total)
    order = [max(range(n), key=first)]
    while len(order) < n:
        rest = [i for i in range(n) if i not in order]
        order.append(max(rest, key=lambda j: pair(order[-1], j)))
    return order


def boundary_overlap_order(parts: OrderingParts) -> list[str]:
    """The order with the most continuity across boundaries (see the module docstring)."""
    lang, texts = parts.language, [t for _, t in parts.segments]
    heads = [edge_features(t, lang, head=True) for t in texts]
    tails = [edge_features(t, lang, head=False) for t in texts]
    before = edge_features(parts.before, lang, head=False)
    after = edge_features(parts.after, lang, head=True)
    unstopped = [ends_unstopped(t) for t in texts]
    lower = [lang == "en" and starts_lowercase(t) for t in texts]

    def pair(a: int, b: int) -> float:
        return overlap(tails[a], heads[b]) + (unstopped[a] and lower[b]) * 1.0

    def first(a: int) -> float:
        damaged = lower[a] and not ends_unstopped(parts.before) if parts.before else lower[a]
        return overlap(before, heads[a]) - damaged * 1.0

    def last(a: int) -> float:
        return overlap(tails[a], after) - (unstopped[a] and not parts.after) * 1.0

    order = _best_order(len(texts), pair, first, last)
    return [parts.segments[i][0] for i in order]


def hints_order(parts: OrderingParts) -> list[str]:
    """First and last segments from the hints alone, the rest as shown."""
    lang, texts = parts.language, [t for _, t in parts.segments]
    labels = [label for label, _ in parts.segments]
    if not parts.before and not parts.after:
        return labels
    before = edge_features(parts.before, lang, head=False)
    after = edge_features(parts.after, lang, head=True)
    indices = list(range(len(texts)))
    first = max(indices, key=lambda i: overlap(before, edge_features(texts[i], lang, head=True)))
    rest = [i for i in indices if i != first]
    last = max(rest, key=lambda i: overlap(edge_features(texts[i], lang, head=False), after))
    middle = [i for i in rest if i != last]
    return [labels[i] for i in [first, *middle, last]]


def formula_start_order(parts: OrderingParts) -> list[str]:
    """Segments opening with a transition formula after those that do not (a formula
    opens a new chapter, so such a segment is rarely the one the hints lead into),
    each group as shown."""
    plain = [label for label, text in parts.segments if not opens_with_formula(text)]
    formula = [label for label, text in parts.segments if opens_with_formula(text)]
    return plain + formula


_SYNOPSIS_LINE = re.compile(r"^\[(?P<label>[A-Z]+)\] (?P<text>.*)$", re.MULTILINE)


def lexical_position_order(instance: TaskInstance) -> list[str]:
    """Synopsis labels ordered by the context paragraph most like each synopsis."""
    language = instance.language
    paragraphs = [p for p in instance.context.split("\n\n") if p.strip()]
    features = [_all_features(p, language) for p in paragraphs]
    placed = []
    for match in _SYNOPSIS_LINE.finditer(instance.question):
        wanted = _all_features(match.group("text"), language)
        scores = [overlap(wanted, f) for f in features]
        best = max(range(len(scores)), key=lambda k: scores[k]) if scores else 0
        placed.append((best, match.group("label")))
    return [label for _, label in sorted(placed)]


def _all_features(text: str, language: str) -> set[str]:
    if language == "zh":
        runs = _HAN.findall(text)
        return {run[i : i + 2] for run in runs for i in range(len(run) - 1)}
    return set(_EN_WORD.findall(text.casefold()))
