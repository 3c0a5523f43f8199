"""quicktok counts with the same ids as the reference implementations, or is not used."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.sources.local import read_local
from lengthwise.records import SourceDocument
from lengthwise.tokenizers import get_tokenizer
from lengthwise.tokenizers.backends import QUICKTOK_ENCODINGS, REFERENCE_ENV, QuicktokTokenizer

pytest.importorskip("quicktok")

FAST_IDS = ["qwen2.5", "qwen3", "tiktoken:cl100k_base", "tiktoken:o200k_base"]
TRICKY = [
    "hello <|endoftext|> world <|im_start|>user\n",
    "Cafe\u0301 e\u0301 — “quoted” ... ！？……",
    "第一回　灵根育孕源流出　心性修持大道生\n\n  诗曰：混沌未分天地乱\r\n",
    "   leading spaces\n\n\n\ttabs\u3000ideographic space 12345678901234",
    "",
]


def _both(tokenizer_id: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    fast = get_tokenizer(tokenizer_id)
    monkeypatch.setenv(REFERENCE_ENV, "reference")
    reference = get_tokenizer(tokenizer_id)
    monkeypatch.delenv(REFERENCE_ENV)
    return fast, reference


@pytest.mark.parametrize("tokenizer_id", FAST_IDS)
def test_fast_ids_use_quicktok_and_match_the_reference(
    tokenizer_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, reference = _both(tokenizer_id, monkeypatch)
    assert isinstance(fast, QuicktokTokenizer)
    assert not isinstance(reference, QuicktokTokenizer)
    for text in TRICKY:
        assert fast.encode(text) == reference.encode(text), text  # type: ignore[attr-defined]
        assert fast.count(text) == reference.count(text), text  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.parametrize("tokenizer_id", ["qwen2.5", "tiktoken:o200k_base"])
def test_counts_equal_the_reference_on_real_books(
    tokenizer_id: str, shared_corpora: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, reference = _both(tokenizer_id, monkeypatch)
    folders = ["zh_simplified_four_classics", "en_pg_stripped", "zh_pg_flattened", "en_pg_raw"]
    docs = [
        d for f in folders for d in read_local(shared_corpora / f) if isinstance(d, SourceDocument)
    ]
    assert len(docs) >= 15
    for doc in docs:
        assert fast.count(doc.text) == reference.count(doc.text), doc.source  # type: ignore[attr-defined]


def test_every_mapped_vocabulary_is_bundled() -> None:
    import quicktok

    for encoding in set(QUICKTOK_ENCODINGS.values()):
        assert quicktok.get_encoding(encoding).n_vocab > 100_000
