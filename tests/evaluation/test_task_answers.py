"""Reading answers: label orders, names, sections, yes/no, token F1, rank metrics."""

from __future__ import annotations

import pytest

from lengthwise.evaluation.tasks.answers import (
    kendall_tau,
    lcs_ratio,
    name_set,
    read_items,
    read_labels,
    set_f1,
    token_f1,
)
from lengthwise.evaluation.tasks.qa import says_unanswerable, yes_no
from lengthwise.evaluation.tasks.sections import read_sections


def test_label_orders_are_read_in_any_usual_form() -> None:
    letters = ["B", "A", "D", "C"]
    assert read_labels("B A D C", letters) == letters
    assert read_labels("[B], [A], [D], [C]", letters) == letters
    assert read_labels("First I compare them.\nOrder: B, A, D, C", letters) == letters
    assert read_labels("B A D", letters) is None  # a label missing: unreadable
    numbers = ["[3]", "[1]", "[4]", "[2]"]
    assert read_labels("3 1 4 2", numbers) == numbers
    assert read_labels("［3］→［1］→［4］→［2］", numbers) == numbers  # full-width brackets


def test_rank_metrics() -> None:
    order = ["a", "b", "c", "d"]
    assert kendall_tau(order, order) == 1.0
    assert kendall_tau(order[::-1], order) == -1.0
    assert lcs_ratio(["b", "a", "c", "d"], order) == 0.75


def test_names_match_after_normalisation() -> None:
    said = name_set(read_items("1. Mr. Darcy\n- Elizabeth Bennet, Jane Bennet"))
    assert said == {"mrdarcy", "elizabethbennet", "janebennet"}
    assert set_f1(said, name_set(["Mr Darcy", "Elizabeth Bennet"])) == pytest.approx(0.8)
    assert name_set(read_items("林黛玉、贾宝玉，王熙凤")) == {"林黛玉", "贾宝玉", "王熙凤"}


def test_sections_are_read_by_their_markers_or_lines() -> None:
    assert read_sections("[1] one\n[2] two\n[3] three", 3) == ["one", "two", "three"]
    assert read_sections("[Section 1]\none\n[Section 2]\ntwo", 2) == ["one", "two"]
    assert read_sections("【第1部分】甲\n【第2部分】乙", 2) == ["甲", "乙"]
    assert read_sections("first\nsecond", 2) == ["first", "second"]
    assert read_sections("[1] only one", 2) is None


def test_short_answers() -> None:
    assert token_f1("Off the coast of Australia", "off the coast of australia.") == 1.0
    assert token_f1("在北京", "北京") == pytest.approx(0.8)
    assert yes_no("Yes, because ...") == "yes" and yes_no("否，因为") == "no"
    assert yes_no("Perhaps") is None
    assert says_unanswerable("Unanswerable.") and says_unanswerable("文中没有提到。")
    assert not says_unanswerable("Off the coast of Australia")
