"""No-model baselines of the answer families (needles, qa): position and type priors.

They answer with one sentence of the context (or a fixed answer) and are scored the way
the evaluator scores without a judge: an accepted answer, normalised, inside the
baseline's answer, or a token F1 of at least 0.5 (needles); token F1 (qa, extractive
and abstractive), the yes/no word (yes-no), a refusal (unanswerable). The builders do
not import the evaluator (areas depend downstream only), so the few lines of answer
normalisation are repeated here.
"""

from __future__ import annotations

import math
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

from lengthwise.storage import canonical_hash
from lengthwise.task_records import TaskInstance
from lengthwise.text import sentences

NEEDLE_F1 = 0.5
RANDOM_SENTENCES = 60  # sentences drawn for the random guess's expectation
_ARTICLES = re.compile(r"\b(?:a|an|the)\b")
_EN_WORD = re.compile(r"[a-z0-9]+")
_NAME = re.compile(r"(?<![.!?]\s)\b[A-Z][a-z]{2,}\b")
_HAN_PAIR = re.compile(r"[\u4e00-\u9fff]{2}")
_YES = ("yes", "是", "对")
_NO = ("no", "否", "不")


def _normalise(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    bare = "".join(" " if unicodedata.category(c)[0] in "PS" else c for c in folded)
    return " ".join(_ARTICLES.sub(" ", bare).split())


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for word in _normalise(text).split():
        if any("\u3400" <= c <= "\u9fff" for c in word):
            out.extend(word)
        else:
            out.append(word)
    return out


def token_f1(prediction: str, reference: str) -> float:
    """SQuAD-style token F1 (English words, Chinese characters)."""
    predicted, wanted = _tokens(prediction), _tokens(reference)
    if not predicted or not wanted:
        return float(predicted == wanted)
    common = sum((Counter(predicted) & Counter(wanted)).values())
    if not common:
        return 0.0
    precision, recall = common / len(predicted), common / len(wanted)
    return 2 * precision * recall / (precision + recall)


def needle_correct(prediction: str, answers: Sequence[str]) -> bool:
    found = _normalise(prediction)
    if any((wanted := _normalise(a)) and wanted in found for a in answers):
        return True
    return max((token_f1(prediction, a) for a in answers), default=0.0) >= NEEDLE_F1


def _units(text: str, language: str) -> set[str]:
    if language == "zh":
        han = "".join(c for c in text if "\u3400" <= c <= "\u9fff")
        return {han[i : i + 2] for i in range(len(han) - 1)}
    return {w for w in _EN_WORD.findall(_normalise(text)) if len(w) > 3}


def most_like(question: str, text: str, language: str) -> str:
    """The sentence of `text` sharing most units with the question ("" when none)."""
    wanted = _units(question, language)
    best, best_score = "", 0.0
    for sentence in sentences(text, language):
        have = _units(sentence, language)
        if have and wanted:
            score = len(have & wanted) / math.sqrt(len(have))
            if score > best_score:
                best, best_score = sentence, score
    return best


def needle_prior(instance: TaskInstance, low: float, high: float) -> float:
    """1 when the sentence most like the question in [low, high] of the context holds
    an accepted answer."""
    size = len(instance.context)
    window = instance.context[int(low * size) : int(high * size)]
    guess = most_like(instance.question, window, instance.language)
    return float(bool(guess) and needle_correct(guess, instance.answers))


def _sample(instance: TaskInstance) -> list[str]:
    found = sentences(instance.context, instance.language)
    rng = random.Random(canonical_hash(["shortcut-random", instance.id]))
    return rng.sample(found, min(RANDOM_SENTENCES, len(found)))


def random_needle_sentence(instance: TaskInstance, _: Sequence[TaskInstance]) -> float:
    """The share of randomly drawn context sentences holding an accepted answer."""
    drawn = _sample(instance)
    return sum(needle_correct(s, instance.answers) for s in drawn) / len(drawn) if drawn else 0.0


def _yes_no(text: str) -> str | None:
    start = _normalise(text)
    if start.startswith(_YES):
        return "yes"
    return "no" if start.startswith(_NO) else None


def _kind(instance: TaskInstance) -> str:
    return str(instance.details.get("kind") or "abstractive")


def answer_type_prior(instance: TaskInstance, instances: Sequence[TaskInstance]) -> float | None:
    """The answer a solver gives from the question's type alone (see the module)."""
    kind = _kind(instance)
    if kind == "unanswerable":
        return 1.0  # a refusal is always right: the kind's share is its prior
    if kind == "yes-no":
        said = Counter(
            _yes_no(i.answers[0]) for i in instances if _kind(i) == "yes-no" and i.answers
        )
        majority = max(sorted(k for k in said if k), key=lambda k: said[k], default="yes")
        return float(bool(instance.answers) and _yes_no(instance.answers[0]) == majority)
    pattern = _HAN_PAIR if instance.language == "zh" else _NAME
    common = Counter(pattern.findall(instance.context)).most_common(1)
    guess = common[0][0] if common else ""
    return max((token_f1(guess, a) for a in instance.answers), default=0.0)


def random_qa_answer(instance: TaskInstance, _: Sequence[TaskInstance]) -> float | None:
    """A random sentence's expected score (a random yes/no for yes-no questions)."""
    kind = _kind(instance)
    if kind == "yes-no":
        return 0.5
    if kind == "unanswerable":
        return 0.0  # a random sentence is no refusal
    drawn = _sample(instance)
    scores = [max((token_f1(s, a) for a in instance.answers), default=0.0) for s in drawn]
    return sum(scores) / len(scores) if scores else 0.0
