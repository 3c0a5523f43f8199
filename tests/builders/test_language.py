"""Language detection: the C-level script counts agree with a plain per-character count."""

from __future__ import annotations

import random
import re

from lengthwise.builders.language import (
    count_ideographs,
    count_latin_letters,
    detect_language,
)

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
