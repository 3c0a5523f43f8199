"""ROUGE for Chinese and English: the CNNSum scorer, and plain LCS-based ROUGE-L.

Two different numbers are both called "ROUGE-L" in the literature:

- `rouge_l_cnnsum`: what CNNSum (and LongBench, whose ``rouge_zh_score`` it uses)
  report. Chinese is cut with jieba and joined by spaces, then scored by the `rouge`
  package 1.0.1 (``Rouge().get_scores(hyp, ref)[0]["rouge-l"]["f"]``). That score is
  the summary-level union-LCS variant, with sentences split at "." and the word
  counts m and n taken over *distinct* tokens, so it differs from plain LCS F1 as
  soon as tokens repeat. Use it to compare with CNNSum's tables.
- `rouge_l_f1`: the plain LCS F1 of Lin (2004) on token lists, what `rouge-score`'s
  ``rougeL`` computes. For English it reproduces rouge-score exactly (same tokenizer:
  lowercase, every run of characters outside [a-z0-9] is a separator, optional Porter
  stemming of tokens longer than 3 characters). For Chinese it uses jieba words (see
  lengthwise.text.segment), never rouge-score's tokenizer, which drops every CJK
  character and scores all Chinese 0. Used for redundancy and annotator agreement.

English under CNNSum's scorer: CNNSum has no English data; its scorer's English branch
is LongBench's ``rouge_score``, the same `rouge` package call on the raw text (no jieba,
no lowercasing; words are whitespace-separated, punctuation other than "." stays
attached to words). `rouge_l_cnnsum(..., "en")` does exactly that, so English numbers
are comparable with LongBench-style reports; for comparisons with the English
summarisation literature use `rouge_l_f1` (rouge-score compatible).
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lengthwise.text.lcs import lcs_length
from lengthwise.text.segment import Segmenter, cut_zh, words

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_VALID_TOKEN = re.compile(r"^[a-z0-9]+$")
_RECURSION_LOCK = threading.Lock()


@dataclass(frozen=True)
class RougeScore:
    precision: float
    recall: float
    f1: float


def _fmeasure(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


@functools.cache
def _porter_stem() -> Any:
    # nltk comes with rouge-score; its Porter stemmer (NLTK extensions mode) is the one
    # rouge-score uses, so stemmed English scores agree with rouge-score.
    porter = importlib.import_module("nltk.stem.porter")
    return functools.lru_cache(maxsize=100_000)(porter.PorterStemmer().stem)


def rouge_tokens(
    text: str, lang: str, *, stem: bool = False, segmenter: Segmenter = "jieba"
) -> list[str]:
    """The tokens ROUGE compares: rouge-score's for English, jieba words for Chinese.

    `stem` applies the Porter stemmer to English tokens longer than 3 characters, as
    rouge-score's ``use_stemmer=True``; it has no effect on Chinese.
    """
    if lang == "en":
        tokens = _NON_ALNUM.sub(" ", text.lower()).split()
        if stem:
            stemmer = _porter_stem()
            tokens = [stemmer(t) if len(t) > 3 else t for t in tokens]
        return [t for t in tokens if _VALID_TOKEN.match(t)]
    return words(text, lang, segmenter=segmenter)


def rouge_l_tokens(prediction: Sequence[str], reference: Sequence[str]) -> RougeScore:
    """Plain LCS ROUGE-L of two token lists (0 when either is empty)."""
    if not prediction or not reference:
        return RougeScore(0.0, 0.0, 0.0)
    lcs = lcs_length(prediction, reference)
    precision, recall = lcs / len(prediction), lcs / len(reference)
    return RougeScore(precision, recall, _fmeasure(precision, recall))


def rouge_l(prediction: str, reference: str, lang: str, *, stem: bool = False) -> RougeScore:
    """Plain LCS ROUGE-L precision, recall and F1 (rouge-score's ``rougeL``)."""
    return rouge_l_tokens(
        rouge_tokens(prediction, lang, stem=stem), rouge_tokens(reference, lang, stem=stem)
    )


def rouge_l_f1(prediction: str, reference: str, lang: str, *, stem: bool = False) -> float:
    """Plain LCS ROUGE-L F1 in [0, 1]; symmetric in its two texts."""
    return rouge_l(prediction, reference, lang, stem=stem).f1


def rouge_n(
    prediction: str, reference: str, lang: str, n: int, *, stem: bool = False
) -> RougeScore:
    """ROUGE-N with clipped n-gram counts (rouge-score's ``rouge1``/``rouge2``...)."""
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")

    def grams(tokens: list[str]) -> Counter[tuple[str, ...]]:
        return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))

    pred = grams(rouge_tokens(prediction, lang, stem=stem))
    ref = grams(rouge_tokens(reference, lang, stem=stem))
    overlap = sum((pred & ref).values())
    precision = overlap / max(sum(pred.values()), 1)
    recall = overlap / max(sum(ref.values()), 1)
    return RougeScore(precision, recall, _fmeasure(precision, recall))


@functools.cache
def _rouge_package() -> Any:
    # The `rouge` package (pltrdy, 1.0.1). rouge-chinese ships a module of the same name
    # that silently replaces it and changes scores: refuse to run on that.
    module = importlib.import_module("rouge")
    rouge_class = module.Rouge
    if "rouge_chinese" in (getattr(module, "__file__", "") or "") or not hasattr(
        rouge_class, "AVAILABLE_METRICS"
    ):
        raise RuntimeError(
            "the installed `rouge` module is not the `rouge` 1.0.1 package (rouge-chinese "
            "overwrites it); reinstall with `pip install --force-reinstall rouge==1.0.1`"
        )
    return rouge_class(metrics=["rouge-l"])


def _package_sentences(text: str) -> list[str]:
    """How the `rouge` package splits a text into sentences (at '.', empty pieces dropped)."""
    return [" ".join(piece.split()) for piece in text.split(".") if len(piece) > 0]


def _jieba_joined(text: str) -> str:
    return " ".join(cut_zh(text, "jieba"))


def rouge_l_cnnsum(prediction: str, reference: str, lang: str) -> float:
    """CNNSum's ROUGE-L F in [0, 1]: jieba (zh) + the `rouge` package's ROUGE-L.

    An empty or all-dots prediction scores 0.0, as in CNNSum. An empty reference is a
    ValueError (a benchmark reference must not be empty). The package reconstructs the
    LCS recursively; the recursion limit is raised for the call and restored after.
    """
    if lang == "zh":
        hyp, ref = _jieba_joined(prediction), _jieba_joined(reference)
    elif lang == "en":
        hyp, ref = prediction, reference
    else:
        raise ValueError(f"unsupported language {lang!r} (expected 'zh' or 'en')")
    if not _package_sentences(ref):
        raise ValueError("reference is empty (or only dots); ROUGE-L is undefined")
    if not _package_sentences(hyp):
        return 0.0
    scorer = _rouge_package()
    # The LCS reconstruction recurses once per step back through the table: up to the
    # two sentences' word counts added together.
    depth = len(hyp.split()) + len(ref.split()) + 1_000
    with _RECURSION_LOCK:
        previous = sys.getrecursionlimit()
        sys.setrecursionlimit(max(previous, depth))
        try:
            scores = scorer.get_scores(hyp, ref)
        finally:
            sys.setrecursionlimit(previous)
    return float(scores[0]["rouge-l"]["f"])
