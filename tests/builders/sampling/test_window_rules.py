"""CNNSum's window rules on hand-made chapter-length sequences, one case per rule."""

from __future__ import annotations

import pytest

from lengthwise.builders.sampling import (
    BookLengths,
    ChapterRun,
    candidates_for_subset,
    closest_windows,
    first_fit_windows,
    nested_windows,
    recheck_near_bounds,
)
from lengthwise.spec import SubsetSpec


def test_short_window_keeps_adding_then_records_and_restarts_after_it() -> None:
    # 3 < 5 keep adding; 6 within [5, 7] -> record (0, 1) and restart at chapter 2.
    assert first_fit_windows([3, 3, 3, 3, 3, 3], lower=5, upper=7) == [(0, 1), (2, 3), (4, 5)]


def test_bounds_are_inclusive() -> None:
    assert first_fit_windows([8, 2, 7], lower=8, upper=8) == [(0, 0)]
    assert first_fit_windows([4, 4], lower=8, upper=8) == [(0, 1)]


def test_too_long_window_drops_from_front_until_it_fits() -> None:
    # 4, 5, then +6 = 11 > 8: drop chapter 0 -> 7 within [6, 8] -> record (1, 2).
    assert first_fit_windows([4, 1, 6], lower=6, upper=8) == [(1, 2)]


def test_drop_from_front_can_remove_several_chapters() -> None:
    # 1+1+1+10 = 13 > 11: drop two chapters -> 11 -> record (2, 3).
    assert first_fit_windows([1, 1, 1, 10], lower=10, upper=11) == [(2, 3)]


def test_drop_from_front_below_lower_keeps_adding() -> None:
    # 5+2 = 7 < 10; +6 = 13 > 12: drop 5 -> 8 < 10, keep adding; +3 = 11 -> record (1, 3).
    assert first_fit_windows([5, 2, 6, 3], lower=10, upper=12) == [(1, 3)]


def test_chapter_longer_than_upper_is_skipped_and_reported() -> None:
    # 3 + 20 > 10: dropping from the front empties the window; restart after chapter 1.
    assert first_fit_windows([3, 20, 4, 5], lower=8, upper=10) == [(2, 3)]
    subset = SubsetSpec(name="S", target=9, lower=8, upper=10, count=1)
    books = [BookLengths("a", [3, 20, 4, 5]), BookLengths("b", [11, 9, 12])]
    candidates = candidates_for_subset(books, subset)
    assert [(r.book_id, r.first, r.last, r.tokens) for r in candidates.runs] == [
        ("a", 2, 3, 9),
        ("b", 1, 1, 9),
    ]
    assert (candidates.unusable_chapters, candidates.unusable_tokens) == (3, 20 + 11 + 12)


def test_unfinished_window_at_end_of_book_is_discarded() -> None:
    assert first_fit_windows([5, 5, 5], lower=8, upper=12) == [(0, 1)]
    assert first_fit_windows([], lower=1, upper=2) == []


def test_closest_extends_while_the_next_chapter_gets_closer_to_target() -> None:
    lengths = [3, 3, 3, 3, 3]
    assert first_fit_windows(lengths, lower=5, upper=12) == [(0, 1), (2, 3)]
    # 6 -> 9 is closer to 10; 12 is not (|2| > |1|) -> (0, 2); then 3 + 3 = 6 at the end.
    assert closest_windows(lengths, lower=5, upper=12, target=10) == [(0, 2), (3, 4)]


def test_closest_never_passes_upper_and_needs_strict_improvement() -> None:
    assert closest_windows([5, 5, 5], lower=5, upper=9, target=9) == [(0, 0), (1, 1), (2, 2)]
    # 8 and 12 are both 2 from the target: no extension on a tie.
    assert closest_windows([8, 4], lower=8, upper=14, target=10) == [(0, 0)]


def test_bad_bounds_and_lengths_are_rejected_with_a_message() -> None:
    with pytest.raises(ValueError, match=r"lower <= upper"):
        first_fit_windows([1, 2], lower=5, upper=3)
    with pytest.raises(ValueError, match=r"book 'x': chapter 1: .*-4"):
        BookLengths("x", [3, -4])
    subset = SubsetSpec(name="S", target=9, lower=8, upper=10, count=1)
    with pytest.raises(ValueError, match="appears more than once"):
        candidates_for_subset([BookLengths("a", [9]), BookLengths("a", [9])], subset)
    with pytest.raises(ValueError, match="unknown sampling policy"):
        candidates_for_subset([BookLengths("a", [9])], subset, "longest")  # type: ignore[arg-type]


def test_nested_windows_cut_shorter_subsets_inside_longer_ones() -> None:
    long = SubsetSpec(name="XL", target=20, lower=18, upper=22, count=1)
    short = SubsetSpec(name="L", target=10, lower=9, upper=11, count=1)
    lengths = [5, 5, 5, 5, 30, 10, 30, 9, 1]
    windows = nested_windows(lengths, [short, long], "first-fit")
    assert list(windows) == ["L", "XL"]  # the caller's order
    assert [(w.first, w.last, w.parent) for w in windows["XL"]] == [(0, 3, None)]
    # Inside XL (0..3): two L windows with XL as parent. The stretch 4..8 lies outside every
    # XL window (chapters 4 and 6 are too long for either subset), so its L windows have none.
    parents = [
        (w.first, w.last, w.parent and (w.parent.subset, w.parent.first)) for w in windows["L"]
    ]
    assert parents == [(0, 1, ("XL", 0)), (2, 3, ("XL", 0)), (5, 5, None), (7, 7, None)]


def test_recheck_recounts_only_runs_near_a_bound_and_drops_those_outside() -> None:
    subset = SubsetSpec(name="S", target=100, lower=90, upper=110, count=1)
    # Runs: (0..1) = 108 near upper, (2..3) = 100 mid-interval, (4..4) = 109 single chapter.
    books = [BookLengths("a", [54, 54, 50, 50, 109])]
    candidates = candidates_for_subset(books, subset)
    assert [r.tokens for r in candidates.runs] == [108, 100, 109]
    recounted: list[str] = []

    def joined_count(run: ChapterRun) -> int:  # pretend each joint adds 3 tokens
        recounted.append(run.id)
        return run.tokens + 3 * (run.chapters - 1)

    checked, dropped = recheck_near_bounds(candidates, joined_count, margin_per_joint=8)
    assert recounted == ["a:0000-0001"]  # a single chapter has no joint; 100 is far from both
    assert [(r.id, r.tokens) for r in dropped] == [("a:0000-0001", 111)]
    assert [(r.id, r.tokens) for r in checked.runs] == [("a:0002-0003", 100), ("a:0004-0004", 109)]
