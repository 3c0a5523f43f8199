"""IC chunks stay within the token limit; judge verdicts are parsed strictly."""

from __future__ import annotations

import itertools

import pytest

from lengthwise.releases.stats.chunking import chunk_text
from lengthwise.releases.stats.judge_prompts import PROMPT_VERSION, judge_prompt, parse_verdict
from lengthwise.tokenizers import get_tokenizer


def test_chunks_respect_the_limit_and_rebuild_the_text() -> None:
    chars = get_tokenizer("chars")
    text = "".join(f"第{k}段。{'很长的句子' * (k % 7)}！\n" for k in range(200))
    chunks = chunk_text(text, chars, 50)
    assert all(chars.count(c) <= 50 for c in chunks)
    assert "".join(chunks) == text
    # Packed greedily: no two neighbours would fit together.
    assert all(chars.count(a + b) > 50 for a, b in itertools.pairwise(chunks))


def test_an_overlong_line_is_split_at_sentences_then_characters() -> None:
    chars = get_tokenizer("chars")
    text = "短句。" * 10 + "没" * 130  # one line; the last sentence has no end mark
    chunks = chunk_text(text, chars, 40)
    assert all(len(c) <= 40 for c in chunks)
    assert "".join(chunks) == text
    assert chunks[0].endswith("。")  # cut at a sentence end where there is one


def test_chunks_with_a_real_bpe_tokenizer() -> None:
    qwen = get_tokenizer("qwen2.5")
    text = "\n".join(
        f"Paragraph {k}: the quick brown fox jumps over the lazy dog {k} times." for k in range(300)
    )
    chunks = chunk_text(text, qwen, 512)
    assert len(chunks) > 1
    assert all(qwen.count(c) <= 512 for c in chunks)
    assert "".join(chunks) == text


@pytest.mark.parametrize(
    ("answer", "lang", "verdict"),
    [
        ("The passage sets up the plot.\nFinal score: 1", "en", 1),
        ("Reasoning...\n\nFinal score: 0\n\n  ", "en", 0),
        ("  Final score: 1  ", "en", 1),
        ("**Final score: 1**", "en", None),
        ("Final score: 1.", "en", None),
        ("final score: 1", "en", None),
        ("Final score: 2", "en", None),
        ("Final score: 0.5", "en", None),
        ("Final score: 1\nHope this helps.", "en", None),
        ("I would say 1.", "en", None),
        ("", "en", None),
        ("这一段交代了主要情节。\n最终得分：1", "zh", 1),
        ("最终得分：0", "zh", 0),
        ("最终得分:1", "zh", None),  # half-width colon
        ("最终得分： 1", "zh", None),
        ("Final score: 1", "zh", None),  # the other language's line
        ("最终得分：1", "en", None),
    ],
)
def test_verdicts_are_parsed_strictly(answer: str, lang: str, verdict: int | None) -> None:
    assert parse_verdict(answer, lang) == verdict


def test_prompts_carry_the_chunk_the_task_and_the_required_final_line() -> None:
    en = judge_prompt("  Chunk text.  ", "en", 2, 5)
    assert "Chunk text." in en and "passage 2 of 5" in en
    assert '"Final score: 1"' in en and "summary" in en
    zh = judge_prompt("片段内容", "zh", 1, 3)
    assert "片段内容" in zh and "第1段，共3段" in zh and "最终得分：1" in zh
    assert PROMPT_VERSION.startswith("ic-judge-")
    with pytest.raises(ValueError, match="no judge prompt for language 'fr'"):
        judge_prompt("x", "fr", 1, 1)
