"""Property tests of the window algorithms against independent recounts and a reference."""

from __future__ import annotations

import random
import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from lengthwise.builders.sampling import (
    BookLengths,
    build_candidates,
    candidates_for_subset,
    closest_windows,
    first_fit_windows,
    nested_candidates,
)
from lengthwise.spec import SamplingConfig, SubsetSpec, cnnsum_subsets

lengths_lists = st.lists(st.integers(min_value=0, max_value=60), max_size=60)


@st.composite
def bounds(draw: st.DrawFn) -> tuple[int, int, int]:
    lower = draw(st.integers(min_value=1, max_value=120))
    upper = lower + draw(st.integers(min_value=0, max_value=120))
    target = draw(st.integers(min_value=lower, max_value=upper))
    return lower, upper, target


def reference_first_fit(lengths: list[int], lower: int, upper: int) -> list[tuple[int, int]]:
    """The three rules read literally: a window is a list of chapter indices."""
    recorded: list[tuple[int, int]] = []
    window: list[int] = []
    for chapter in range(len(lengths)):  # rule 1: add chapters one by one
        window.append(chapter)
        while window:  # rule 2
            total = sum(lengths[i] for i in window)
            if total < lower:
                break  # keep adding
            if total <= upper:
                recorded.append((window[0], window[-1]))
                window = []  # restart after the last chapter
                break
            window.pop(0)  # too long: drop from the front and look again
    return recorded  # rule 3: the book ended; an unfinished window is not recorded


def check_windows(
    lengths: list[int], windows: list[tuple[int, int]], lower: int, upper: int
) -> None:
    previous_last = -1
    for first, last in windows:
        assert previous_last < first <= last < len(lengths)  # contiguous, ordered, disjoint
        assert lower <= sum(lengths[first : last + 1]) <= upper
        previous_last = last


@settings(deadline=None)  # timing varies on shared CI machines
@given(lengths_lists, bounds())
def test_first_fit_matches_the_literal_rules(
    lengths: list[int], bound: tuple[int, int, int]
) -> None:
    lower, upper, _ = bound
    windows = first_fit_windows(lengths, lower, upper)
    check_windows(lengths, windows, lower, upper)
    assert windows == reference_first_fit(lengths, lower, upper)


@settings(deadline=None)  # timing varies on shared CI machines
@given(lengths_lists, bounds())
def test_closest_windows_are_valid_and_cannot_get_closer(
    lengths: list[int], bound: tuple[int, int, int]
) -> None:
    lower, upper, target = bound
    windows = closest_windows(lengths, lower, upper, target)
    check_windows(lengths, windows, lower, upper)
    for first, last in windows:
        total = sum(lengths[first : last + 1])
        if last + 1 < len(lengths):
            extended = total + lengths[last + 1]
            assert extended > upper or abs(extended - target) >= abs(total - target)
    # Closest starts each window where first-fit would, so it finds a window in a book
    # exactly when first-fit does.
    assert bool(windows) == bool(first_fit_windows(lengths, lower, upper))


@settings(deadline=None)  # timing varies on shared CI machines
@given(
    st.lists(lengths_lists, min_size=1, max_size=4),
    bounds(),
    st.sampled_from(["first-fit", "closest"]),
)
def test_candidates_are_runs_of_one_book_recounted_within_bounds(
    books_lengths: list[list[int]], bound: tuple[int, int, int], policy: str
) -> None:
    lower, upper, target = bound
    books = [BookLengths(f"book{i}", lengths) for i, lengths in enumerate(books_lengths)]
    subset = SubsetSpec(name="S", target=target, lower=lower, upper=upper, count=3)
    candidates = candidates_for_subset(books, subset, policy)  # type: ignore[arg-type]
    by_book = {book.book_id: list(book.chapter_tokens) for book in books}
    for book_id, lengths in by_book.items():
        windows = [(r.first, r.last) for r in candidates.runs if r.book_id == book_id]
        check_windows(lengths, windows, lower, upper)
    for run in candidates.runs:
        assert run.tokens == sum(by_book[run.book_id][run.first : run.last + 1])
        assert run.id == f"{run.book_id}:{run.first:04d}-{run.last:04d}"
    too_long = [t for lengths in books_lengths for t in lengths if t > upper]
    assert (candidates.unusable_chapters, candidates.unusable_tokens) == (
        len(too_long),
        sum(too_long),
    )


