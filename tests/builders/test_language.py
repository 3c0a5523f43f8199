"""Language detection: the C-level script counts agree with a plain per-character count."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from lengthwise.builders import language
from lengthwise.builders.language import (
    count_ideographs,
    count_latin_letters,
    detect_language,
    is_supported,
)
from lengthwise.builders.sources.local import read_local
from lengthwise.records import SourceDocument

_IDEOGRAPH = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
# Neighbours of every range edge, the hexagrams sharing U+4Dxx, a non-BMP ideograph
# (a surrogate pair in UTF-16), a lone surrogate, accented Latin, full-width letters.
_EDGES = (
    "\u33ff\u3400\u4dbf\u4dc0\u4dff\u4e00\u9fff\ua000\uf8ff\uf900\ufaff\ufb00"
    "\U00020000\U0010fffd\ud800éÀ@[`{AZazＡｚ。 \n?"
)


def test_counts_match_a_plain_count_on_edge_characters() -> None:
    rng = random.Random(7)
    for _ in range(200):
        text = "".join(rng.choice(_EDGES) for _ in range(rng.randrange(0, 40)))
        assert count_ideographs(text) == len(_IDEOGRAPH.findall(text)), ascii(text)
        assert count_latin_letters(text) == len(_LATIN.findall(text)), ascii(text)


def test_detects_chinese_and_english() -> None:
    assert detect_language("满纸荒唐言，一把辛酸泪。Hello") == "zh"
    assert detect_language("It was the best of times, 北京.") == "en"
    assert detect_language("䷀䷁䷂ abc") == "en"  # hexagrams are not ideographs


# Synthetic prose written for these tests (a few sentences each, repeated to book-like
# length): the language identifier must name them; the fast paths never see them.
_PROSE = {
    "fr": "Il était une fois, dans une petite ville de province, un homme qui ne savait "
    "pas ce qu'il voulait. Sa femme lui disait souvent qu'il fallait prendre une décision. ",
    "de": "Es war einmal in einer kleinen Stadt ein Mann, der nicht wusste, was er wollte. "
    "Seine Frau sagte ihm oft, dass er sich endlich entscheiden müsse. ",
    "ru": "Жил-был в одном маленьком городе человек, который не знал, чего он хочет. "
    "Жена часто говорила ему, что надо принять решение. ",
    "ja": "昔々、ある小さな町に、自分が何を望んでいるのか分からない男が住んでいました。"
    "妻はいつも、早く決めなければならないと彼に言っていました。",
    "ko": "옛날 어느 작은 마을에 자기가 무엇을 원하는지 모르는 남자가 살았습니다. "
    "아내는 그에게 빨리 결정해야 한다고 자주 말했습니다. ",
}


def test_names_languages_without_rule_sets_instead_of_calling_them_english() -> None:
    for code, prose in _PROSE.items():
        assert detect_language(prose * 20) == code, code
    assert not is_supported("fr") and is_supported("zh-Hans") and is_supported("en_US")


def test_short_or_unidentifiable_texts_keep_the_script_guess() -> None:
    assert detect_language(_PROSE["fr"]) == "en"  # too few letters to believe an identifier
    assert detect_language("Aaa bbb ccc. " * 100) == "en"  # the identifier is not sure


def test_shared_books_take_the_fast_paths(
    shared_corpora: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every shared zh and en book is named without the identifier (which costs a load)."""

    def no_identifier() -> None:
        raise AssertionError("the identifier was consulted")

    monkeypatch.setattr(language, "_identifier", no_identifier)
    folders = {
        "zh": ["zh_simplified_four_classics", "zh_pg_flattened"],
        "en": ["en_pg_stripped", "en_pg_raw"],
    }
    for code, names in folders.items():
        for name in names:
            for doc in read_local(shared_corpora / name):
                assert isinstance(doc, SourceDocument)
                assert detect_language(doc.text) == code, doc.source
