"""Characters per token per tokenizer and language (CNNSum Table 1)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from lengthwise.tokenizers import EfficiencyRow, efficiency_markdown, encoding_efficiency
from lengthwise.tokenizers.efficiency import non_whitespace_characters

SLICE_CHARS = 50_000  # per book; four books give the 200k characters the check needs


def test_whitespace_is_not_counted_as_characters() -> None:
    # CRLF line ends, a full-width indent (U+3000), tabs and spaces are all whitespace.
    assert non_whitespace_characters("\u3000\u3000第一回\r\n  甄士隐\tx y") == 8


def test_chars_tokenizer_gives_the_share_of_non_whitespace_characters() -> None:
    texts = {"zh": ["满纸 荒唐言\r\n"], "en": ["a bc", "d"]}
    rows = encoding_efficiency(texts, ["chars"])
    assert rows == [
        EfficiencyRow("zh", "chars", 5, 8, 5 / 8),
        EfficiencyRow("en", "chars", 4, 5, 4 / 5),
    ]


def test_qwen_on_the_zh_classics_gives_about_1_2_chars_per_token(shared_corpora: Path) -> None:
    folder = shared_corpora / "zh_simplified_four_classics"
    books = sorted(folder.glob("*.txt"))
    assert len(books) == 4
    # Slices from the middle of each book (away from site navigation at the top).
    slices = []
    for book in books:
        text = book.read_text(encoding="utf-8")
        middle = len(text) // 2
        slices.append(text[middle : middle + SLICE_CHARS])
    rows = encoding_efficiency({"zh": slices}, ["qwen2.5", "tiktoken:cl100k_base"])
    by_tokenizer = {row.tokenizer_id: row for row in rows}
    qwen = by_tokenizer["qwen2.5"]
    # PROBES.md measured 1.20 on the whole corpus (all characters); CNNSum reports
    # 1.40 for modern novels. Classical text with whitespace removed sits a bit lower.
    assert 1.05 < qwen.chars_per_token < 1.35
    assert qwen.characters > 0.9 * len(slices) * SLICE_CHARS
    # A Chinese-aware vocabulary beats GPT-4's on Chinese (CNNSum Table 1's point).
    assert by_tokenizer["tiktoken:cl100k_base"].chars_per_token < 0.9 * qwen.chars_per_token


def test_english_prose_is_a_few_characters_per_token(english_text: str) -> None:
    (row,) = encoding_efficiency({"en": [english_text]}, ["tiktoken:o200k_base"])
    assert 3.0 < row.chars_per_token < 6.0


def test_markdown_has_one_row_per_tokenizer_and_one_column_per_language() -> None:
    rows = [
        EfficiencyRow("zh", "qwen2.5", 1000, 800, 1.25),
        EfficiencyRow("zh", "tiktoken:cl100k_base", 1000, 1400, 1000 / 1400),
        EfficiencyRow("en", "qwen2.5", 3000, 700, 3000 / 700),
        EfficiencyRow("en", "tiktoken:cl100k_base", 3000, 0, math.nan),
    ]
    table = efficiency_markdown(rows)
    lines = table.splitlines()
    assert lines[0] == "| Tokenizer | zh | en |"
    assert lines[2] == "| `qwen2.5` | 1.25 | 4.29 |"
    assert lines[3] == "| `tiktoken:cl100k_base` | 0.71 | n/a |"
    assert "non-whitespace" in table
    assert "zh: 1,000" in table


@pytest.mark.parametrize("digits", [1, 3])
def test_markdown_precision(digits: int) -> None:
    rows = [EfficiencyRow("zh", "chars", 2, 3, 2 / 3)]
    assert f"| {2 / 3:.{digits}f} |" in efficiency_markdown(rows, digits=digits)
