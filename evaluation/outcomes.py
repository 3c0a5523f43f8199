"""What happened to each generation, counted rather than hidden.

Every (sample, prompt) gets one outcome, the first that applies in this order:

- ``error``: the backend gave up (endpoint down after retries); not scored, retried
  when the run is resumed;
- ``blocked``: refused by a content filter;
- ``over_length``: the backend refused the prompt as longer than its window;
- ``empty``: nothing but whitespace or punctuation (scored 0, as CNNSum does);
- ``instruction_repeated``: most of the instruction's wording comes back;
- ``copied_context``: most of the answer is copied from the context instead of summarised;
- ``degenerate``: the answer loops (few distinct n-grams overall or in its second half);
- ``ok``.

`flags` lists every check that fired (plus ``hit_max_tokens`` when generation stopped at
the limit), so an answer that is both copied and looping shows both. Plan skips are
the outcome ``skipped``. Thresholds are module constants, recorded in results.json.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Final

OUTCOMES: Final = (
    "ok",
    "empty",
    "degenerate",
    "copied_context",
    "instruction_repeated",
    "blocked",
    "over_length",
    "error",
    "skipped",
)
# Answers shorter than this many units are too short to call looping or copied.
MIN_UNITS: Final = 20
DEGENERATE_DISTINCT_RATIO: Final = 0.5  # distinct n-grams / n-grams, whole answer
DEGENERATE_TAIL_RATIO: Final = 0.3  # ... in the second half (an answer that ends in a loop)
COPIED_CONTEXT_SHARE: Final = 0.7  # share of the answer's n-grams found in the context
INSTRUCTION_SHARE: Final = 0.5  # share of the instruction's n-grams found in the answer

# n-gram sizes: Chinese in characters, English in words.
_REPEAT_N: Final = {"zh": 6, "en": 4}
_COPY_N: Final = {"zh": 8, "en": 5}
_INSTRUCTION_N: Final = {"zh": 4, "en": 3}
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class OutcomeCheck:
    outcome: str
    flags: tuple[str, ...] = ()
    details: dict[str, float] = field(default_factory=dict)


def thresholds() -> dict[str, float]:
    """The detector settings, for results.json."""
    return {
        "min_units": MIN_UNITS,
        "degenerate_distinct_ratio": DEGENERATE_DISTINCT_RATIO,
        "degenerate_tail_ratio": DEGENERATE_TAIL_RATIO,
        "copied_context_share": COPIED_CONTEXT_SHARE,
        "instruction_share": INSTRUCTION_SHARE,
    }


def units(text: str, language: str) -> list[str]:
    """Characters (no whitespace) for Chinese, lower-cased words otherwise."""
    if language == "zh":
        return [ch for ch in text if not ch.isspace()]
    return [word.lower() for word in _WORD.findall(text)]


def ngrams(items: list[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(items[i : i + n]) for i in range(len(items) - n + 1)]


def is_empty(text: str) -> bool:
    """Nothing but whitespace and punctuation (CNNSum scores an all-dots answer 0)."""
    return not any(ch.isalnum() for ch in text)


def distinct_ratio(items: list[str], n: int) -> float:
    grams = ngrams(items, n)
    return len(set(grams)) / len(grams) if grams else 1.0


def repetition_ratios(text: str, language: str) -> tuple[float, float]:
    """(distinct n-gram ratio of the whole answer, of its second half); 1.0 when short."""
    items = units(text, language)
    n = _REPEAT_N.get(language, 4)
    if len(items) < MIN_UNITS:
        return 1.0, 1.0
    second_half = items[len(items) // 2 :]
    tail = distinct_ratio(second_half, n) if len(second_half) >= MIN_UNITS else 1.0
    return distinct_ratio(items, n), tail


@functools.lru_cache(maxsize=8)
def _context_grams(context: str, language: str) -> frozenset[tuple[str, ...]]:
    # IB and IE of one sample are checked one after the other: keep a few contexts' sets.
    return frozenset(ngrams(units(context, language), _COPY_N.get(language, 5)))


def context_overlap(text: str, context: str, language: str) -> float:
    """Share of the answer's n-grams that occur in the context (0 when the answer is short)."""
    items = units(text, language)
    if len(items) < MIN_UNITS:
        return 0.0
    grams = ngrams(items, _COPY_N.get(language, 5))
    if not grams:
        return 0.0
    found = _context_grams(context, language)
    return sum(1 for gram in grams if gram in found) / len(grams)


def instruction_overlap(text: str, instruction: str, language: str) -> float:
    """Share of the instruction's n-grams that occur in the answer."""
    n = _INSTRUCTION_N.get(language, 3)
    wanted = set(ngrams(units(instruction, language), n))
    if len(wanted) < 3:
        return 0.0
    present = set(ngrams(units(text, language), n))
    return len(wanted & present) / len(wanted)


def classify(
    text: str,
    backend_outcome: str,
    *,
    context: str,
    instruction: str,
    language: str,
) -> OutcomeCheck:
    """The outcome, the flags that fired and the measured ratios for one answer."""
    if backend_outcome in ("error", "blocked", "over_length"):
        return OutcomeCheck(backend_outcome, (backend_outcome,))
    flags: list[str] = []
    if backend_outcome == "length":
        flags.append("hit_max_tokens")
    if is_empty(text):
        return OutcomeCheck("empty", ("empty", *flags))
    whole, tail = repetition_ratios(text, language)
    copied = context_overlap(text, context, language)
    repeated = instruction_overlap(text, instruction, language)
    details = {
        "distinct_ratio": round(whole, 4),
        "tail_distinct_ratio": round(tail, 4),
        "context_overlap": round(copied, 4),
        "instruction_overlap": round(repeated, 4),
    }
    found: list[str] = []
    if repeated >= INSTRUCTION_SHARE:
        found.append("instruction_repeated")
    if copied >= COPIED_CONTEXT_SHARE:
        found.append("copied_context")
    if whole < DEGENERATE_DISTINCT_RATIO or tail < DEGENERATE_TAIL_RATIO:
        found.append("degenerate")
    outcome = found[0] if found else "ok"
    return OutcomeCheck(outcome, (*found, *flags), details)
