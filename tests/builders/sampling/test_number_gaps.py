"""Gaps in the printed chapter numbering, and windows that never span them."""

from __future__ import annotations

from lengthwise.builders.sampling import BookLengths, candidates_for_subset, nested_candidates
from lengthwise.builders.sampling.number_gaps import (
    missing_numbers,
    number_gaps,
    numbering_breaks,
)
from lengthwise.records import Chapter
from lengthwise.spec import SubsetSpec


def _book(numbers: list[int | None], parts: list[str | None] | None = None) -> list[Chapter]:
    parts = parts or [None] * len(numbers)
    return [
        Chapter("b", i, f"Chapter {n}", n, "", f"text {i}", part=p)
        for i, (n, p) in enumerate(zip(numbers, parts, strict=True))
    ]


def test_a_forward_jump_is_a_gap_before_the_later_chapter() -> None:
    (gap,) = number_gaps(_book([1, 12, 13, 14]))
    assert (gap.index, gap.before, gap.after, gap.missing) == (1, 1, 12, 10)
    assert missing_numbers(_book([1, 12, 13, 14])) == 10


def test_unnumbered_chapters_and_part_restarts_are_no_gaps() -> None:
    prologue = _book([None, 1, 2, None, 3, 4])
    assert number_gaps(prologue) == []
    parts = _book([1, 2, 3, 1, 2, 1], ["I", "I", "I", "II", "II", "EPILOGUE"])
    assert number_gaps(parts) == []
    # A gap hidden behind an interlude still counts, before the next numbered chapter.
    (gap,) = number_gaps(_book([1, 2, None, 6]))
    assert gap.index == 3


def test_a_restart_at_one_within_a_part_is_a_break() -> None:
    """Two works in one file (`CHAPTER I`..`XII`, then `CHAPTER I`..): no sample may hold
    both; a restart under a new part heading (War and Peace) is one work going on."""
    assert numbering_breaks(_book([1, 2, 3, 1, 2, 3])) == (3,)
    assert numbering_breaks(_book([1, 2, 3, 1, 2], ["I", "I", "I", "II", "II"])) == ()
    assert numbering_breaks(_book([1, 2, 1, 2])) == ()  # too short to tell
    assert numbering_breaks(_book([1, 2, 5, 6, 1, 2])) == (2, 4)  # a gap and a restart


def test_a_single_misprinted_number_is_no_gap() -> None:
    assert number_gaps(_book([24, 25, 16, 27, 28])) == []  # Tom Sawyer's XVI for XXVI
    assert number_gaps(_book([4, 5, 60, 7, 8])) == []


SUBSET = SubsetSpec(name="S", target=25, lower=20, upper=30, count=10)


def test_windows_restart_after_a_break_and_refusals_are_counted() -> None:
    lengths = [10] * 6
    unbroken = candidates_for_subset([BookLengths("b", lengths)], SUBSET)
    assert [(r.first, r.last) for r in unbroken.runs] == [(0, 1), (2, 3), (4, 5)]
    broken = candidates_for_subset([BookLengths("b", lengths, (1,))], SUBSET)
    assert [(r.first, r.last) for r in broken.runs] == [(1, 2), (3, 4)]
    assert broken.refused_number_gaps == 1 and unbroken.refused_number_gaps == 0


def test_nested_windows_respect_breaks() -> None:
    longer = SubsetSpec(name="L", target=45, lower=40, upper=50, count=10)
    sets = nested_candidates([BookLengths("b", [10] * 10, (3,))], [SUBSET, longer])
    for candidate_set in sets.values():
        assert all(not (r.first < 3 <= r.last) for r in candidate_set.runs)
    assert sets["L"].refused_number_gaps == 1
