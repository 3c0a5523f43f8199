"""Reading answers: label orders, names, sections, yes/no, token F1, rank metrics."""

from __future__ import annotations

import pytest

from lengthwise.evaluation.samples import EvalSample
from lengthwise.evaluation.tasks.answers import (
    kendall_tau,
    lcs_ratio,
    name_set,
    read_items,
    read_labels,
    set_f1,
    token_f1,
)
from lengthwise.evaluation.tasks.ordering import OrderingTask
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


@pytest.mark.parametrize(
    "answer",
    [
        "A close reading gives B, A, D, C.",  # the article "A" is no label
        "BADC",
        "badc",
        "b, a, d, c",
        "b a d c",
        "B-A-D-C",
        "B then A then D then C",
        "Segment B, Segment A, Segment D and Segment C",
        "A and C are close, but the order is B A D C.",
        "答案：片段B、片段A、片段D、片段C。",
        "正确顺序是BADC",
        "B comes first, then A; D follows and C ends it.",
    ],
)
def test_free_form_orders_are_read(answer: str) -> None:
    assert read_labels(answer, ["B", "A", "D", "C"]) == ["B", "A", "D", "C"]


@pytest.mark.parametrize("answer", ["B A D", "A B A D", "I cannot tell.", "BAD C"])
def test_answers_without_a_full_order_are_unreadable(answer: str) -> None:
    assert read_labels(answer, ["B", "A", "D", "C"]) is None


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


def _ordering_sample(answers: list[str]) -> EvalSample:
    return EvalSample("o", "ordering-S", "en", "ctx", None, 100, family="ordering",
                      answers=tuple(answers))  # fmt: skip


def test_a_right_answer_is_never_counted_as_copying_the_example() -> None:
    task = OrderingTask()
    # the parts shown in reading order (older releases): the example is the answer
    shown_in_order = _ordering_sample(["A", "B", "C", "D"])
    assert task.score("A B C D", shown_in_order).copied_example is False
    shuffled = _ordering_sample(["B", "A", "D", "C"])
    assert task.score("A B C D", shuffled).copied_example is True
    assert task.score("B A D C", shuffled).copied_example is False
