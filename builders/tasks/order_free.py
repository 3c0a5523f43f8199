"""A book's paragraphs in reading order with the clues to their position removed.

See `order_clues` for what is learned and removed; this module applies it chapter by
chapter and counts every removal by kind, so the build report can say how much text
the ordering family took out of each book.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from lengthwise.builders.tasks.order_clues import (
    CODA_SENTENCES,
    EDGE_PUNCTUATION,
    NON_WORD,
    WORD,
    OrderClues,
    closer_sizes,
    grams,
    is_numeral,
    learn_order_clues,
    normalise,
)
from lengthwise.records import Book, Chapter
from lengthwise.text import paragraphs, sentences

NUMBERING_LINE = "numbering or heading line"
NAMES_CHAPTER = "sentence naming a chapter"
CLOSING = "closing formula"
OPENING = "opening formula"


@dataclass(frozen=True)
class Paragraph:
    """One paragraph of the order-free text and the chapter (0-based index) it is from."""

    chapter: int
    text: str


class _Matcher:
    def __init__(self, clues: OrderClues) -> None:
        self.clues = clues
        escaped = [re.escape(s) for s in sorted(clues.inside, key=len, reverse=True)]
        if not escaped:
            self.inside = None
        elif clues.language == "zh":
            self.inside = re.compile("|".join(escaped))
        else:  # whole words only: "chapter 2" must not match "chapter 20"
            self.inside = re.compile(r"(?<!\w)(?:" + "|".join(escaped) + r")(?!\w)")

    def names_chapter(self, sentence: str) -> bool:
        if self.inside is None:
            return False
        return self.inside.search(normalise(sentence, self.clues.language)) is not None

    def is_heading_line(self, line: str) -> bool:
        language = self.clues.language
        text = normalise(line, language).strip(EDGE_PUNCTUATION)
        if not text:
            return False
        if text in self.clues.whole_lines:
            return True
        units = list(NON_WORD.sub("", text)) if language == "zh" else WORD.findall(text)
        numerals = [u for u in units if is_numeral(u, language)]
        return bool(numerals) and all(u in self.clues.heading_words or u in numerals for u in units)


def _without_chapter_names(found: list[str], matcher: _Matcher) -> list[str]:
    """`found` without the sentences naming a chapter, a name split over consecutive
    sentences included ("Here ends XI." + "THE ADVENTURE OF ...")."""
    language = matcher.clues.language
    kept = [s for s in found if not matcher.names_chapter(s)]
    while len(kept) > 1 and matcher.names_chapter(_join(kept, language)):
        window = next(
            (i, j)
            for size in range(2, len(kept) + 1)
            for i in range(len(kept) - size + 1)
            for j in [i + size]
            if matcher.names_chapter(_join(kept[i:j], language))
        )
        del kept[window[0] : window[1]]
    return kept


def _join(pieces: list[str], language: str) -> str:
    return ("" if language == "zh" else " ").join(pieces)


def _strip_opener(text: str, clues: OrderClues) -> str | None:
    """`text` without a leading opening formula, None when it has none."""
    for opener in clues.openers:
        if clues.language == "zh":
            pattern = r"\W*" + r"\W*".join(re.escape(c) for c in opener)
        else:
            pattern = r"\W*" + r"\W+".join(re.escape(w) for w in opener.split()) + r"(?!\w)"
        match = re.match(pattern, text, flags=re.IGNORECASE)
        if match:
            rest = text[match.end() :].lstrip(EDGE_PUNCTUATION)
            return rest
    return None


def _chapter_paragraphs(
    chapter: Chapter, matcher: _Matcher, removed: Counter[str]
) -> list[list[str]]:
    """The chapter's paragraphs as sentence lists, headings and chapter names removed.

    A paragraph left untouched is a one-item list holding its text as is.
    """
    language = matcher.clues.language
    out: list[list[str]] = []
    for paragraph in paragraphs(chapter.text):
        lines = paragraph.split("\n")
        kept_lines = [line for line in lines if not matcher.is_heading_line(line)]
        removed[NUMBERING_LINE] += len(lines) - len(kept_lines)
        text = "\n".join(kept_lines).strip()
        if not text:
            continue
        found = sentences(text, language)
        kept = _without_chapter_names(found, matcher)
        if len(kept) < len(found):
            removed[NAMES_CHAPTER] += len(found) - len(kept)
            if kept:
                out.append(kept)
            continue
        out.append([text])
    return out


def _drop_coda(chapter: list[list[str]], clues: OrderClues, removed: Counter[str]) -> None:
    """Remove from the first closing formula among the last sentences to the chapter end."""
    if not clues.closers:
        return
    flat = [
        (p, s, sentence)
        for p, paragraph in enumerate(chapter)
        for s, sentence in enumerate(_sentences_of(paragraph, clues.language))
    ]
    sizes = closer_sizes(clues.language)
    for p, s, sentence in flat[-CODA_SENTENCES:]:
        if grams(sentence, clues.language, sizes) & clues.closers:
            removed[CLOSING] += sum(1 for q, r, _ in flat if (q, r) >= (p, s))
            head = _sentences_of(chapter[p], clues.language)[:s]
            del chapter[p:]
            if head:
                chapter.append(head)
            return


def _sentences_of(paragraph: list[str], language: str) -> list[str]:
    return sentences(paragraph[0], language) if len(paragraph) == 1 else paragraph


def _render(paragraph: list[str], clues: OrderClues, removed: Counter[str]) -> str:
    text = paragraph[0] if len(paragraph) == 1 else _join(paragraph, clues.language)
    stripped = _strip_opener(text, clues)
    if stripped is not None:
        removed[OPENING] += 1
        return stripped
    return text


def order_free_paragraphs(
    book: Book, clues: OrderClues | None = None
) -> tuple[list[Paragraph], Counter[str]]:
    """The book's paragraphs without position clues, and what was removed by kind."""
    clues = clues or learn_order_clues(book)
    matcher = _Matcher(clues)
    removed: Counter[str] = Counter()
    out: list[Paragraph] = []
    for index, chapter in enumerate(book.chapters):
        chapter_paragraphs = _chapter_paragraphs(chapter, matcher, removed)
        _drop_coda(chapter_paragraphs, clues, removed)
        for paragraph in chapter_paragraphs:
            text = _render(paragraph, clues, removed).strip()
            if text:
                out.append(Paragraph(index, text))
    return out, removed
