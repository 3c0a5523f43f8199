"""Chinese and English chapter numerals: property tests against the writer, and edge forms."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lengthwise.builders.chapters import parse_chinese_number, to_chinese_number
from lengthwise.builders.chapters.en_numerals import (
    parse_english_number,
    parse_heading_number,
    parse_roman,
)
from lengthwise.builders.chapters.zh_numerals import NUMERAL_CHARS


@given(st.integers(min_value=0, max_value=9999))
def test_standard_form_round_trips(n: int) -> None:
    assert parse_chinese_number(to_chinese_number(n)) == n


@given(st.integers(min_value=0, max_value=9999))
def test_financial_form_round_trips(n: int) -> None:
    written = to_chinese_number(n, style="financial")
    assert not set(written) & set("一二三四五六七八九十百千")
    assert parse_chinese_number(written) == n


@given(st.integers(min_value=0, max_value=9999), st.sampled_from(["零", "〇"]))
def test_digit_by_digit_form_round_trips(n: int, zero: str) -> None:
    written = to_chinese_number(n, style="digits", zero=zero)  # type: ignore[arg-type]
    assert len(written) == len(str(n))
    assert parse_chinese_number(written) == n


@given(st.text(alphabet=NUMERAL_CHARS + "０１２３４５６７８９", max_size=8))
def test_any_numeral_string_parses_or_raises_value_error(s: str) -> None:
    try:
        value = parse_chinese_number(s)
    except ValueError as error:
        assert repr(s) in str(error)  # the message quotes the bad input
    else:
        assert value >= 0


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("一一九", 119),  # 红楼梦's 第一一九回
        ("一二零", 120),  # 红楼梦's 第一二零回
        ("一二〇", 120),
        ("一〇五", 105),
        ("十五", 15),
        ("一百零五", 105),
        ("一百十", 110),  # 三国演义's 第一百十回
        ("一百八", 108),  # 三国演义's 第一百八回: an ordinal, not the colloquial 180
        ("廿一", 21),
        ("廿", 20),
        ("卅", 30),
        ("一百廿三", 123),
        ("两", 2),
        ("两百", 200),
        ("一佰", 100),
        ("壹佰贰拾叁", 123),
        ("〇", 0),
        ("○", 0),
        ("01", 1),
        ("０１２", 12),
        ("一千零一", 1001),
        ("一万零五", 10005),
    ],
)
def test_printed_forms(written: str, value: int) -> None:
    assert parse_chinese_number(written) == value


@pytest.mark.parametrize("garbage", ["", "  ", "abc", "第一", "十十", "百千", "一二十", "一百零"])
def test_garbage_raises_value_error(garbage: str) -> None:
    with pytest.raises(ValueError, match="numeral"):
        parse_chinese_number(garbage)


def test_writer_rejects_out_of_range() -> None:
    with pytest.raises(ValueError, match=r"0\.\.9999"):
        to_chinese_number(10_000)


@pytest.mark.parametrize(
    ("written", "value"),
    [("I", 1), ("iv", 4), ("XLII", 42), ("MMM", 3000), ("XII.", 12), ("MCMXCIX", 1999)],
)
def test_roman_numerals(written: str, value: int) -> None:
    assert parse_roman(written) == value


@pytest.mark.parametrize("not_roman", ["IIII", "VX", "IC", "", "ABC", "MMMM", "lV", "Xl", "Vii"])
def test_non_canonical_roman_is_rejected(not_roman: str) -> None:
    assert parse_roman(not_roman) is None


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("ONE", 1),
        ("Twenty-One", 21),
        ("twenty one", 21),
        ("the First", 1),
        ("THIRTY-THIRD", 33),
        ("One Hundred and Two", 102),
        ("Fifteenth", 15),
    ],
)
def test_number_words(written: str, value: int) -> None:
    assert parse_english_number(written) == value


@pytest.mark.parametrize("words", ["and", "one one", "twenty twenty", "ten five", "Loomings"])
def test_non_numbers_are_rejected(words: str) -> None:
    assert parse_english_number(words) is None


def test_heading_number_tries_digits_roman_then_words() -> None:
    assert [parse_heading_number(s) for s in ("12", "XII", "Twelve", "Rabbit")] == [
        12,
        12,
        12,
        None,
    ]
