"""decode_bytes on hostile input: mostly-ASCII text with stray bytes, and legacy codecs that must
decode into plausible text before they are believed (issue 14, point 7)."""

from __future__ import annotations

import random
import unicodedata
from pathlib import Path

import pytest

from lengthwise.builders.sources.decoding import decode_bytes
from lengthwise.builders.sources.errors import SourceError

ENGLISH = "It was the best of times, it was the worst of times, it was the age of wisdom.\n"


def _odd_characters(text: str) -> list[str]:
    """Characters no English text should gain: private use, half-width kana, CJK, controls."""
    return [
        char
        for char in text
        if (unicodedata.category(char) in ("Co", "Cc", "Cn") and char not in "\n\t")
        or "\uff61" <= char <= "\uff9f"
        or "\u3000" <= char <= "\u9fff"
    ]


@pytest.mark.parametrize(
    "junk",
    [b"\xff\xfe", b"\x81", b"\x82\xa0\x9f", b"\xa0", b"\x8d\xfc\xfd\x9d", b"\x9c\x9e"],
)
def test_stray_bytes_in_english_are_replaced_and_counted_as_utf8(junk: bytes) -> None:
    data = (ENGLISH * 200).encode() + b"Stray bytes " + junk + b" here.\n" + (ENGLISH * 50).encode()

    decoded = decode_bytes(data, "stray.txt")

    assert decoded.encoding == "utf-8"
    assert decoded.undecodable_bytes == len(junk)
    assert _odd_characters(decoded.text) == []
    assert decoded.text.replace("\ufffd" * len(junk), "") == (
        ENGLISH * 200 + "Stray bytes  here.\n" + ENGLISH * 50
    )
    assert len(decoded.warnings) == 1 and "stray.txt" in decoded.warnings[0]


def test_a_single_nbsp_byte_between_letters_is_not_big5() -> None:
    data = (ENGLISH * 300).encode() + b"x\xa0y\n" + (ENGLISH * 100).encode()
    decoded = decode_bytes(data, "nbsp.txt")
    assert decoded.encoding == "utf-8"
    assert decoded.undecodable_bytes == 1
    assert "nbsp.txt" in decoded.warnings[0]


@pytest.mark.parametrize(
    "text",
    [
        "I went to the café today.\n" + "Some text.\n" * 50,
        "Some text.\n" * 50 + "A naïve “quoted” remark — in Zürich, ça va.\n",
        "Smart quotes only: “Hello,” she said… it’s late.\n" * 20,
    ],
)
def test_latin_text_in_cp1252_is_cp1252(text: str) -> None:
    decoded = decode_bytes(text.encode("cp1252"), "latin.txt")
    assert decoded.encoding == "cp1252"
    assert decoded.text == text
    assert decoded.undecodable_bytes == 0


def test_central_european_text_keeps_its_own_codec() -> None:
    text = "Zażółć gęślą jaźń, powiedział Łukasz. Świat się kręci.\n" * 40
    decoded = decode_bytes(text.encode("cp1250"), "polish.txt")
    assert decoded.text == text


def test_english_with_chinese_names_in_gbk_is_gbk() -> None:
    text = ENGLISH * 40 + "The poet 李白 and the painter 王维 met in 长安.\n" + ENGLISH * 40
    decoded = decode_bytes(text.encode("gbk"), "names.txt")
    assert decoded.encoding == "gb18030"
    assert decoded.text == text


def test_flattened_big5_with_question_mark_placeholders_is_big5(shared_corpora: Path) -> None:
    # A Big5 export of a traditional novel: characters Big5 lacks became "?", and the file has
    # no line breaks, so no sample can be cut at one.
    source = shared_corpora / "zh_pg_flattened" / "fengshen_flat.txt"
    text = source.read_text(encoding="utf-8")[:200_000]
    data = text.encode("big5", errors="replace")
    assert data.count(b"?") > 100

    decoded = decode_bytes(data, "fengshen-big5.txt")

    assert decoded.encoding in ("big5", "cp950", "big5hkscs")
    assert decoded.undecodable_bytes == 0
    assert decoded.text == data.decode("big5")


def test_big5_with_random_placeholders_is_big5(zh_texts: dict[str, str]) -> None:
    rng = random.Random(7)
    text = "".join("?" if rng.random() < 0.1 else c for c in zh_texts["traditional"] * 20)
    decoded = decode_bytes(text.encode("big5"), "placeholders.txt")
    assert decoded.encoding.startswith("big5") or decoded.encoding == "cp950"
    assert decoded.text == text


def test_shift_jis_japanese_is_still_read() -> None:
    text = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\n" * 30
    decoded = decode_bytes(text.encode("shift_jis"), "neko.txt")
    assert decoded.text == text


def test_mostly_ascii_junk_beyond_the_budget_is_not_text() -> None:
    rng = random.Random(3)
    junk = bytes(rng.choice((0x81, 0x8D, 0x8F, 0x90, 0x9D, 0xFF)) for _ in range(400))
    data = ENGLISH.encode() * 20 + junk
    with pytest.raises(SourceError) as caught:
        decode_bytes(data, "junk.txt")
    assert caught.value.key == "binary-file"
    assert "junk.txt" in str(caught.value)
