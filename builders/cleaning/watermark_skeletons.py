"""Disguised site watermarks and their skeletons: what is left of a watermark once its
disguise is taken off.

Sites stamp their name into the running text and disguise it against search-and-replace:
`（奇*书*网^.^整*理*提*供）`, `ｗωｗ奇Qisuu書com网`, `|奇-_-书^_^网|`, `SJTXT小说下载网+sjtxt.Com`,
printed with other separators each time. Its *skeleton* is the same every time: the
letters, digits and ideographs after folding width (NFKC), look-alikes (`ω` -> `w`),
case and script (traditional -> simplified), with every separator dropped
(`奇书网整理提供`, `www奇qisuu书com网`).

In Chinese text a watermark shows as a *cluster*: marks a Chinese sentence never holds
(Latin letters and digits of either width, Greek look-alikes, symbols such as `*^|_+~`)
with at most `MAX_GAP` other characters between them, none a Chinese stop. A cluster is
*disguised* when a symbol separates its letters, or it mixes look-alikes (Greek or
full-width beside plain letters), or its skeleton holds a web word (`www`, `com`, `txt`);
`T恤`, `CEO的助理` and `1998年3月` are not. Learning and removal: `watermarks.py`;
the audit's `watermark` class: `audit/detectors/watermarks.py`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from lengthwise.builders.cleaning.script_fold import fold
from lengthwise.builders.cleaning.site_terms import has_site_term
from lengthwise.text.numerals import DIGIT_CLASS

MAX_GAP = 3  # characters between two marks of one cluster
# Look-alikes of Latin letters (Greek and Cyrillic), after NFKC and lowercasing.
LOOK_ALIKES = str.maketrans("ωοαντικρχυеаорсхуі", "woavtikpxyeaopcxyi")
WEB_WORDS = ("www", "http", "com", "net", "org", "txt")
# What a Chinese sentence never holds between its ideographs: letters and digits (either
# width), Greek and Cyrillic letters, symbols. Chinese punctuation (，。！？：；（）) is not one.
_MARK = re.compile(
    rf"[A-Za-zａ-ｚＡ-Ｚ{DIGIT_CLASS}\u0370-\u03ff\u0400-\u04ff"
    r"*^|_+~#@$%&=<>/\\＊＾｜＿＋～＃＠＄％＆＝＜＞／＼☆★◎※∷♂•-]"
)
_STOPS = "。！？；，、：\n"
_OPENERS, _CLOSERS = "（(【[〔|｜", "）)】]〕|｜"
_LATIN = re.compile(r"[A-Za-z]")
# A symbol between an ideograph and a letter or ideograph (`奇*书`, `网+sjtxt`): a hyphen
# inside a Latin word (`T-shirt`) or between digits (`3-5`) is no disguise.
# The symbols sites separate a watermark's characters with.
DISGUISE_SYMBOLS = "-*^|_+~#@$%&=<>/\\.＊＾｜＿＋～＃＠＄％＆＝＜＞／＼☆★◎※∷♂•·"
_DISGUISE = f"[{re.escape(DISGUISE_SYMBOLS)}]"
_SEPARATED_IDEOGRAPH = re.compile(
    rf"[\u3400-\u9fff]{_DISGUISE}+[^\W_]|[^\W_]{_DISGUISE}+[\u3400-\u9fff]"
)
# A letter, then a separator before the next one: `b.` in `b.i.q.u.g.e`.
_SPELLED_OUT = re.compile(rf"[^\W\d_](?={_DISGUISE}+[^\W\d_](?:[^\w]|_|$))")
SPELLED_OUT_LETTERS = 5
_LOOK_ALIKE_CHARS = re.compile(r"[\u0370-\u03ff\u0400-\u04ffａ-ｚＡ-Ｚ]")


def skeleton(text: str) -> str:
    """`text` without its disguise: NFKC, lowercase, look-alikes and script folded, and
    only letters, digits and ideographs kept."""
    folded = fold(unicodedata.normalize("NFKC", text).lower().translate(LOOK_ALIKES))
    return "".join(char for char in folded if char.isalnum())


def has_web_word(skeleton_text: str) -> bool:
    """Whether a skeleton holds `www`, `com`, `txt` or another web word."""
    return any(word in skeleton_text for word in WEB_WORDS)


@dataclass(frozen=True)
class Cluster:
    """A run of marks in Chinese text, with its skeleton and whether it is disguised."""

    start: int
    end: int
    text: str
    skeleton: str
    disguised: bool

    @property
    def names_a_site(self) -> bool:
        """Its skeleton holds a web word or a site word (`www`, `小说网`, `下载`)."""
        return has_web_word(self.skeleton) or has_site_term(self.skeleton)


def clusters(text: str) -> list[Cluster]:
    """The clusters of marks in `text` (a CJK text), each widened to an enclosing bracket
    pair or frame that holds nothing else."""
    found: list[Cluster] = []
    start = end = -1
    for match in _MARK.finditer(text):
        at = match.start()
        if start >= 0 and at - end <= MAX_GAP and not any(c in _STOPS for c in text[end:at]):
            end = at + 1
            continue
        if start >= 0:
            found.append(_cluster(text, start, end))
        start, end = at, at + 1
    if start >= 0:
        found.append(_cluster(text, start, end))
    return [c for c in found if c.skeleton]


def _cluster(text: str, start: int, end: int) -> Cluster:
    if (
        start > 0
        and end < len(text)
        and text[start - 1] in _OPENERS
        and text[end] == _CLOSERS[_OPENERS.index(text[start - 1])]
    ):
        start, end = start - 1, end + 1
    printed = text[start:end]
    bare = skeleton(printed)
    separated = _SEPARATED_IDEOGRAPH.search(printed) is not None or (
        len(_SPELLED_OUT.findall(printed)) >= SPELLED_OUT_LETTERS - 1
    )
    mixed = _LOOK_ALIKE_CHARS.search(printed) is not None and _LATIN.search(printed) is not None
    return Cluster(start, end, printed, bare, separated or mixed or has_web_word(bare))