@st.composite
def nested_subsets(draw: st.DrawFn) -> list[SubsetSpec]:
    subsets = []
    lower = draw(st.integers(min_value=1, max_value=40))
    for name in ("L", "XL", "2XL"):
        upper = lower + draw(st.integers(min_value=0, max_value=40))
        subsets.append(SubsetSpec(name=name, target=upper, lower=lower, upper=upper, count=2))
        lower = upper + draw(st.integers(min_value=1, max_value=40))
    return subsets


@settings(deadline=None)  # timing varies on shared CI machines
@given(st.lists(lengths_lists, min_size=1, max_size=3), nested_subsets(), st.booleans())
def test_nested_runs_lie_inside_their_parents(
    books_lengths: list[list[int]], subsets: list[SubsetSpec], closest: bool
) -> None:
    books = [BookLengths(f"b{i}", lengths) for i, lengths in enumerate(books_lengths)]
    sets = nested_candidates(books, subsets, "closest" if closest else "first-fit")
    all_runs = {(name, run.id): run for name, cs in sets.items() for run in cs.runs}
    target_of = {s.name: s.target for s in subsets}
    for name, candidate_set in sets.items():
        lengths_of = {b.book_id: list(b.chapter_tokens) for b in books}
        for book_id, lengths in lengths_of.items():
            windows = [(r.first, r.last) for r in candidate_set.runs if r.book_id == book_id]
            check_windows(lengths, windows, candidate_set.subset.lower, candidate_set.subset.upper)
        for run in candidate_set.runs:
            if run.parent_id is None:
                continue
            assert run.parent_subset is not None
            parent = all_runs[(run.parent_subset, run.parent_id)]
            assert parent.book_id == run.book_id
            assert parent.first <= run.first <= run.last <= parent.last
            assert target_of[run.parent_subset] > target_of[name]


def test_nested_runs_of_a_long_book_form_paired_series() -> None:
    rng = random.Random(5)
    books = [
        BookLengths(f"b{i}", [rng.randint(2_000, 9_000) for _ in range(120)]) for i in range(3)
    ]
    sets = build_candidates(books, cnnsum_subsets(), SamplingConfig(nested=True))
    with_parent = [run for run in sets["L"].runs if run.parent_subset == "XL"]
    assert len(with_parent) > len(sets["XL"].runs)  # most XL runs hold at least one L run
    assert all(run.parent_id is None for run in sets["3XL"].runs)


def test_closest_moves_the_median_towards_the_target() -> None:
    rng = random.Random(11)
    lengths = [rng.randint(500, 4_000) for _ in range(3_000)]
    lower, upper, target = 13_000, 18_432, 16_384
    first_fit = [sum(lengths[a : b + 1]) for a, b in first_fit_windows(lengths, lower, upper)]
    closest = [sum(lengths[a : b + 1]) for a, b in closest_windows(lengths, lower, upper, target)]
    assert abs(statistics.median(closest) - target) < abs(statistics.median(first_fit) - target)
    assert statistics.median(first_fit) < target - 1_000  # first-fit bunches near lower


def test_candidates_for_500_books_and_4_subsets() -> None:
    rng = random.Random(3)
    books = [
        BookLengths(f"book{i:03d}", [rng.randint(2_000, 12_000) for _ in range(120)])
        for i in range(500)
    ]
    for sampling in (
        SamplingConfig(),
        SamplingConfig(policy="closest"),
        SamplingConfig(nested=True),
    ):
        sets = build_candidates(books, cnnsum_subsets(), sampling)
        assert all(cs.runs for cs in sets.values())
