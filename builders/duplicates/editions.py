"""Another edition of a work: the same chapters, differently worded.

Two editions of a novel (another site's text, another recension, traditional script with
its own wording) share the chapter sequence but few long runs of words: a held-out pair
had 120 chapters with the same titles and a per-chapter 5-shingle Jaccard of 0.37-0.70
after script folding, under the chapter threshold (0.6) for most chapters, so neither a
near nor a partial duplicate; both were sampled in every subset. Distinct books of the
shared corpora stay at or below 0.03 for any two chapters.

Two books are editions of one work when

- their chapter titles, folded (NFKC, traditional -> simplified, letters and ideographs
  only), are the same sequence, `MIN_CHAPTERS` titled chapters or more, in at least
  `TITLE_SHARE` of the positions; or
- their chapters aligned in order (by equal titles, else by position where the chapter
  counts match) are alike well above unrelated books: median estimated Jaccard at least
  `MIN_ALIGNED_SIMILARITY` over `MIN_CHAPTERS` aligned chapters or more, and at least
  `BACKGROUND_FACTOR` times the median of the same chapters paired out of order (candidates: pairs
  with a matching chapter or a near-duplicate score, and books with as many chapters:
  their signatures are compared chapter by chapter, cheap next to hashing them).

The aligned chapters join the pair's chapter matches, so `keep = "all"` maps sample
ranges across the editions and keeps their samples apart in a subset.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence

from lengthwise.builders.duplicates.matching import ChapterMatches
from lengthwise.builders.duplicates.normalize import comparison_text
from lengthwise.builders.duplicates.signatures import BookSignatures, jaccard
from lengthwise.records import Book

MIN_CHAPTERS = 5
TITLE_SHARE = 0.8
MIN_ALIGNED_SIMILARITY = 0.2  # unrelated books: 0.03 at most for any two chapters
# Aligned chapters must also be this many times as alike as the same two books' chapters
# paired out of order: texts written from one shared vocabulary (the synthetic demo books,
# formulaic serials) are alike whatever the pairing, editions only chapter by chapter.
BACKGROUND_FACTOR = 3.0
_SHIFTS = (1, 2, 3)
Pair = tuple[str, str]


def folded_titles(book: Book) -> list[str]:
    """Each chapter's title folded for comparison ("" where it has none)."""
    folded = []
    for chapter in book.chapters:
        title = comparison_text(chapter.title or "", "zh" if book.language == "zh" else "")
        folded.append("".join(char for char in title if char.isalnum()).casefold())
    return folded


def _aligned(titles_a: list[str], titles_b: list[str]) -> list[tuple[int, int]]:
    """Chapter pairs in order: by equal titles where the titles agree, else by position
    where the counts match."""
    if titles_a == titles_b or len(titles_a) == len(titles_b):
        return list(zip(range(len(titles_a)), range(len(titles_b)), strict=True))
    where_b = {t: j for j, t in enumerate(titles_b) if t}
    return [(i, where_b[t]) for i, t in enumerate(titles_a) if t and t in where_b]


def _same_titles(titles_a: list[str], titles_b: list[str]) -> int:
    """How many titled positions agree, when the sequences are one work's (else 0)."""
    if len(titles_a) != len(titles_b):
        return 0
    agree = sum(1 for a, b in zip(titles_a, titles_b, strict=True) if a and a == b)
    titled = max(sum(1 for t in titles_a if t), 1)
    return agree if agree >= MIN_CHAPTERS and agree >= TITLE_SHARE * titled else 0


def _misaligned_median(
    sa: BookSignatures, sb: BookSignatures, aligned: list[tuple[int, int]]
) -> float:
    """Median similarity of the aligned chapters paired out of order (shifted by 1-3)."""
    n = len(aligned)
    values = [
        jaccard(sa.chapters[aligned[k][0]], sb.chapters[aligned[(k + shift) % n][1]])
        for shift in _SHIFTS
        for k in range(n)
    ]
    return statistics.median(values)


def edition_links(
    books: Sequence[Book],
    signatures: Mapping[str, BookSignatures],
    candidates: Sequence[Pair],
) -> dict[Pair, tuple[str, ChapterMatches]]:
    """(a, b) with a < b -> the evidence, as a link kind, and the aligned chapter matches."""
    titles = {b.id: folded_titles(b) for b in books}
    by_titles: dict[tuple[str, ...], list[str]] = {}
    for book_id in sorted(titles):
        if sum(1 for t in titles[book_id] if t) >= MIN_CHAPTERS:
            by_titles.setdefault(tuple(titles[book_id]), []).append(book_id)
    by_count: dict[int, list[str]] = {}
    for book_id in sorted(titles):
        if len(titles[book_id]) >= MIN_CHAPTERS:
            by_count.setdefault(len(titles[book_id]), []).append(book_id)
    pairs = set(candidates)
    for group in [*by_titles.values(), *by_count.values()]:
        pairs.update((a, b) for i, a in enumerate(group) for b in group[i + 1 :])
    found: dict[Pair, tuple[str, ChapterMatches]] = {}
    for a, b in sorted(pairs):
        aligned = _aligned(titles[a], titles[b])
        if len(aligned) < MIN_CHAPTERS:
            continue
        sa, sb = signatures[a], signatures[b]
        similarities = [jaccard(sa.chapters[i], sb.chapters[j]) for i, j in aligned]
        median = statistics.median(similarities)
        agree = _same_titles(titles[a], titles[b])
        if not agree and (
            median < MIN_ALIGNED_SIMILARITY
            or median < BACKGROUND_FACTOR * _misaligned_median(sa, sb, aligned)
        ):
            continue
        evidence = (
            f"same {agree} chapter titles in order, " if agree else f"{len(aligned)} chapters "
        ) + f"aligned {median:.2f} alike (median)"
        match = ChapterMatches(
            a, b, [(i, j, round(s, 3)) for (i, j), s in zip(aligned, similarities, strict=True)]
        )
        found[(a, b)] = (f"edition: {evidence}", match)
    return found
