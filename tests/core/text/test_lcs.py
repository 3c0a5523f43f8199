"""The bit-parallel LCS against the textbook dynamic programme."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lengthwise.text.lcs import lcs_length, lcs_length_reference

tokens = st.lists(st.sampled_from(["a", "b", "c", "的", "了"]), max_size=40)


def test_known_values() -> None:
    assert lcs_length("ABCBDAB", "BDCABA") == 4  # the CLRS example
    assert lcs_length([], ["a"]) == 0
    assert lcs_length(["x"], ["x"]) == 1


@settings(max_examples=300, deadline=None)
@given(tokens, tokens)
def test_matches_the_dynamic_programme(a: list[str], b: list[str]) -> None:
    assert lcs_length(a, b) == lcs_length_reference(a, b) == lcs_length(b, a)
