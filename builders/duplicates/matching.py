"""Candidate pairs through LSH, verified on the signatures: no all-pairs comparison.

Two indexes (datasketch ``MinHashLSH``): one over book signatures at the near-duplicate
threshold, one over chapter signatures at the chapter threshold. LSH returns candidates
whose similarity is probably above the threshold; each candidate is then checked on its
signatures, so the figures reported are the estimated Jaccard similarities themselves.
Keys and results are sorted, so the outcome does not depend on set iteration order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from datasketch import MinHashLSH

from lengthwise.builders.duplicates.signatures import (
    MIN_CHAPTER_SHINGLES,
    BookSignatures,
    jaccard,
)


@dataclass
class ChapterMatches:
    """Chapters of book ``a`` matching chapters of book ``b`` (``a < b`` by id)."""

    a: str
    b: str
    pairs: list[tuple[int, int, float]] = field(default_factory=list)  # (index a, index b, J)

    def matched(self, book_id: str) -> set[int]:
        """Indices of ``book_id``'s chapters that match a chapter of the other book."""
        if book_id == self.a:
            return {pair[0] for pair in self.pairs}
        return {pair[1] for pair in self.pairs}

    def mapped(self, book_id: str, first: int, last: int) -> set[int]:
        """The other book's chapters matching ``book_id``'s chapters ``first..last``."""
        if book_id == self.a:
            return {j for i, j, _ in self.pairs if first <= i <= last}
        return {i for i, j, _ in self.pairs if first <= j <= last}


def near_book_pairs(
    signatures: Sequence[BookSignatures], threshold: float, num_perm: int
) -> dict[tuple[str, str], float]:
    """Pairs of books whose estimated Jaccard similarity reaches ``threshold``."""
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    by_id = {s.book_id: s for s in signatures}
    for sig in sorted(signatures, key=lambda s: s.book_id):
        lsh.insert(sig.book_id, sig.book_minhash())
    pairs: dict[tuple[str, str], float] = {}
    for book_id in sorted(by_id):
        for other in sorted(lsh.query(by_id[book_id].book_minhash())):
            if other <= book_id:
                continue
            similarity = jaccard(by_id[book_id].book, by_id[other].book)
            if similarity >= threshold:
                pairs[(book_id, other)] = similarity
    return pairs


def chapter_matches(
    signatures: Sequence[BookSignatures], threshold: float, num_perm: int
) -> dict[tuple[str, str], ChapterMatches]:
    """Matching chapters between every two different books (within a book: not here)."""
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    by_id = {s.book_id: s for s in signatures}
    for book_id in sorted(by_id):
        sig = by_id[book_id]
        for index in range(len(sig.chapter_sizes)):
            if sig.chapter_sizes[index] >= MIN_CHAPTER_SHINGLES:
                lsh.insert((book_id, index), sig.chapter_minhash(index))
    found: dict[tuple[str, str], ChapterMatches] = {}
    for book_id in sorted(by_id):
        sig = by_id[book_id]
        for index in range(len(sig.chapter_sizes)):
            if sig.chapter_sizes[index] < MIN_CHAPTER_SHINGLES:
                continue
            for other, other_index in sorted(lsh.query(sig.chapter_minhash(index))):
                if other <= book_id:
                    continue  # each pair of books once, from the smaller id
                similarity = jaccard(sig.chapters[index], by_id[other].chapters[other_index])
                if similarity >= threshold:
                    match = found.setdefault((book_id, other), ChapterMatches(book_id, other))
                    match.pairs.append((index, other_index, round(similarity, 3)))
    return found
