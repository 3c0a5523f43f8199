"""`annotate locate`: which chapter and passage support or contradict a claim.

For annotators resolving conflicting synopses. The sample's chapters are cut into
passages (paragraphs grouped to about PASSAGE_UNITS characters for Chinese or words
otherwise); a BM25 score against the claim (jieba words for Chinese) keeps the top
passages, which the locator model (spec [llm.locator]) reads with their chapter
indices. Its answer must follow a strict three-line format:

    CHAPTER: <chapter index from the passage headers, or none>
    VERDICT: supports | contradicts | not found
    QUOTE: <a sentence copied exactly from that chapter, or none>

The quote is then searched in that chapter (whitespace-insensitive): if it is not
there the answer is reported as unverified. Without a locator model only the lexical
matches are shown, and the output says so.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from lengthwise.annotation.review.inputs import (
    SampleChapterText,
    read_books,
    read_samples,
    sample_chapters,
    subset_order,
)
from lengthwise.annotation.review.measure import is_chinese, text_language
from lengthwise.errors import UserError
from lengthwise.llm.types import ChatRequest, LLMClient
from lengthwise.text import words
from lengthwise.workdir import WorkDir

PROMPT_VERSION = "locate-v1"
PASSAGE_UNITS = {"zh": 400, "en": 250}  # characters / words per passage
VERDICTS = ("supports", "contradicts", "not found")

_STOPWORDS_EN = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "his",
        "i",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "she",
        "that",
        "the",
        "their",
        "them",
        "they",
        "this",
        "to",
        "was",
        "were",
        "which",
        "who",
        "with",
    ]
)
_SYSTEM = (
    "You help annotators check claims about a novel against its original text. You get a "
    "claim and numbered passages, each headed by its chapter index. Decide which passage "
    "supports or contradicts the claim. Answer with exactly three lines and nothing else:\n"
    "CHAPTER: <the chapter index from the passage header, or none>\n"
    "VERDICT: supports | contradicts | not found\n"
    "QUOTE: <one sentence copied exactly, character for character, from that passage, or none>"
)


@dataclass(frozen=True)
class Passage:
    chapter_index: int
    heading: str
    number: int  # passage number within its chapter, from 1
    text: str
    score: float = 0.0


@dataclass(frozen=True)
class LocatorAnswer:
    chapter_index: int | None
    verdict: str
    quote: str | None


@dataclass
class LocateResult:
    sample_id: str
    claim: str
    passages: list[Passage]  # the lexical top passages, best first
    used_model: bool
    model: str = ""
    answer: LocatorAnswer | None = None
    raw_answer: str = ""
    error: str | None = None  # unparsable answer or failed call
    verified: bool = False  # the quote occurs in the named chapter
    found_in_chapter: int | None = None  # where the quote really is, when elsewhere
    chapter_heading: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return self.answer is not None and self.answer.verdict != "not found" and self.verified


def split_passages(chapter: SampleChapterText, language: str) -> list[Passage]:
    """Consecutive paragraphs grouped until a passage reaches the size limit."""
    zh = is_chinese(language)
    limit = PASSAGE_UNITS["zh" if zh else "en"]
    passages: list[Passage] = []
    current: list[str] = []
    size = 0
    lines = [line.strip() for line in chapter.text.splitlines() if line.strip()]
    if lines and chapter.heading and lines[0] == chapter.heading.strip():
        lines = lines[1:]
    for line in lines:
        current.append(line)
        size += len(line) if zh else len(line.split())
        if size >= limit:
            passages.append(
                Passage(chapter.index, chapter.heading, len(passages) + 1, "\n".join(current))
            )
            current, size = [], 0
    if current:
        passages.append(
            Passage(chapter.index, chapter.heading, len(passages) + 1, "\n".join(current))
        )
    return passages


def _terms(text: str, language: str) -> list[str]:
    """Words (jieba for Chinese; English without stopwords) plus word bigrams.

    Bigrams reward passages that share the claim's phrasing, not only its vocabulary.
    """
    tokens = words(text, text_language(language))
    if not is_chinese(language):
        tokens = [t for t in tokens if t not in _STOPWORDS_EN]
    return tokens + [f"{a} {b}" for a, b in pairwise(tokens)]


def rank_passages(
    passages: list[Passage], claim: str, language: str, top: int, k1: float = 1.2, b: float = 0.75
) -> list[Passage]:
    """The `top` passages by BM25 against the claim (ties keep reading order)."""
    documents = [Counter(_terms(p.text, language)) for p in passages]
    query = set(_terms(claim, language))
    if not passages:
        return []
    average = sum(sum(d.values()) for d in documents) / len(documents) or 1.0
    frequency = Counter(term for d in documents for term in set(d) if term in query)
    scored = []
    for passage, terms in zip(passages, documents, strict=True):
        length = sum(terms.values())
        score = 0.0
        for term in query:
            tf = terms.get(term, 0)
            if not tf:
                continue
            idf = math.log(1 + (len(documents) - frequency[term] + 0.5) / (frequency[term] + 0.5))
            score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / average))
        scored.append(
            Passage(passage.chapter_index, passage.heading, passage.number, passage.text, score)
        )
    ranked = sorted(enumerate(scored), key=lambda pair: (-pair[1].score, pair[0]))
    return [p for _, p in ranked[:top]]


def build_request(claim: str, passages: list[Passage]) -> ChatRequest:
    blocks = [
        f"[{i}] chapter {p.chapter_index} ({p.heading}), passage {p.number}\n{p.text}"
        for i, p in enumerate(passages, start=1)
    ]
    user = f"Claim: {claim}\n\nPassages:\n\n" + "\n\n".join(blocks) + "\n\nAnswer in the format."
    return ChatRequest.of(
        _SYSTEM, user, prompt_version=PROMPT_VERSION, max_tokens=300, temperature=0.0
    )


_LINE = re.compile(r"^\s*[*_`]*\s*(CHAPTER|VERDICT|QUOTE)\s*[*_`]*\s*[:：]\s*(.*?)\s*$", re.I)


def parse_answer(text: str) -> LocatorAnswer:
    """Parse the strict three-line answer; raises ValueError saying what is wrong."""
    fields_found: dict[str, str] = {}
    for line in text.strip().strip("`").splitlines():
        match = _LINE.match(line)
        if match:
            fields_found.setdefault(match.group(1).upper(), match.group(2).strip().strip("*`"))
    missing = [k for k in ("CHAPTER", "VERDICT", "QUOTE") if k not in fields_found]
    if missing:
        raise ValueError(f"answer lacks the line(s) {', '.join(missing)}")
    verdict = fields_found["VERDICT"].lower().strip(" .")
    if verdict not in VERDICTS:
        raise ValueError(f"verdict {fields_found['VERDICT']!r} is not one of {', '.join(VERDICTS)}")
    chapter_text = fields_found["CHAPTER"].lower()
    chapter: int | None
    if chapter_text in ("none", "-", "n/a", ""):
        chapter = None
    else:
        digits = re.search(r"\d+", chapter_text)
        if digits is None:
            raise ValueError(f"chapter {fields_found['CHAPTER']!r} is not a chapter index")
        chapter = int(digits.group())
    quote = fields_found["QUOTE"].strip().strip("\"'“”「」『』")
    if quote.lower() in ("none", "-", "n/a", ""):
        quote = ""
    if verdict != "not found" and (chapter is None or not quote):
        raise ValueError(f"verdict {verdict!r} needs a chapter index and a quote")
    return LocatorAnswer(chapter, verdict, quote or None)


def _normalise(text: str) -> str:
    return re.sub(r"\s+", "", text)


def verify_quote(
    quote: str, chapters: list[SampleChapterText], chapter_index: int
) -> tuple[bool, int | None]:
    """(in the named chapter?, index of a chapter that does contain it, if any)."""
    needle = _normalise(quote)
    if not needle:
        return False, None
    holders = [c.index for c in chapters if needle in _normalise(c.text)]
    return chapter_index in holders, (holders[0] if holders else None)


def locate(
    work_dir: Path, sample_id: str, claim: str, client: LLMClient | None, top: int = 8
) -> LocateResult:
    """Find evidence for `claim` in the chapters of `sample_id` (see module docstring)."""
    if not claim.strip():
        raise UserError("the claim is empty")
    work = WorkDir(work_dir)
    sample = next((s for s in read_samples(work, subset_order(work)) if s.id == sample_id), None)
    if sample is None:
        raise UserError(f"no sample {sample_id!r} in {work.samples}")
    language = sample.language
    chapters = sample_chapters(sample, read_books(work, {sample.book_id}))
    passages = [p for c in chapters for p in split_passages(c, language)]
    ranked = rank_passages(passages, claim, language, top)
    result = LocateResult(sample_id, claim, ranked, used_model=client is not None)
    if client is None:
        result.notes.append(
            "no locator model configured ([llm.locator] in the spec): lexical retrieval only"
        )
        return result
    result.model = client.name
    answer = client.complete(build_request(claim, ranked))
    result.raw_answer = answer.text
    if answer.outcome != "ok":
        result.error = f"locator call ended with outcome {answer.outcome}: {answer.error or ''}"
        return result
    try:
        result.answer = parse_answer(answer.text)
    except ValueError as exc:
        result.error = f"could not parse the locator's answer: {exc}"
        return result
    if result.answer.chapter_index is not None:
        by_index = {c.index: c for c in chapters}
        chapter = by_index.get(result.answer.chapter_index)
        result.chapter_heading = chapter.heading if chapter else ""
        if chapter is None:
            result.notes.append(
                f"chapter {result.answer.chapter_index} is not in this sample "
                f"(chapters {chapters[0].index}-{chapters[-1].index})"
            )
        if result.answer.quote:
            result.verified, elsewhere = verify_quote(
                result.answer.quote, chapters, result.answer.chapter_index
            )
            if not result.verified:
                result.found_in_chapter = elsewhere
                result.notes.append(
                    "UNVERIFIED: the quote does not occur in that chapter"
                    + (f" (it occurs in chapter {elsewhere})" if elsewhere is not None else "")
                )
    return result


def render_location(result: LocateResult) -> str:
    """What `annotate locate` prints."""
    lines = [f"claim: {result.claim}", f"sample: {result.sample_id}"]
    if result.used_model:
        lines.append(f"locator: {result.model}")
        if result.error:
            lines.append(f"error: {result.error}")
            if result.raw_answer:
                lines.append(f"raw answer: {result.raw_answer.strip()[:500]}")
        elif result.answer is not None:
            answer = result.answer
            status = "verified" if result.verified else "unverified"
            if answer.verdict == "not found":
                lines.append("verdict: not found in the retrieved passages")
            else:
                lines.append(f"verdict: {answer.verdict} ({status} quote)")
                lines.append(f"chapter {answer.chapter_index}: {result.chapter_heading}")
                lines.append(f"passage: {answer.quote}")
    lines += result.notes
    lines.append("")
    lines.append("best lexical matches:" if result.passages else "no passages to search")
    for passage in result.passages[:5]:
        snippet = " ".join(passage.text.split())
        snippet = snippet[:240] + ("…" if len(snippet) > 240 else "")
        lines.append(
            f"  chapter {passage.chapter_index} ({passage.heading}) passage {passage.number} "
            f"[score {passage.score:.2f}]: {snippet}"
        )
    return "\n".join(lines)
