"""Reading and comparing short answers: normalisation, token F1, label orders, name sets.

Shared by the task families' parsers and scorers (lengthwise.evaluation.tasks).

- `normalise`: NFKC, case-folded, punctuation (ASCII and CJK) and English articles
  dropped, whitespace collapsed: SQuAD's answer normalisation, extended to Chinese.
- `answer_tokens`: the units token F1 counts: English words, Chinese characters (the
  usual choice for Chinese reading-comprehension F1, which avoids a segmenter).
- `read_labels`: the order of segment labels in an answer ("[2] [1] [4] [3]", "2,1,4,3",
  "B A D C"), readable only when every label appears.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from lengthwise.text.lcs import lcs_length

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_LIST_MARKER = re.compile(r"^\s*(?:[-*•·]|\(?\d+[.)、:]|\[\d+\])\s*")
# Separators between the items of a list answer (names): newlines, commas, semicolons,
# the Chinese enumeration comma, slashes.
_ITEM_SEPARATORS = re.compile(r"[\n,;，；、/|]+")


def strip_punctuation(text: str) -> str:
    return "".join(" " if unicodedata.category(ch).startswith(("P", "S")) else ch for ch in text)


def normalise(text: str) -> str:
    """Lower case, no punctuation, no English articles, single spaces (NFKC first)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(_ARTICLES.sub(" ", strip_punctuation(folded)).split())


