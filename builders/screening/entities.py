"""Names in a probe output that the chapter never mentions (a sign of recall from memory).

A faithful summary of one chapter names only people and places of that chapter. A model
that knows the book tends to bring in names from elsewhere in it. Heuristic:

- English: runs of capitalised words ("Captain Ahab", "Queequeg"). A one-word run at the
  start of a sentence counts only if the same word is also capitalised mid-sentence
  somewhere in the output (otherwise it is just a capitalised first word); leading
  function words ("The", "When") are dropped; a trailing possessive "'s" is dropped.
  A name is supported when any of its words other than titles ("Mr", "Captain", ...)
  occurs in the chapter text (case-insensitive), so "Elizabeth Bennet" is supported
  by a chapter that says "Elizabeth".
- Chinese: jieba part-of-speech tags for names (nr, nrfg, nrt: people; ns: places;
  nt: organisations; nz: other proper nouns) of 2+ characters, plus anything in 《》.
  A name is supported when it occurs in the chapter text, or (3+ characters) when its
  last two or all but its first character do ("贾宝玉" is supported by "宝玉").

What this cannot see: invented events that bring no new names, and new names that
jieba does not tag. The decision thresholds are in `lengthwise.builders.screening.decision`.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cache


def _split_words(text: str) -> list[str]:
    return text.split()


_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")
_SENTENCE_END = re.compile(r"[.!?]")
_BOOK_TITLE = re.compile(r"《([^《》]{1,30})》")
_ZH_NAME_TAGS = frozenset({"nr", "nrfg", "nrt", "ns", "nt", "nz"})
_TITLES = frozenset(
    _split_words(
        """
    mr mrs ms miss dr sir lady lord captain capt king queen prince princess count countess
    duke duchess uncle aunt master madame monsieur mademoiselle general colonel major saint
    st father mother brother sister old young little
        """
    )
)
_FUNCTION_WORDS = frozenset(
    _split_words(
        """
    the a an and but or so then when while after before as at in on of to for from with by
    he she it they we you i his her its their our your this that these those there here
    meanwhile however later finally first next also suddenly soon yet still chapter part
    book summary synopsis overall ultimately eventually what who where why how if once
        """
    )
)


@dataclass(frozen=True)
class NameCheck:
    names: list[str]  # distinct names in the output, in order of first appearance
    unsupported: list[str]  # those the chapter text does not support


def check_names(output: str, chapter_text: str, language: str, ignore: list[str]) -> NameCheck:
    """Names in `output` and which of them `chapter_text` does not support.

    `ignore` holds names reported elsewhere (the book's title and author).
    """
    if language == "zh":
        names = _zh_names(output)
        supported = _zh_supported
    else:
        names = _en_names(output)
        supported = _en_supported
    skip = {n.casefold() for n in ignore}
    names = [n for n in names if n.casefold() not in skip]
    return NameCheck(names=names, unsupported=[n for n in names if not supported(n, chapter_text)])


def _en_names(output: str) -> list[str]:
    runs: list[tuple[list[str], bool]] = []  # capitalised words, "starts a sentence"
    current: list[str] = []
    previous: re.Match[str] | None = None
    for match in _WORD.finditer(output):
        word = match.group(0)
        gap = output[previous.end() if previous else 0 : match.start()]
        after_title = previous is not None and previous.group(0).lower() in _TITLES
        initial = previous is None or "\n" in gap or bool(_SENTENCE_END.search(gap))
        initial = initial and not after_title  # "Mr. Darcy": the stop is no sentence end
        capitalised = word[0].isupper() and word != "I"
        if current and capitalised and (gap.strip() == "" or after_title):
            current.append(word)
        elif capitalised:
            current = [word]
            runs.append((current, initial))
        else:
            current = []
        previous = match
    mid_sentence = {w for words, initial in runs for w in words[1 if initial else 0 :]}
    names: list[str] = []
    for words, initial in runs:
        if len(words) == 1 and initial and words[0] not in mid_sentence:
            continue  # a capitalised first word of a sentence, nothing more
        kept = list(words)
        while kept and kept[0].lower() in _FUNCTION_WORDS:
            kept.pop(0)
        if not kept or all(w.lower().rstrip(".") in _TITLES for w in kept):
            continue
        name = re.sub(r"['’]s$", "", " ".join(kept))
        if name not in names:
            names.append(name)
    # "Ahab" next to "Captain Ahab" is one name, not two.
    word_sets = [set(n.split()) for n in names]
    return [
        n
        for n, words in zip(names, word_sets, strict=True)
        if not any(words < other for other in word_sets)
    ]


def _en_supported(name: str, chapter_text: str) -> bool:
    chapter_words = _chapter_words(chapter_text)
    core = [w.lower() for w in name.split() if w.lower().rstrip(".") not in _TITLES]
    return any(w in chapter_words for w in core) or not core


@cache
def _chapter_words(chapter_text: str) -> frozenset[str]:
    return frozenset(re.sub(r"['’]s$", "", w.lower()) for w in _WORD.findall(chapter_text))


def _zh_names(output: str) -> list[str]:
    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)  # it logs dictionary loading at INFO
    names: list[str] = []
    for match in _BOOK_TITLE.finditer(output):
        if match.group(1) not in names:
            names.append(match.group(1))
    for pair in jieba.posseg.cut(output):
        word, flag = pair.word.strip(), pair.flag
        if flag in _ZH_NAME_TAGS and len(word) >= 2 and word not in names:
            names.append(word)
    return names


def _zh_supported(name: str, chapter_text: str) -> bool:
    text = re.sub(r"\s", "", chapter_text)
    if name in text:
        return True
    return len(name) >= 3 and (name[1:] in text or name[-2:] in text)
