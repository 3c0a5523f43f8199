"""Fixtures: tokenizers trained on the fly (no downloads) and an isolated registry."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from lengthwise.tokenizers import clear_tokenizer_cache

SPECIAL = "<|endoftext|>"

# Our own sentences, enough for small vocabularies.
_SUBJECTS = ["The old captain", "A young clerk", "My cousin", "The miller's daughter", "Nobody"]
_VERBS = ["walked slowly to", "wrote a letter about", "never spoke of", "dreamed about", "sold"]
_OBJECTS = [
    "the harbour at dawn.",
    "a red horse and three silver spoons.",
    "the quiet garden behind the church!",
    "forty barrels of salted herring?",
    "the winter of 1812, when the river froze.",
]


def english_lines() -> list[str]:
    """125 distinct English sentences."""
    return [
        f"{subject} {verb} {obj}"
        for subject, verb, obj in itertools.product(_SUBJECTS, _VERBS, _OBJECTS)
    ]


@pytest.fixture(autouse=True)
def _tiktoken_cache_in_tmp(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seeded tiktoken files go under the test tree even if the caller's shell sets a cache."""
    cache = tmp_path_factory.getbasetemp() / "lengthwise-cache"
    monkeypatch.setenv("LENGTHWISE_CACHE_DIR", str(cache))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache / "tiktoken"))
    monkeypatch.delenv("DATA_GYM_CACHE_DIR", raising=False)


@pytest.fixture(scope="session")
def hf_tokenizer_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a byte-level BPE tokenizer.json (vocab 300) that adds <s> </s>."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=["<s>", "</s>", SPECIAL],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(english_lines(), trainer)
    # A post-processor adding BOS/EOS: counting must not include them.
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        special_tokens=[
            ("<s>", tokenizer.token_to_id("<s>")),
            ("</s>", tokenizer.token_to_id("</s>")),
        ],
    )
    folder = tmp_path_factory.mktemp("hf_tokenizer")
    tokenizer.save(str(folder / "tokenizer.json"))
    return folder


@pytest.fixture(scope="session")
def sp_model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sentencepiece unigram model (vocab 60) trained on English sentences."""
    import sentencepiece

    folder = tmp_path_factory.mktemp("sp_model")
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(english_lines()),
        model_prefix=str(folder / "english"),
        vocab_size=60,
        minloglevel=2,
    )
    return folder / "english.model"


@pytest.fixture
def fresh_registry() -> Iterator[None]:
    """Tokenizers built inside the test are forgotten afterwards (and before)."""
    clear_tokenizer_cache()
    yield
    clear_tokenizer_cache()


@pytest.fixture(scope="session")
def english_text() -> str:
    """A few hundred words of English prose (one paragraph per line)."""
    return "\n".join(english_lines())
