"""Choosing the kept copy, and keeping samples of copies apart (no corpus needed)."""

from __future__ import annotations

import numpy as np

from lengthwise.builders.duplicates import BookFacts, ChapterMatches, CopyMap
from lengthwise.builders.duplicates.clusters import build_clusters, find_links
from lengthwise.builders.duplicates.overlap import select_avoiding_copies
from lengthwise.builders.duplicates.signatures import BookSignatures
from lengthwise.builders.sampling import (
    BookLengths,
    CandidateSet,
    Selection,
    candidates_for_subset,
    select_samples,
)
from lengthwise.spec import SubsetSpec


def _facts(book_id: str, chapters: int, missing: int = 0, noise: float = 0.0) -> BookFacts:
    return BookFacts(
        book_id, book_id, f"raw-{book_id}", f"text-{book_id}", chapters, missing, noise
    )


def _signatures(book_id: str, seed: int) -> BookSignatures:
    values = np.random.default_rng(seed).integers(0, 2**32, 16, dtype=np.uint32)
    return BookSignatures(book_id, values[None, :], np.array([100]), values, 100)


def test_the_most_complete_then_least_noisy_copy_is_kept() -> None:
    facts = [_facts("a", 70), _facts("b", 120, missing=3), _facts("c", 120, noise=0.01)]
    facts.append(_facts("d", 120, noise=0.0))
    near = {("b", "c"): 0.9, ("c", "d"): 0.95}
    matches = {
        ("a", "b"): ChapterMatches("a", "b", [(i, i, 0.9) for i in range(60)]),
        ("b", "c"): ChapterMatches("b", "c", [(i, i, 0.9) for i in range(100)]),
    }
    links = find_links(facts, near, matches, partial_share=0.5)
    assert links == {
        ("a", "b"): "partial duplicate",
        ("b", "c"): "near duplicate",
        ("c", "d"): "near duplicate",
    }
    signatures = {f.book_id: _signatures(f.book_id, i) for i, f in enumerate(facts)}
    (cluster,) = build_clusters(facts, signatures, links, matches)
    # b has gaps in its numbering, c more cleaning noise than d: d is kept.
    assert cluster.id == "d" and [m.book_id for m in cluster.others] == ["a", "b", "c"]
    assert cluster.others[0].kind.startswith("linked through")


def test_alike_books_without_matching_chapters_are_not_copies() -> None:
    # Books from one generator or in one style overlap as bags of shingles (the synthetic
    # demo books reach 0.8-0.9) while no chapter of one is a chapter of the other.
    facts = [_facts("x", 12), _facts("y", 12), _facts("z", 12)]
    near = {("x", "y"): 0.88, ("y", "z"): 0.96}
    one_match = {("x", "y"): ChapterMatches("x", "y", [(0, 0, 0.9)])}
    assert find_links(facts, near, one_match, partial_share=0.5) == {("y", "z"): "near duplicate"}
    two_matches = {("x", "y"): ChapterMatches("x", "y", [(0, 0, 0.9), (1, 1, 0.8)])}
    links = find_links(facts, near, two_matches, partial_share=0.5)
    assert links == {("x", "y"): "near duplicate", ("y", "z"): "near duplicate"}


def test_selection_never_keeps_overlapping_samples_of_two_copies() -> None:
    subset = SubsetSpec(name="S", target=25, lower=20, upper=30, count=10)
    books = [BookLengths("orig", [10] * 8), BookLengths("copy", [10] * 8)]
    candidates = candidates_for_subset(books, subset)
    # copy's chapter i is orig's chapter i + 1 (copy has an extra opening chapter)
    matches = {
        ("copy", "orig"): ChapterMatches("copy", "orig", [(i + 1, i, 1.0) for i in range(7)])
    }
    kept = BookFacts("orig", "orig", "r1", "t1", 8, 0, 0.0)
    other = BookFacts("copy", "copy", "r2", "t2", 8, 0, 0.1)
    links = {("copy", "orig"): "near duplicate"}
    sigs = {"orig": _signatures("orig", 1), "copy": _signatures("copy", 2)}
    (cluster,) = build_clusters([kept, other], sigs, links, matches)
    copies = CopyMap([cluster])

    def select(sets: dict[str, CandidateSet]) -> dict[str, Selection]:
        return {n: select_samples(cs.runs, cs.subset, 0) for n, cs in sets.items()}

    plain = select({"S": candidates})["S"].samples
    assert copies.losers(plain), "without the rule, copies overlap"
    selections, refused = select_avoiding_copies({"S": candidates}, select, copies)
    chosen = selections["S"].samples
    assert not copies.losers(chosen)
    assert {r.book_id for r in chosen} == {"orig"}  # every copy window overlaps one of orig
    assert refused["S"] and all(r["book_id"] == "copy" for r in refused["S"])
