"""Text that gives a segment's position away, learned from each book, and its removal.

An ordering instance must be solved from the narrative, not from what marks chapters.
`learn_order_clues` finds, in one book and from its own records and statistics:

- the chapters' printed headings: every heading line and part heading, each title (a
  long one searched inside sentences, a short one only as a whole line) and each
  printed number token (the heading without its title: "第一回", "Chapter 4"), which
  the body sometimes repeats ("此开卷第一回也");
- the heading vocabulary (non-numeral words of the number tokens: "chapter", 第, 回):
  a line made only of those words and numerals is a numbering line;
- chapter-opening formulae: a sentence prefix (zh 2-4 characters, en 1-3 words) that
  opens at least 15 % of the chapters (4 or more) and is at least 20 times likelier
  there than at the start of other paragraphs (or opens 30 % of the chapters and is 3
  times likelier):
  话说 in 红楼梦, 却说 in 三国演义;
- chapter-closing formulae: n-grams (zh 2-6 characters, en 2-4 words) found among the
  last three sentences of at least 30 % of the chapters (4 or more) and at least 20 times likelier
  per sentence there than elsewhere (且听下回分解, 下文分解, 正是).

`order_free_paragraphs` then gives the book's paragraphs in reading order without
them: numbering and heading lines dropped, sentences naming a chapter (its number
token, heading or long title) dropped, each chapter's coda (from the first closing
formula among its last three sentences to its end) dropped, and an opening formula
stripped from the start of any paragraph. Segments are cut from these paragraphs, so
joining an instance's segments in answer order gives them back exactly.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lengthwise.builders.chapters.en_numerals import parse_heading_number
from lengthwise.records import Book, Chapter
from lengthwise.text import paragraphs, sentences
from lengthwise.text.numerals import ALL_DIGITS, NUMERAL_CHARS

# A formula is a habit of the book: found at this share of chapter ends or more (at
# 3 of 12 chapters, Sherlock's "is now" and Alice's "the top of" would pass) ...
MIN_CLOSER_SHARE = 0.3
# ... openers at a lower share, as what is removed is only a prefix and they must also
# be rare at other paragraph starts (西游记 opens 16 % of its chapters with 话说) ...
MIN_OPENER_SHARE = 0.15
MIN_CHAPTERS = 4  # ... and at this many chapters
MIN_ENRICHMENT = 20.0  # ... and this many times likelier at edges than elsewhere
CODA_SENTENCES = 3  # the closing zone: a chapter's last sentences
WORD = re.compile(r"[^\W_]+")
NON_WORD = re.compile(r"[\W_]+")
_ZH_NUMERALS = set(NUMERAL_CHARS) | set(ALL_DIGITS)
EDGE_PUNCTUATION = " \t\u3000.,:;!?-—–，。：；、！？.·"


def normalise(text: str, language: str) -> str:
    """Text as clues are matched: NFKC; zh without whitespace, en lowercased and spaced."""
    folded = unicodedata.normalize("NFKC", text)
    if language == "zh":
        return "".join(folded.split())
    return " ".join(folded.casefold().split())


def grams(sentence: str, language: str, sizes: Iterable[int]) -> set[str]:
    if language == "zh":
        chars = NON_WORD.sub("", sentence)
        return {chars[i : i + n] for n in sizes for i in range(len(chars) - n + 1)}
    words = WORD.findall(sentence.casefold())
    return {" ".join(words[i : i + n]) for n in sizes for i in range(len(words) - n + 1)}


def _prefixes(sentence: str, language: str) -> set[str]:
    if language == "zh":
        chars = NON_WORD.sub("", sentence)
        return {chars[:n] for n in (2, 3, 4) if len(chars) >= n}
    words = WORD.findall(sentence.casefold())
    return {" ".join(words[:n]) for n in (1, 2, 3) if len(words) >= n}


def closer_sizes(language: str) -> range:
    return range(2, 7) if language == "zh" else range(2, 5)


@dataclass(frozen=True)
class OrderClues:
    language: str
    inside: tuple[str, ...]  # normalised strings that make a sentence name a chapter
    whole_lines: frozenset[str]  # normalised lines that are headings on their own
    heading_words: frozenset[str]  # numbering-line vocabulary (en words, zh characters)
    openers: tuple[str, ...]  # chapter-opening formulae (normalised prefixes), longest first
    closers: frozenset[str]  # chapter-closing n-grams


def _number_token(chapter: Chapter) -> str:
    first_line = chapter.heading.strip().split("\n")[0]
    title = chapter.title.strip()
    token = first_line.replace(title, "") if title and title in first_line else first_line
    return token.strip(EDGE_PUNCTUATION)


def is_numeral(word: str, language: str) -> bool:
    if language == "zh":
        return bool(word) and all(c in _ZH_NUMERALS for c in word)
    return parse_heading_number(word) is not None


def _heading_words(tokens: Iterable[str], language: str) -> frozenset[str]:
    if language == "zh":
        return frozenset(c for t in tokens for c in NON_WORD.sub("", t) if c not in _ZH_NUMERALS)
    words = (w for t in tokens for w in WORD.findall(t.casefold()))
    return frozenset(w for w in words if not is_numeral(w, language))


def _long_enough(text: str, language: str) -> bool:
    """Whether a heading piece is distinctive enough to search inside sentences."""
    if language == "zh":
        return len(text) >= 4
    return len(text.split()) >= 3


def _heading_clues(book: Book, language: str) -> tuple[set[str], set[str], frozenset[str]]:
    inside: set[str] = set()
    whole: set[str] = set()
    tokens = []
    for chapter in book.chapters:
        lines = [*chapter.heading.split("\n"), *(chapter.part or "").split("\n")]
        # zh titles are distinctive phrases (宴桃园豪杰三结义) that only repeated headings
        # hold; English titles are common phrases ("The Quarter-Deck"): whole lines only.
        titles = [chapter.title, *chapter.title.split()]
        token = _number_token(chapter)
        tokens.append(token)
        normal_token = normalise(token, language)
        if chapter.number is not None and token and not is_numeral(normal_token, language):
            inside.add(normal_token)  # "第一回", "chapter 4": never narrative
        for piece, searched in [
            *((p, True) for p in lines),
            *((t, language == "zh") for t in titles),
        ]:
            text = normalise(piece, language).strip(EDGE_PUNCTUATION)
            if text:
                long = searched and _long_enough(text, language)
                (inside if long else whole).add(text)
        if token:
            whole.add(normal_token.strip(EDGE_PUNCTUATION))
    part_tokens = [p for c in book.chapters for p in (c.part or "").split("\n")[:1]]
    return inside, whole, _heading_words(tokens + part_tokens, language)


def _enriched(edge: Counter[str], edge_units: int, rest: Counter[str], rest_units: int,
              chapters: int, min_share: float) -> list[tuple[str, float, float]]:  # fmt: skip
    """(feature, share of chapters, enrichment) of features frequent at chapter edges."""
    found = []
    for feature, count in edge.items():
        share = count / max(chapters, 1)
        if count < MIN_CHAPTERS or share < min_share:
            continue
        ratio = (count / max(edge_units, 1)) / ((rest[feature] + 1) / max(rest_units, 1))
        found.append((feature, share, ratio))
    return found


def _learn_openers(chapter_sentences: Sequence[list[list[str]]], language: str) -> tuple[str, ...]:
    edge: Counter[str] = Counter()
    rest: Counter[str] = Counter()
    rest_units = 0
    for chapter in chapter_sentences:
        firsts = [p[0] for p in chapter if p]
        if firsts:
            edge.update(_prefixes(firsts[0], language))
        for sentence in firsts[1:]:
            rest.update(_prefixes(sentence, language))
            rest_units += 1
    chapters = len(chapter_sentences)
    learned = {
        f
        for f, share, ratio in _enriched(
            edge, chapters, rest, rest_units, chapters, MIN_OPENER_SHARE
        )
        if ratio >= MIN_ENRICHMENT or (share >= 0.3 and ratio >= 3)
    }
    # "话说宝玉" extends "话说": only the formula itself is stripped, never a name after it.
    minimal = [f for f in learned if not any(f != g and f.startswith(g) for g in learned)]
    return tuple(sorted(minimal, key=len, reverse=True))


def _learn_closers(chapter_sentences: Sequence[list[list[str]]], language: str) -> frozenset[str]:
    sizes = closer_sizes(language)
    edge: Counter[str] = Counter()
    rest: Counter[str] = Counter()
    edge_units = rest_units = 0
    for chapter in chapter_sentences:
        flat = [s for p in chapter for s in p]
        zone = flat[-CODA_SENTENCES:]
        edge.update(set().union(*(grams(s, language, sizes) for s in zone)) if zone else set())
        edge_units += len(zone)
        for sentence in flat[: max(0, len(flat) - CODA_SENTENCES)]:
            rest.update(grams(sentence, language, sizes))
            rest_units += 1
    chapters = len(chapter_sentences)
    found = _enriched(edge, edge_units, rest, rest_units, chapters, MIN_CLOSER_SHARE)
    return frozenset(f for f, _, ratio in found if ratio >= MIN_ENRICHMENT)


def learn_order_clues(book: Book) -> OrderClues:
    """What gives a position away in `book` (see the module docstring)."""
    language = book.language
    inside, whole, heading_words = _heading_clues(book, language)
    chapter_sentences = [
        [sentences(p, language) for p in paragraphs(c.text)] for c in book.chapters
    ]
    return OrderClues(
        language=language,
        inside=tuple(sorted(inside)),
        whole_lines=frozenset(whole | inside),
        heading_words=heading_words,
        openers=_learn_openers(chapter_sentences, language),
        closers=_learn_closers(chapter_sentences, language),
    )
