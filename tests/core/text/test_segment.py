"""Words and sentences for Chinese (jieba) and English."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from lengthwise.text import cut_zh, detect_lang, segmenter_name, sentences, words


def test_chinese_words_drop_punctuation_and_whitespace_and_lowercase_latin() -> None:
    text = "我来到北京清华大学，\n He said 'Hello' 3.14 C++。"
    assert words(text, "zh", segmenter="jieba") == [
        "我",
        "来到",
        "北京",
        "清华大学",
        "he",
        "said",
        "hello",
        "3.14",
        "c++",
    ]


def test_english_words_are_lowercased_letter_and_digit_runs() -> None:
    assert words("Don't panic: it's 42, Ärger!", "en") == [
        "don",
        "t",
        "panic",
        "it",
        "s",
        "42",
        "ärger",
    ]


def test_every_language_code_segments_and_a_malformed_one_is_a_clear_error() -> None:
    """fr and de were errors; Japanese went through jieba's Chinese dictionary."""
    assert words("Ärger über la Straße", "de") == ["ärger", "über", "la", "straße"]
    assert sentences("Il vint. Elle partit.", "fr") == ["Il vint.", "Elle partit."]
    assert words("三四郎はABCを見た。", "ja") == ["三", "四", "郎", "は", "abc", "を", "見", "た"]
    assert sentences("女は黙った。「どうです」と聞いた。\n次", "ja") == [
        "女は黙った。",
        "「どうです」と聞いた。",
        "次",
    ]
    with pytest.raises(ValueError, match="unsupported language 'f-1'"):
        words("bonjour", "f-1")
    with pytest.raises(ValueError, match="unsupported language"):
        sentences("bonjour", "")


def test_chinese_sentences_keep_closing_quotes_and_split_lines() -> None:
    text = "他说：“走吧。”我们就走了！真的吗？是的……\n好\n\n。。"
    assert sentences(text, "zh") == ["他说：“走吧。”", "我们就走了！", "真的吗？", "是的……", "好"]


def test_english_sentences_skip_abbreviations_and_join_hard_wraps() -> None:
    text = 'Mr. Darcy said "Go." Then he\nleft. J. Smith came at 3.\n\nA new paragraph'
    assert sentences(text, "en") == [
        'Mr. Darcy said "Go."',
        "Then he left.",
        "J. Smith came at 3.",
        "A new paragraph",
    ]


def test_detect_lang() -> None:
    assert detect_lang("满纸荒唐言，一把辛酸泪。 Chapter 1") == "zh"
    assert detect_lang("It is a truth universally acknowledged, 一 man") == "en"


def _whole_text_words(text: str) -> list[str]:
    return [t.lower() for t in cut_zh(text, "jieba") if any(c.isalnum() for c in t)]


def test_line_by_line_segmentation_equals_segmenting_the_whole_text(shared_corpora: Path) -> None:
    # words() segments line by line (and caches lines); jieba splits at newlines itself,
    # so the result must be exactly jieba.cut on the whole text, filtered.
    path = shared_corpora / "zh_simplified_four_classics" / "hongloumeng_utf8.txt"
    text = path.read_text(encoding="utf-8")[20_000:50_000]
    assert words(text, "zh", segmenter="jieba") == _whole_text_words(text)


@pytest.mark.skipif(importlib.util.find_spec("rjieba") is None, reason="rjieba not installed")
def test_rjieba_gives_jieba_words_on_a_real_novel(shared_corpora: Path) -> None:
    path = shared_corpora / "zh_simplified_four_classics" / "sanguo_utf8.txt"
    text = path.read_text(encoding="utf-8")[:60_000]
    assert segmenter_name() == "rjieba"
    assert words(text, "zh", segmenter="rjieba") == words(text, "zh", segmenter="jieba")