def _is_cjk(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


def answer_tokens(text: str) -> list[str]:
    """Words of the normalised text, each CJK character a token of its own."""
    tokens: list[str] = []
    for word in normalise(text).split():
        run = ""
        for ch in word:
            if _is_cjk(ch):
                if run:
                    tokens.append(run)
                    run = ""
                tokens.append(ch)
            else:
                run += ch
        if run:
            tokens.append(run)
    return tokens


def token_f1(prediction: str, reference: str) -> float:
    """SQuAD-style token F1 in [0, 1] (both empty: 1; one empty: 0)."""
    predicted, wanted = answer_tokens(prediction), answer_tokens(reference)
    if not predicted or not wanted:
        return float(predicted == wanted)
    common = sum((Counter(predicted) & Counter(wanted)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted), common / len(wanted)
    return 2 * precision * recall / (precision + recall)


def best_token_f1(prediction: str, references: Iterable[str]) -> float:
    return max((token_f1(prediction, r) for r in references), default=0.0)


def contains_answer(prediction: str, references: Iterable[str]) -> bool:
    """Some reference, normalised, occurs inside the normalised prediction."""
    found = normalise(prediction)
    return any((wanted := normalise(r)) and wanted in found for r in references)


def label_key(label: str) -> str:
    """'[3]' -> '3', '(B)' -> 'b': what a label looks like once brackets are gone (no
    article removal: 'A' is a label here)."""
    folded = unicodedata.normalize("NFKC", label).casefold()
    return "".join(strip_punctuation(folded).split())


def natural_order(labels: Iterable[str]) -> list[str]:
    """Labels sorted as shown (numbers by value, then letters)."""

    def key(label: str) -> tuple[int, int, str]:
        bare = label_key(label)
        return (0, int(bare), "") if bare.isdigit() else (1, 0, bare)

    return sorted(labels, key=key)


# Connecting words an order may have between its labels ("B, then A, and D"), and the
# names of what is ordered ("Segment B", "片段B"): neither ends a run of labels.
_CONNECTORS = frozenset(
    ("then", "and", "followed", "by", "next", "after", "that", "finally", "last", "lastly",
     "first", "segment", "segments", "synopsis", "synopses", "part", "parts", "label",
     "labels")
)  # fmt: skip
_ZH_CONNECTORS = re.compile(
    r"(?:然后|接着|之后|其次|再|最后|首先|片段|概要|标签|和|与|及|是|为|依次)+"
)
# A text's pieces: ASCII words and numbers (labels are among them), runs of other word
# characters (a Chinese phrase), and everything else (separators).
_PIECE = re.compile(r"([A-Za-z0-9]+)|([^\W_A-Za-z0-9]+)")


def _label_runs(text: str, wanted: Mapping[str, str]) -> list[list[str]]:
    """Maximal runs of labels in one line that only separators and connecting words
    divide."""
    joined = all(len(key) == 1 for key in wanted)  # "BADC": one label per character
    runs: list[list[str]] = [[]]
    for match in _PIECE.finditer(unicodedata.normalize("NFKC", text)):
        word, other = match.group(1), match.group(2)
        key = (word or other).casefold()
        if word is not None and key in wanted:
            runs[-1].append(wanted[key])
        elif word is not None and joined and len(key) == len(wanted) and set(key) == set(wanted):
            runs[-1].extend(wanted[ch] for ch in key)
        elif key in _CONNECTORS or (other is not None and _ZH_CONNECTORS.fullmatch(key)):
            continue
        elif runs[-1]:
            runs.append([])
    return [run for run in runs if run]


def _single_mentions(text: str, wanted: Mapping[str, str]) -> list[str] | None:
    """Every label mentioned exactly once in `text`, in that order ("B comes first, then
    A ..."); None otherwise."""
    mentions = [
        wanted[k]
        for w in _PIECE.findall(unicodedata.normalize("NFKC", text))
        if (k := w[0].casefold()) in wanted
    ]
    if len(mentions) == len(wanted) and len(set(mentions)) == len(wanted):
        return mentions
    return None


def read_labels(text: str, labels: Sequence[str]) -> list[str] | None:
    """The labels in the order the answer gives them, or None when no full order can be
    read. An order is a run of labels divided only by separators or connecting words
    ("B, A, D, C", "B -> A -> D -> C", "b then a then d then c", "BADC" when every label is
    one letter), holding every label once; the last such run is read (models reason
    first and answer last), so an article or a word before the order ("A close reading
    gives B, A, D, C.") is no label. Without one, the last line mentioning every label
    exactly once is read in that order."""
    wanted = {label_key(label): label for label in labels}
    runs = [
        run
        for line in text.splitlines()
        for run in _label_runs(line, wanted)
        if _is_order(run, wanted)
    ]
    if runs:
        return runs[-1]
    for line in reversed(text.splitlines()):
        order = _single_mentions(line, wanted)
        if order is not None:
            return order
    return None


def _is_order(run: Sequence[str], wanted: Mapping[str, str]) -> bool:
    return len(run) == len(wanted) and set(run) == set(wanted.values())


def kendall_tau(predicted: Sequence[str], reference: Sequence[str]) -> float:
    """Kendall's tau between two orders of the same items, in [-1, 1]."""
    position = {item: index for index, item in enumerate(predicted)}
    ranks = [position[item] for item in reference]
    n = len(ranks)
    if n < 2:
        return 1.0
    concordant = sum(1 if ranks[i] < ranks[j] else -1 for i in range(n) for j in range(i + 1, n))
    return concordant / (n * (n - 1) / 2)


def lcs_ratio(predicted: Sequence[str], reference: Sequence[str]) -> float:
    """Longest common subsequence of the two orders over the reference's length."""
    return lcs_length(list(predicted), list(reference)) / len(reference) if reference else 0.0


def read_items(text: str) -> list[str]:
    """The items of a list answer (one per line or separated by commas), list markers off."""
    items = (_LIST_MARKER.sub("", part).strip() for part in _ITEM_SEPARATORS.split(text))
    return [item for item in items if item]


def name_set(names: Iterable[str]) -> set[str]:
    """Normalised names, spaces removed (so 'Mr. Darcy' and 'mr darcy' are one name)."""
    return {key for name in names if (key := normalise(name).replace(" ", ""))}


def set_f1(predicted: set[str], reference: set[str]) -> float:
    if not predicted or not reference:
        return float(predicted == reference)
    common = len(predicted & reference)
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted), common / len(reference)
    return 2 * precision * recall / (precision + recall)
