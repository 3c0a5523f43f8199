"""zh punctuation and common whitespace rules on hand-written strings."""

from __future__ import annotations

from lengthwise.builders.cleaning import RULES_BY_NAME, clean_text
from lengthwise.spec import CleaningConfig


def apply(name: str, text: str) -> tuple[str, int]:
    outcome = RULES_BY_NAME[name].apply(text)
    return outcome.text, outcome.count


def test_ascii_punctuation_between_chinese_becomes_full_width() -> None:
    text = '他说,好的.我们走吧!\n他问:你是谁?"\n(见前文)中;完\n'
    assert apply("zh/ascii-punctuation", text) == (
        '他说，好的。我们走吧！\n他问：你是谁？"\n（见前文）中；完\n',
        7,
    )


def test_ascii_punctuation_outside_chinese_context_is_kept() -> None:
    text = "版本3.5,时间12:30,网址www.abc.com,省略...好(ok)\n"
    assert apply("zh/ascii-punctuation", text) == (text, 0)


def test_question_mark_between_ideographs_is_a_lost_character_and_kept() -> None:
    text = "不觉飞觥限?起来．宝玉道：“这是什么?”\n"
    assert apply("zh/ascii-punctuation", text) == ("不觉飞觥限?起来．宝玉道：“这是什么？”\n", 1)


def test_punctuation_inside_parentheses_is_judged_on_its_own() -> None:
    assert apply("zh/ascii-punctuation", "甲(乙,丙)丁\n") == ("甲（乙，丙）丁\n", 1)


def test_fullwidth_period_after_chinese_becomes_the_chinese_full_stop() -> None:
    text = "此开卷第一回也．作者自云：“梦幻．”故曰．．．圆周率３．１４\n"
    assert apply("zh/fullwidth-period", text) == (
        "此开卷第一回也。作者自云：“梦幻。”故曰．．．圆周率３．１４\n",
        2,
    )


def test_fullwidth_punctuation_can_be_switched_off() -> None:
    text = "他说,好的.\n"
    on = clean_text(text, "zh", CleaningConfig())
    off = clean_text(text, "zh", CleaningConfig(fullwidth_punctuation_zh=False))
    assert on.text == "他说，好的。\n" and on.removed == {"zh/ascii-punctuation": 2}
    assert off.text == text and off.removed == {}


def test_trailing_whitespace_and_whitespace_only_lines() -> None:
    text = "第一回 标题\n\n    \t\t\n\n    正文。  \n末行\u3000"
    assert apply("common/trailing-space", text) == ("第一回 标题\n\n\n\n    正文。\n末行", 3)


def test_more_than_two_blank_lines_become_two() -> None:
    text = "a\n\n\nb\n\n\n\n\n\nc\n\n\n\nd"
    assert apply("common/blank-lines", text) == ("a\n\n\nb\n\n\nc\n\n\nd", 2)


def test_zero_width_and_control_characters_are_removed() -> None:
    assert apply("common/zero-width", "\ufeff正\u200b文\u00ad。") == ("正文。", 3)
    assert apply("common/control-chars", "page one\x0c\npage two\x00") == (
        "page one\npage two",
        2,
    )


def test_exotic_indentation_becomes_ascii_spaces_and_is_kept() -> None:
    text = "\u3000\u3000正文一。\n\t正文二。\n\xa0\xa0正文三。\n    正文四。\n"
    assert apply("common/indent", text) == (
        "    正文一。\n    正文二。\n  正文三。\n    正文四。\n",
        3,
    )


def test_heading_with_ideographic_space_inside_is_untouched() -> None:
    text = "第一回  甄士隐梦幻识通灵\u3000贾雨村风尘怀闺秀\n正文。\n"
    result = clean_text(text, "zh", CleaningConfig())
    assert result.text == text and result.removed == {}


def test_tab_runs_inside_a_line_become_one_space() -> None:
    assert apply("common/tab-run", "甲\t\t乙 \t 丙\n") == ("甲 乙 丙\n", 2)


def test_line_endings_and_html_entities() -> None:
    assert apply("common/line-endings", "a\r\nb\rc") == ("a\nb\nc", 2)
    assert apply("common/html-entity", "Tom&nbsp;&amp;&nbsp;Jerry &#8220;hi&#8221;") == (
        "Tom & Jerry “hi”",
        5,
    )


def test_blank_lines_at_the_edges() -> None:
    assert apply("common/edge-blank-lines", "\n\n\nstory\n\n\n") == ("story\n", 2)
    assert apply("common/edge-blank-lines", "story\n") == ("story\n", 0)
