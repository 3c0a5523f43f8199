"""clean_text: configuration, errors, user rules, rule-set choice, accountability."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lengthwise.builders.cleaning import (
    KNOWN_RULESETS,
    RULESETS,
    CleaningResult,
    clean_text,
    plan_rules,
    select_rulesets,
)
from lengthwise.spec import CleaningConfig, ExtraRule

CLEAN_ZH = (
    "第一回 宴桃园豪杰三结义\n\n    话说天下大势，分久必合，合久必分。“你是谁？”他问道。\n\n"
    "第二回 张翼德怒鞭督邮\n\n    且说董卓字仲颖，陇西临洮人也。\n"
)
CLEAN_EN = (
    "CHAPTER I. Down the Rabbit-Hole\n\nAlice was beginning to get very tired; "
    "'and what is the use of a book,' thought Alice, 'without pictures?'\n\n"
    "CHAPTER II. The Pool of Tears\n\n'Curiouser and curiouser!' cried Alice.\n"
)


@pytest.mark.parametrize(("text", "language"), [(CLEAN_ZH, "zh"), (CLEAN_EN, "en")])
def test_clean_text_passes_unchanged(text: str, language: str) -> None:
    result = clean_text(text, language, CleaningConfig())
    assert result.text == text
    assert result.removed == {} and result.examples == {}


def test_only_counted_whitespace_normalisation_changes_an_untidy_clean_text() -> None:
    untidy = "\n\n" + CLEAN_ZH.replace("。\n", "。  \n").replace("\n\n第二回", "\n\n\n\n\n第二回")
    result = clean_text(untidy, "zh", CleaningConfig())
    assert result.text == CLEAN_ZH.replace("\n\n第二回", "\n\n\n第二回")  # two blank lines kept
    assert set(result.removed) == {
        "common/trailing-space",
        "common/blank-lines",
        "common/edge-blank-lines",
    }


def test_result_lists_the_rule_sets_that_ran() -> None:
    assert clean_text(CLEAN_ZH, "zh", CleaningConfig()).rulesets == ["common", "zh", "zh-web"]
    assert clean_text(CLEAN_EN, "en", CleaningConfig()).rulesets == ["common", "en"]
    explicit = clean_text(CLEAN_ZH, "zh", CleaningConfig(rulesets=["common"]))
    assert explicit.rulesets == ["common"]


def test_explicit_rule_sets_limit_what_runs() -> None:
    # A site notice only the zh-web rules know (a site name with its address glued to a
    # sentence is a disguised watermark, which `common` removes in any language).
    text = "他说,好的。\n手机用户请浏览阅读，更优质的阅读体验。\n"
    only_common = clean_text(text, "zh", CleaningConfig(rulesets=["common"]))
    assert only_common.text == text
    auto_plus = clean_text(text, "en", CleaningConfig(rulesets=["auto", "zh-web"]))
    assert "zh-web" in auto_plus.rulesets and "手机用户" not in auto_plus.text


def test_unknown_rule_set_is_named_with_the_known_ones() -> None:
    with pytest.raises(ValueError) as error:
        clean_text("x", "en", CleaningConfig(rulesets=["auto", "zh-webb"]))
    message = str(error.value)
    assert "'zh-webb'" in message
    assert all(name in message for name in ("auto", *KNOWN_RULESETS))


def test_disable_rules_turns_a_rule_off_and_unknown_names_are_errors() -> None:
    text = "皓首穷经；丫丫电子书虽有千言。\n"
    on = clean_text(text, "zh", CleaningConfig())
    off = clean_text(text, "zh", CleaningConfig(disable_rules=["zh-web/watermark"]))
    assert on.removed == {"zh-web/watermark": 1} and off.text == text
    with pytest.raises(ValueError, match=r"'zh-web/watermarks'.*zh-web/watermark"):
        clean_text(text, "zh", CleaningConfig(disable_rules=["zh-web/watermarks"]))


def test_user_rules_are_counted_under_user_prefix_with_examples() -> None:
    config = CleaningConfig(
        extra_rules=[
            ExtraRule(name="site-stamp", pattern=r"【[^】]*书城[^】]*】"),
            ExtraRule(name="spelling", pattern=r"曹孟穗", replace="曹孟德"),
            ExtraRule(name="header", pattern=r"^Scanned by .*\n", multiline=True),
        ]
    )
    text = "Scanned by Bob\n话说【某某书城首发】曹孟穗起兵。【书城】\n"
    result = clean_text(text, "zh", config)
    assert result.text == "话说曹孟德起兵。\n"
    assert result.removed == {"user/site-stamp": 2, "user/spelling": 1, "user/header": 1}
    # User rules run in the order given, on the text as it arrived (after invisible chars).
    assert result.examples["user/spelling"] == ["Scanned by Bob⏎话说⟦曹孟穗→曹孟德⟧起兵。⏎"]


def test_user_rule_can_be_disabled_by_name() -> None:
    config = CleaningConfig(
        extra_rules=[ExtraRule(name="x", pattern="x")], disable_rules=["user/x"]
    )
    assert clean_text("axb", "en", config).text == "axb"


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (ExtraRule(name="broken", pattern="(unclosed"), r"'broken'.*invalid regex '\(unclosed'"),
        (ExtraRule(name="empty", pattern="a*"), r"'empty'.*matches the empty string"),
        (ExtraRule(name="template", pattern="a", replace=r"\2"), r"'template'.*replacement"),
    ],
)
def test_bad_user_rules_are_errors_naming_the_rule(rule: ExtraRule, expected: str) -> None:
    with pytest.raises(ValueError, match=expected):
        clean_text("abc", "en", CleaningConfig(extra_rules=[rule]))


def test_duplicate_user_rule_names_are_errors() -> None:
    rules = [ExtraRule(name="x", pattern="a"), ExtraRule(name="x", pattern="b")]
    with pytest.raises(ValueError, match="duplicate"):
        clean_text("abc", "en", CleaningConfig(extra_rules=rules))


def test_auto_selection_by_language_source_and_markers() -> None:
    assert select_rulesets("zh-Hans", "files", "正文") == ["common", "zh", "zh-web"]
    assert select_rulesets("en", "files", CLEAN_EN) == ["common", "en"]
    pg = "*** START OF THE PROJECT GUTENBERG EBOOK X ***\n" + CLEAN_EN
    assert select_rulesets("en", "files", pg) == ["common", "gutenberg", "en"]
    assert select_rulesets("en", "gutenberg", CLEAN_EN) == ["common", "gutenberg", "en"]
    assert select_rulesets("en", "urls", CLEAN_EN) == ["common", "en", "en-web"]
    assert select_rulesets("fr", "files", "Bonjour") == ["common"]


def test_auto_language_is_detected() -> None:
    assert clean_text(CLEAN_ZH, "auto", CleaningConfig()).rulesets == ["common", "zh", "zh-web"]


def test_to_dict_reports_without_the_text() -> None:
    result = CleaningResult(text="t", removed={"a": 1}, examples={"a": ["x"]}, rulesets=["common"])
    assert result.to_dict() == {
        "rulesets": ["common"],
        "removed": {"a": 1},
        "examples": {"a": ["x"]},
        "chars_removed": {},
        "chars_added": {},
        "learned": [],
    }


# Fragments mixing story text with every kind of noise the rules know about.
# Line-shaped noise comes as whole lines; adverts and watermarks sit inside sentences.
ZH_FRAGMENTS = [
    "他走进屋里，", "看见了她。", "\n第一回 开始\n", "\n第二章 请假条\n", "各位书友，明天补更。",
    "\n首页|原创书库|现代|言情|排行\n", "顶点小说www.x23us.com", "丫丫电子书", "求推荐！",
    "\n更新时间：2012-03-04 本章字数：3000\n", "\n（本章完）\n", "\n后一页\n", "他说,好的.",
    "也．", "?",
]  # fmt: skip
EN_FRAGMENTS = [
    "Alice said 'yes'.", "CHAPTER I.", "Produced by Jane Doe", "_very_", "note[1]",
    "[Illustration: a cat]", "A/N: thanks",
]  # fmt: skip
# Header cuts depend on where a marker sits in the text (first half), so they are not
# mixed into the idempotence check; the dedicated Gutenberg tests cover them.
PG_MARKER = "\n*** START OF THE PROJECT GUTENBERG EBOOK X ***\n"
SHARED_FRAGMENTS = [
    "&nbsp;", "\u200b", "\t", "\u3000", " ", "  ", "\n", "\n\n", "\n\n\n\n", "\r\n", "(", ")",
]  # fmt: skip
LANGUAGE_TEXTS = st.one_of(
    st.tuples(st.just("zh"), st.lists(st.sampled_from(ZH_FRAGMENTS + SHARED_FRAGMENTS))),
    st.tuples(st.just("en"), st.lists(st.sampled_from(EN_FRAGMENTS + SHARED_FRAGMENTS))),
)


@settings(max_examples=150, deadline=None)
@given(
    parts=st.lists(st.sampled_from([*ZH_FRAGMENTS, *EN_FRAGMENTS, *SHARED_FRAGMENTS, PG_MARKER]))
)
def test_every_rule_changes_the_text_exactly_when_it_counts(parts: list[str]) -> None:
    text = "".join(parts)
    for language in ("zh", "en"):
        _, rules = plan_rules(text, language, CleaningConfig(rulesets=list(RULESETS)))
        for rule in rules:
            outcome = rule.apply(text)
            assert (outcome.count > 0) == (outcome.text != text), rule.name
            assert len(outcome.examples) == min(outcome.count, 3), rule.name
            text = outcome.text


@settings(max_examples=150, deadline=None)
@given(language_and_parts=LANGUAGE_TEXTS)
def test_cleaning_reports_any_change_and_is_idempotent(
    language_and_parts: tuple[str, list[str]],
) -> None:
    language, parts = language_and_parts
    text = "".join(parts)
    result = clean_text(text, language, CleaningConfig())
    assert (result.removed == {}) == (result.text == text)
    again = clean_text(result.text, language, CleaningConfig())
    assert again.text == result.text and again.removed == {}, again.removed
