"""Quality checks on summaries, Chinese and English."""

from __future__ import annotations

from lengthwise.annotation.review.measure import count_units, limit_label
from lengthwise.annotation.review.quality import (
    QualitySettings,
    check_summary,
    commentary_hits,
    copied_share,
)
from lengthwise.spec import AnnotationConfig

SETTINGS = QualitySettings.from_lists(0.5)
DRAFTS_ZH = [
    "林清在渡口找到了一把铜钥匙，赵远在门口看着，一言不发。",
    "赵远带着铜钥匙去了北山驿，打开了一封密信，得知旧案另有隐情。",
]
DRAFTS_EN = [
    "Ada found a brass key near the mill while Bram watched from the doorway.",
    "Bram carried the key to the harbour and opened a sealed letter about the old debt.",
]


def test_chinese_length_counts_characters_including_punctuation_not_spaces() -> None:
    assert count_units("林清 找到了钥匙。\n", "zh") == 8
    assert limit_label(500, "zh") == "≤ 500 字"
    at_limit = check_summary("字" * 500, drafts=[], language="zh", limit=500, settings=SETTINGS)
    over = check_summary("字" * 501, drafts=[], language="zh", limit=500, settings=SETTINGS)
    assert "over_limit" not in at_limit.flags and at_limit.units == 500
    assert "over_limit" in over.flags and over.units == 501


def test_english_length_counts_words_not_punctuation() -> None:
    assert count_units("Ada — found the key, then left.", "en") == 6
    assert limit_label(600, "en") == "≤ 600 words"
    words = " ".join(["word"] * 601)
    assert (
        "over_limit"
        in check_summary(words, drafts=[], language="en", limit=600, settings=SETTINGS).flags
    )
    assert (
        "over_limit"
        not in check_summary(
            " ".join(["word"] * 600), drafts=[], language="en", limit=600, settings=SETTINGS
        ).flags
    )


def test_copying_the_drafts_is_flagged_and_rewriting_is_not_zh() -> None:
    copied = "".join(DRAFTS_ZH)
    rewritten = "赵远与林清为一把钥匙结下心结，后来北山驿的一封信揭开了多年前的案子。"
    # Only the 4-grams that straddle the two drafts are new.
    assert copied_share(copied, DRAFTS_ZH, "zh") == 1 - 3 / 48
    assert check_summary(
        copied, drafts=DRAFTS_ZH, language="zh", limit=500, settings=SETTINGS
    ).flags == ("not_rewritten",)
    report = check_summary(rewritten, drafts=DRAFTS_ZH, language="zh", limit=500, settings=SETTINGS)
    assert report.flags == () and report.copied_share is not None and report.copied_share < 0.2


def test_copying_the_drafts_is_flagged_and_rewriting_is_not_en() -> None:
    half = "Ada found a brass key near the mill. Later everyone argued over money in town."
    share = copied_share(half, DRAFTS_EN, "en")
    assert share is not None and 0.2 < share < 0.7
    strict = QualitySettings.from_lists(0.2)
    assert (
        "not_rewritten"
        in check_summary(half, drafts=DRAFTS_EN, language="en", limit=500, settings=strict).flags
    )
    assert (
        "not_rewritten"
        not in check_summary(
            half,
            drafts=DRAFTS_EN,
            language="en",
            limit=500,
            settings=QualitySettings.from_lists(0.9),
        ).flags
    )


def test_commentary_words_flag_opinion_and_meta_talk() -> None:
    zh = check_summary("本文讲述了林清寻找钥匙的故事，我认为结局很感人。", drafts=[], language="zh",
                       limit=500, settings=SETTINGS)  # fmt: skip
    assert zh.flags == ("commentary",) and zh.commentary_hits == ("本文", "我认为")
    opinion = "In my opinion the author handles the ending well."
    en = check_summary(opinion, drafts=[], language="en", limit=500, settings=SETTINGS)
    assert set(en.commentary_hits) == {"in my opinion", "the author"}
    # Whole words only: "the authority" is plot, not commentary.
    assert commentary_hits("The authority of the council was broken.", "en", SETTINGS) == ()


def test_spec_lists_extend_the_built_in_commentary_words() -> None:
    config = AnnotationConfig(commentary_words_zh=["可见"], commentary_words_en=["Masterpiece"])
    settings = QualitySettings.from_lists(
        config.max_copied_share, config.commentary_words_zh, config.commentary_words_en
    )
    assert commentary_hits("由此可见，林清早有准备。", "zh", settings) == ("可见",)
    assert commentary_hits("A masterpiece of suspense.", "en", settings) == ("masterpiece",)
    assert "本文" in settings.commentary_zh  # built-ins stay


def test_empty_and_cancelled_annotations_are_flagged_as_such() -> None:
    empty = check_summary("  \n", drafts=DRAFTS_EN, language="en", limit=500, settings=SETTINGS)
    assert empty.flags == ("empty",) and empty.units == 0
    skipped = check_summary(None, drafts=DRAFTS_EN, language="en", limit=500, settings=SETTINGS,
                            cancelled=True)  # fmt: skip
    assert skipped.flags == ("cancelled",)
