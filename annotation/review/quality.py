"""Quality checks run on every pulled annotation.

Flags (one name each, counted in `annotate status` and the pull report):
- ``over_limit``: longer than the subset's limit (characters for Chinese, words else);
- ``not_rewritten``: the share of the summary's 4-grams found in the drafts exceeds
  ``annotation.max_copied_share`` (annotators must merge *and rewrite*);
- ``commentary``: contains flag words of opinion or meta talk ("本文", "the author",
  "I think", ...) instead of plot; the built-in lists are extended by the spec;
- ``empty``: a submitted annotation with no summary text;
- ``cancelled``: the annotator skipped the task.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lengthwise.annotation.review.measure import count_units, is_chinese, ngram_units, ngrams

COPY_NGRAM = 4

FLAG_OVER_LIMIT = "over_limit"
FLAG_NOT_REWRITTEN = "not_rewritten"
FLAG_COMMENTARY = "commentary"
FLAG_EMPTY = "empty"
FLAG_CANCELLED = "cancelled"
ALL_FLAGS = (FLAG_OVER_LIMIT, FLAG_NOT_REWRITTEN, FLAG_COMMENTARY, FLAG_EMPTY, FLAG_CANCELLED)

# Opinion, evaluation and meta talk that a plot summary should not contain.
COMMENTARY_ZH = (
    "本文",
    "本书",
    "本章",
    "本回",
    "这部小说",
    "该小说",
    "这本书",
    "作者",
    "笔者",
    "我认为",
    "我觉得",
    "在我看来",
    "个人认为",
    "读者",
    "引人深思",
    "发人深省",
    "令人感动",
    "体现了",
    "揭示了",
    "反映了",
)
COMMENTARY_EN = (
    "this novel",
    "the novel",
    "this book",
    "this chapter",
    "the author",
    "the writer",
    "the reader",
    "readers",
    "i think",
    "i believe",
    "i feel",
    "in my opinion",
    "in my view",
    "personally",
    "beautifully written",
    "thought-provoking",
    "masterful",
    "the story explores",
    "themes of",
)


@dataclass(frozen=True)
class QualitySettings:
    max_copied_share: float = 0.5
    commentary_zh: tuple[str, ...] = COMMENTARY_ZH
    commentary_en: tuple[str, ...] = COMMENTARY_EN

    @staticmethod
    def from_lists(
        max_copied_share: float, extra_zh: Iterable[str] = (), extra_en: Iterable[str] = ()
    ) -> QualitySettings:
        """Built-in flag words plus a spec's extra ones (duplicates dropped)."""
        return QualitySettings(
            max_copied_share=max_copied_share,
            commentary_zh=tuple(dict.fromkeys([*COMMENTARY_ZH, *extra_zh])),
            commentary_en=tuple(dict.fromkeys([*COMMENTARY_EN, *(w.lower() for w in extra_en)])),
        )


@dataclass(frozen=True)
class QualityReport:
    flags: tuple[str, ...]
    units: int  # summary length in the limit unit
    limit: int
    copied_share: float | None  # None when the summary has fewer than COPY_NGRAM units
    commentary_hits: tuple[str, ...] = field(default_factory=tuple)


def copied_share(
    summary: str, drafts: Sequence[str], language: str, n: int = COPY_NGRAM
) -> float | None:
    """Share of the summary's n-grams (by occurrence) that also occur in any draft."""
    grams = ngrams(ngram_units(summary, language), n)
    if not grams:
        return None
    seen: set[tuple[str, ...]] = set()
    for draft in drafts:
        seen.update(ngrams(ngram_units(draft, language), n))
    return sum(1 for g in grams if g in seen) / len(grams)


def commentary_hits(summary: str, language: str, settings: QualitySettings) -> tuple[str, ...]:
    """The flag words found in the summary, in list order."""
    if is_chinese(language):
        return tuple(w for w in settings.commentary_zh if w and w in summary)
    lowered = summary.lower()
    hits = []
    for phrase in settings.commentary_en:
        pattern = r"(?<![\w])" + re.escape(phrase) + r"(?![\w])"
        if phrase and re.search(pattern, lowered):
            hits.append(phrase)
    return tuple(hits)


def check_summary(
    summary: str | None,
    *,
    drafts: Sequence[str],
    language: str,
    limit: int,
    settings: QualitySettings,
    cancelled: bool = False,
) -> QualityReport:
    """All quality flags of one annotation's summary."""
    text = (summary or "").strip()
    if cancelled:
        return QualityReport((FLAG_CANCELLED,), count_units(text, language), limit, None)
    if not text:
        return QualityReport((FLAG_EMPTY,), 0, limit, None)
    flags = []
    units = count_units(text, language)
    if units > limit:
        flags.append(FLAG_OVER_LIMIT)
    share = copied_share(text, drafts, language)
    if share is not None and share > settings.max_copied_share:
        flags.append(FLAG_NOT_REWRITTEN)
    hits = commentary_hits(text, language, settings)
    if hits:
        flags.append(FLAG_COMMENTARY)
    return QualityReport(tuple(flags), units, limit, share, hits)
