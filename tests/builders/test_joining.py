"""The short tails behind exact run counts: count(chapter + separator) from two tiny counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.joining import (
    CHAPTER_SEPARATOR,
    followed_tail,
    last_pretoken_start,
    render_chapter,
    word_end_start,
)
from lengthwise.tokenizers import get_tokenizer

ADDITIVE = ["qwen2.5", "tiktoken:cl100k_base", "tiktoken:o200k_base", "chars"]

# Endings chosen to break a careless boundary: marks, digits, contractions, spaces before
# punctuation, letters the tail rule must not treat as safe, punctuation-only last lines.
ENDINGS = [
    "他说道：“好。”",
    "他笑道：“你来了？”……",
    "第二天一早",
    "the end.",
    'he said, "Go!"',
    "worth 12345.",
    "number 7",
    "I'm.",
    "the boys'",
    "it's",
    "word .",
    "word  .  !",
    "caf\u00e9.",
    "cafe\u0301.",
    "cafe\u0301",
    "naïve—",
    "Ｆｕｌｌｗｉｄｔｈ。",
    "한국어 문장.",
    "ελληνικά;",
    "emoji 😀.",
    "tab\t.",
    "line one.\n……",
    "line one\n\u3000\u3000“好。”",
    "……",
    "。",
    "a",
    "x" * 40 + "!" * 40,
]


@pytest.mark.parametrize("tokenizer_id", ADDITIVE)
def test_followed_count_from_tail_equals_full_count(tokenizer_id: str) -> None:
    tokenizer = get_tokenizer(tokenizer_id)
    for ending in ENDINGS:
        rendered = "CHAPTER I\nSome opening words, 一些开头的话。\n" + ending
        tail = followed_tail(rendered)
        assert rendered.endswith(tail)
        derived = (
            tokenizer.count(rendered)
            - tokenizer.count(tail)
            + tokenizer.count(tail + CHAPTER_SEPARATOR)
        )
        assert derived == tokenizer.count(rendered + CHAPTER_SEPARATOR), (tokenizer_id, ending)


def test_tail_is_the_punctuation_after_the_last_word_when_provable() -> None:
    assert followed_tail("第一回\n他说道：“好。”") == "。”"
    assert followed_tail("CHAPTER I\nThe end.") == "."
    assert followed_tail("CHAPTER I\nno punctuation") == ""
    # A combining mark or a non-ASCII letter before the punctuation: fall back to the line.
    rendered = "CHAPTER I\nthe cafe\u0301."
    assert word_end_start(rendered) == -1
    assert followed_tail(rendered) == rendered[last_pretoken_start(rendered) :]
    assert followed_tail("CHAPTER I\n……") == "……"


@pytest.mark.slow
def test_tail_identity_on_every_shared_chapter(shared_corpora: Path) -> None:
    from lengthwise.builders.corpus import CorpusSettings, process_corpus
    from lengthwise.builders.sources.local import read_local
    from lengthwise.records import SourceDocument
    from lengthwise.spec import ChaptersConfig, CleaningConfig

    folders = ["zh_simplified_four_classics", "en_pg_stripped", "en_pg_raw", "zh_pg_flattened"]
    docs = [
        d
        for folder in folders
        for d in read_local(shared_corpora / folder)
        if isinstance(d, SourceDocument)
    ]
    settings = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())
    books = [b for b, _ in process_corpus(docs, settings, ["chars"], None, 1) if b is not None]
    rendered = [render_chapter(c) for b in books for c in b.chapters]
    short = sum(1 for r in rendered if word_end_start(r) >= 0)
    assert short > 0.8 * len(rendered), "most chapters should end in a provable short tail"
    for tokenizer_id in ADDITIVE[:3]:
        tokenizer = get_tokenizer(tokenizer_id)
        for text in rendered:
            tail = followed_tail(text)
            followed = tokenizer.count(text + CHAPTER_SEPARATOR)
            derived = tokenizer.count(text) - tokenizer.count(tail) + tokenizer.count(tail + "\n\n")
            assert derived == followed, (tokenizer_id, text[-80:])
