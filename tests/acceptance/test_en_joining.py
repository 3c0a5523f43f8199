"""Run token counts derived from per-chapter counts equal full recounts on English novels."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from lengthwise.builders.corpus import CorpusSettings, process_corpus
from lengthwise.builders.joining import run_tokens, sample_text
from lengthwise.builders.sources.local import read_local
from lengthwise.records import SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig
from lengthwise.tokenizers import get_tokenizer

pytestmark = pytest.mark.slow
TOKENIZERS = ["qwen2.5", "tiktoken:o200k_base", "tiktoken:cl100k_base", "chars"]


def test_run_counts_match_full_recounts(shared_corpora: Path, tmp_path: Path) -> None:
    docs = [
        d for d in read_local(shared_corpora / "en_pg_stripped") if isinstance(d, SourceDocument)
    ]
    settings = CorpusSettings("en", CleaningConfig(), ChaptersConfig())
    books = [b for b, _ in process_corpus(docs, settings, TOKENIZERS, tmp_path)]
    rng = random.Random(5)
    checked = 0
    for book in books:
        assert book is not None
        for _ in range(6):
            first = rng.randrange(len(book.chapters))
            last = min(len(book.chapters) - 1, first + rng.randrange(1, 6))
            text = sample_text(book, first, last)
            for tokenizer_id in TOKENIZERS:
                full = get_tokenizer(tokenizer_id).count(text)
                assert run_tokens(book, first, last, tokenizer_id) == full, (book.id, first, last)
                checked += 1
    assert checked >= 6 * 6 * len(TOKENIZERS)
