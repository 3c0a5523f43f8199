"""The three rule kinds: counting, examples, line removal, preconditions."""

from __future__ import annotations

import re

import pytest

from lengthwise.builders.cleaning.line_rules import LineRule, candidate_lines
from lengthwise.builders.cleaning.rules import (
    EXAMPLE_MAX_CHARS,
    MAX_EXAMPLES,
    BlockRule,
    Rule,
    contains_any,
    format_example,
)

DROP_X = Rule(name="t/x", description="drop x", pattern=re.compile("x+"), triggers=("x",))


def test_rule_counts_each_match_and_rejoins_the_text() -> None:
    outcome = DROP_X.apply("axxb x c")
    assert outcome.text == "ab  c"
    assert outcome.count == 2


def test_rule_that_does_not_fire_returns_the_same_text_and_no_examples() -> None:
    outcome = DROP_X.apply("abc")
    assert (outcome.text, outcome.count, outcome.examples) == ("abc", 0, [])


def test_examples_are_capped_at_three_and_show_context_and_the_change() -> None:
    text = " ".join(f"word{i} x" for i in range(10))
    outcome = DROP_X.apply(text)
    assert outcome.count == 10
    assert len(outcome.examples) == MAX_EXAMPLES
    assert outcome.examples[0] == "word0 ⟦x⟧ word1 x word2 x wor"


def test_long_changes_are_shortened_to_about_120_chars() -> None:
    text = "before " + "y" * 500 + " after"
    example = format_example(text, 7, 507)
    assert len(example) <= EXAMPLE_MAX_CHARS
    assert example.startswith("before ⟦yyy") and "…" in example


def test_replacements_show_old_and_new_and_newlines_are_visible() -> None:
    rule = Rule(name="t/dash", description="", pattern=re.compile(r"--"), replacement="—")
    outcome = rule.apply("one--two\nthree")
    assert outcome.examples == ["one⟦--→—⟧two⏎three"]


def test_function_replacement_counts_only_real_changes() -> None:
    rule = Rule(
        name="t/upper",
        description="",
        pattern=re.compile(r"[a-z]+"),
        replacement=lambda m: m.group().upper() if m.group() == "abc" else m.group(),
    )
    outcome = rule.apply("abc def abc")
    assert (outcome.text, outcome.count) == ("ABC def ABC", 2)


def test_line_start_rule_sees_the_first_line_too() -> None:
    rule = Rule(
        name="t/ad-line",
        description="",
        pattern=re.compile(r"\nAD[^\n]*(?=\n|\Z)"),
        line_start=True,
    )
    assert rule.apply("AD one\nstory\nAD two\nend").text == "story\nend"


def test_triggers_skip_the_regex_when_absent() -> None:
    calls: list[str] = []

    def finder(text: str) -> list[tuple[int, int]]:
        calls.append(text)
        return [(0, 1)]

    rule = BlockRule(name="t/block", description="", find_blocks=finder, triggers=("zz",))
    assert rule.apply("abc").count == 0 and not calls
    assert rule.apply("zzabc").text == "zabc" and calls


def test_block_rule_merges_overlapping_spans_and_counts_blocks() -> None:
    rule = BlockRule(
        name="t/block", description="", find_blocks=lambda text: [(0, 3), (2, 5), (8, 9)]
    )
    outcome = rule.apply("0123456789")
    assert (outcome.text, outcome.count) == ("5679", 2)


def test_contains_any_uses_ascii_part_without_false_answers() -> None:
    chinese = "这是一段中文" * 1000 + "w中w中w"  # ASCII "www" only with gaps
    assert not contains_any(chinese, ("www",))
    assert contains_any(chinese + "www", ("www",))
    assert contains_any(chinese + "\x0c", ("\x0c",))
    assert not contains_any(chinese, ("\x0b", "|"))


AD_LINE = LineRule(
    name="t/ad",
    description="",
    pattern=re.compile(r"^\s*AD\b.*$|\[ad\]"),
    anchors=("AD", "[ad]"),
)


def test_line_rule_removes_a_line_with_the_blank_lines_above_it() -> None:
    text = "para one\n\nAD buy now\n\npara two\nAD again\npara three\n"
    outcome = AD_LINE.apply(text)
    assert outcome.text == "para one\n\npara two\npara three\n"
    assert outcome.count == 2


def test_line_rule_cuts_inline_and_keeps_the_rest_of_the_line() -> None:
    outcome = AD_LINE.apply("start [ad]middle[ad] end\nAD\n")
    assert outcome.text == "start middle end\n"
    assert outcome.count == 3


def test_line_rule_on_the_first_line_takes_its_newline() -> None:
    assert AD_LINE.apply("AD top\nstory").text == "story"


def test_line_rule_locator_marks_candidates_at_line_starts() -> None:
    locator = re.compile(r"\n *+AD")
    assert candidate_lines("AD x\nno AD\n  AD y", (), locator) == [(0, 4), (11, 17)]


def test_line_rule_needs_anchors_or_a_locator() -> None:
    with pytest.raises(ValueError, match="t/none"):
        LineRule(name="t/none", description="", pattern=re.compile("x"))
