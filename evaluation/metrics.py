"""Per-sample metrics. `rouge_l` is the score the evaluator reports (x100 in tables).

- Chinese: CNNSum's scorer, so numbers are comparable with its tables: jieba
  segmentation joined by spaces, then the `rouge` package (1.0.1) ROUGE-L F
  (``get_scores(...)[0]["rouge-l"]["f"]``), an empty or all-dots answer scoring 0.
  That is the summary-level union-LCS variant, not plain LCS F1 (see
  lengthwise.text.rouge for the difference).
- English: rouge-score's ``rougeL`` F1 with its default tokenizer (lower case, runs of
  [a-z0-9]) and no stemming, the usual choice in English summarisation papers;
  lengthwise.text.rouge.rouge_l_f1 reproduces it exactly.

Other metrics plug in with `register_metric(name, function)`; a metric takes
(prediction, reference, language) and returns a float in [0, 1].
"""

from __future__ import annotations

from collections.abc import Callable

from lengthwise.errors import UserError
from lengthwise.text.rouge import rouge_l_cnnsum, rouge_l_f1

Metric = Callable[[str, str, str], float]
SUPPORTED_LANGUAGES = ("zh", "en")


def rouge_l(prediction: str, reference: str, lang: str) -> float:
    """ROUGE-L F1 in [0, 1]: CNNSum's scorer for ``zh``, rouge-score ``rougeL`` for ``en``.

    An empty reference is a ValueError (it cannot be scored); an empty prediction is 0.
    """
    if not reference.strip():
        raise ValueError("reference is empty; ROUGE-L is undefined")
    if lang == "zh":
        return rouge_l_cnnsum(prediction, reference, "zh")
    if lang == "en":
        return rouge_l_f1(prediction, reference, "en")
    raise UserError(
        f"no ROUGE-L tokenizer for language {lang!r} (supported: {', '.join(SUPPORTED_LANGUAGES)})"
    )


def rouge_l_describe() -> dict[str, str]:
    """How `rouge_l` scores each language, for results.json."""
    return {
        "zh": "jieba + rouge==1.0.1 ROUGE-L F (CNNSum's scorer)",
        "en": "rouge-score rougeL F1, default tokenizer, no stemming",
    }


_METRICS: dict[str, Metric] = {"rouge-l": rouge_l}


def register_metric(name: str, metric: Metric) -> None:
    """Make `metric` selectable by name (``lengthwise eval --metric NAME``)."""
    _METRICS[name] = metric


def get_metric(name: str) -> Metric:
    try:
        return _METRICS[name]
    except KeyError:
        raise UserError(f"unknown metric {name!r} (known: {sorted(_METRICS)})") from None


def metric_names() -> list[str]:
    return sorted(_METRICS)
