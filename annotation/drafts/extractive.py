"""The extractive drafter: key sentences of a chapter, in their original order.

Used when no drafter LLM is configured (and for chapters the LLM could not draft).
It is deterministic and needs no model. Scoring, in brief:

- terms are Chinese character bigrams (within runs of CJK characters) or English
  content words (lower-cased, 3+ letters, no stop words);
- a term's weight is log(number of sentences containing it) when it occurs in at least
  two sentences: recurring terms are what the chapter is about (its characters, places,
  objects), while a single occurrence says nothing about importance;
- a sentence scores the sum of its distinct terms' weights over the square root of
  their number, so long sentences do not win by length alone;
- position: the chapter is cut into equal segments (by sentence index) and the best
  sentence of each segment is taken first, so the draft follows the chapter from
  beginning to end; the rest of the budget goes to the best remaining sentences,
  skipping near-duplicates (term Jaccard similarity above 0.6).

The selected sentences are returned verbatim in chapter order, within a length budget
(characters for Chinese, words for English).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from lengthwise.annotation.drafts.sentences import split_sentences

EXTRACTIVE_MODEL = "extractive-v1"


def _split_words(text: str) -> list[str]:
    return text.split()


_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
# Function characters: bigrams containing them carry little content.
_ZH_STOP_CHARS = frozenset("的了是在和与也而着就都又还这那之其我你他她它们个一不有么吗呢吧啊")
_EN_STOP_WORDS = frozenset(
    _split_words(
        """
    the and for are but not you all any can had her was one our out his has him how its may
    who did get let she too use that with have this will your from they know want been were
    what when them then than some into just like over such only also very would could should
    there their which while where after before about again once here upon said shall unto
    thee thou thy more most much every each other same these those being does
        """
    )
)
_SIMILAR = 0.6


@dataclass(frozen=True)
class ExtractiveBudget:
    """How long an extractive draft may be, and how many chapter segments it must cover."""

    zh_chars: int = 400
    en_words: int = 300
    segments: int = 3
    min_zh_chars: int = 8  # shorter sentences ("是。") are candidates only if nothing else is
    min_en_words: int = 5


def extractive_draft(text: str, language: str, budget: ExtractiveBudget | None = None) -> str:
    """Key sentences of `text` in original order, within the budget for `language`."""
    budget = budget or ExtractiveBudget()
    zh = language == "zh"
    sentences = split_sentences(text, "zh" if zh else "en")
    if not sentences:
        return ""
    limit = budget.zh_chars if zh else budget.en_words
    sizes = [_size(s, zh) for s in sentences]
    terms = [_terms(s, zh) for s in sentences]
    scores = _scores(terms)
    minimum = budget.min_zh_chars if zh else budget.min_en_words
    candidates = [i for i, n in enumerate(sizes) if n >= minimum] or list(range(len(sentences)))
    ranked = sorted(candidates, key=lambda i: (-scores[i], i))

    chosen: list[int] = []
    used = 0

    def take(i: int) -> None:
        nonlocal used
        chosen.append(i)
        used += sizes[i]

    # Coverage first: the best sentence of each segment, beginning to end.
    segments = max(1, min(budget.segments, len(sentences)))
    for k in range(segments):
        low, high = k * len(sentences) // segments, (k + 1) * len(sentences) // segments
        best = next((i for i in ranked if low <= i < high), None)
        if best is not None and used + sizes[best] <= limit:
            take(best)
    for i in ranked:
        if i in chosen or used + sizes[i] > limit:
            continue
        if any(_jaccard(terms[i], terms[j]) > _SIMILAR for j in chosen):
            continue
        take(i)
    if not chosen:  # even the best sentence is over budget: cut it
        return _truncate(sentences[ranked[0]], limit, zh)
    return ("" if zh else " ").join(sentences[i] for i in sorted(chosen))


def _size(sentence: str, zh: bool) -> int:
    return len(re.sub(r"\s", "", sentence)) if zh else len(sentence.split())


def _terms(sentence: str, zh: bool) -> frozenset[str]:
    if zh:
        bigrams = (
            run[k : k + 2] for run in _CJK_RUN.findall(sentence) for k in range(len(run) - 1)
        )
        return frozenset(b for b in bigrams if not _ZH_STOP_CHARS.intersection(b))
    words = (w.lower().replace("’", "'") for w in _EN_WORD.findall(sentence))
    return frozenset(w for w in words if len(w) >= 3 and w not in _EN_STOP_WORDS)


def _scores(terms: list[frozenset[str]]) -> list[float]:
    document_frequency = Counter(t for sentence_terms in terms for t in sentence_terms)
    weight = {t: math.log(n) for t, n in document_frequency.items() if n >= 2}
    return [
        # Summed in sorted order: a set's order changes with the hash seed, and so would the
        # last bits of the sum, and with them the ranking of tied sentences between runs.
        sum(weight.get(t, 0.0) for t in sorted(sentence_terms))
        / math.sqrt(max(1, len(sentence_terms)))
        for sentence_terms in terms
    ]


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def _truncate(sentence: str, limit: int, zh: bool) -> str:
    if zh:
        return sentence[:limit] + "…"
    return " ".join(sentence.split()[:limit]) + " …"
