"""Counting prompts with the evaluated model's own tokenizer, as the backend will send them.

- A local model folder (transformers, vLLM, or an OpenAI-compatible server started on a
  folder) is counted with its own `AutoTokenizer`, chat template included when it is on,
  exactly as lengthwise.llm.transformers_backend builds the prompt ids.
- An API model is counted with a registry tokenizer (``--tokenizer qwen2.5``,
  ``tiktoken:o200k_base``, ``hf:...``; lengthwise.tokenizers). A chat template cannot
  be applied there, so a fixed allowance (`CHAT_ALLOWANCE_TOKENS`) is added per prompt
  when the chat template is on: about what ChatML plus a default system prompt cost.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from lengthwise.errors import UserError

CHAT_ALLOWANCE_TOKENS: Final = 32
_UNKNOWN_LENGTH: Final = 1_000_000_000  # tokenizer.model_max_length sentinel for "unknown"


class PromptCounter(Protocol):
    @property
    def id(self) -> str:
        """What counted, for the results file (e.g. "hf-folder:/m" or "qwen2.5")."""
        ...

    @property
    def chat_template_applied(self) -> bool: ...

    def count_prompt(self, prompt: str) -> int:
        """Tokens of the whole prompt as the model receives it (template and specials)."""
        ...

    def count_text(self, text: str) -> int:
        """Tokens of a piece of text on its own (no special tokens)."""
        ...

    def cut_points(self, text: str, head_tokens: int, tail_tokens: int) -> tuple[int, int]:
        """Character offsets (head_end, tail_start): text[:head_end] holds about
        `head_tokens` tokens and text[tail_start:] about `tail_tokens`."""
        ...


def is_model_folder(name: str) -> bool:
    return (Path(name).expanduser() / "config.json").is_file()


def model_context_window(folder: Path) -> int | None:
    """max_position_embeddings from config.json, else the tokenizer's model_max_length."""
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        config = {}
    for key in ("max_position_embeddings", "max_sequence_length", "seq_length", "n_positions"):
        value = config.get(key) or (config.get("text_config") or {}).get(key)
        if isinstance(value, int) and value > 0:
            return value
    try:
        tokenizer_config = json.loads(
            (folder / "tokenizer_config.json").read_text(encoding="utf-8")
        )
    except (OSError, json.JSONDecodeError):
        return None
    limit = tokenizer_config.get("model_max_length")
    return int(limit) if isinstance(limit, int | float) and 0 < limit < _UNKNOWN_LENGTH else None


def _prefix_chars(count: Any, text: str, tokens: int) -> int:
    """Largest h with count(text[:h]) <= tokens (binary search; count grows with h)."""
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if count(text[:middle]) <= tokens:
            low = middle
        else:
            high = middle - 1
    return low


def _suffix_start(count: Any, text: str, tokens: int) -> int:
    """Smallest t with count(text[t:]) <= tokens."""
    low, high = 0, len(text)
    while low < high:
        middle = (low + high) // 2
        if count(text[middle:]) <= tokens:
            high = middle
        else:
            low = middle + 1
    return low


def _tokenizer_stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Names, sizes and mtimes of the tokenizer files: a changed file is loaded again."""
    return tuple(
        (path.name, path.stat().st_size, path.stat().st_mtime_ns)
        for path in sorted(folder.glob("*token*"))
        if path.is_file()
    )


@functools.lru_cache(maxsize=4)
def _auto_tokenizer(folder: str, stamp: tuple[tuple[str, int, int], ...]) -> Any:
    # Loading a 150k-word tokenizer takes seconds: repeated runs in one process share it.
    from lengthwise.extras import require

    require(
        "counting prompts with a model folder's tokenizer (or pass --tokenizer ID)", "transformers"
    )
    import transformers

    del stamp  # only part of the cache key
    return transformers.AutoTokenizer.from_pretrained(folder, local_files_only=True)


@dataclass
class HFFolderCounter:
    """The model folder's own tokenizer (transformers AutoTokenizer, offline)."""

    folder: Path
    chat_template: bool
    _tokenizer: Any = None

    def __post_init__(self) -> None:
        self._tokenizer = _auto_tokenizer(str(self.folder), _tokenizer_stamp(self.folder))

    @property
    def id(self) -> str:
        return f"hf-folder:{self.folder}"

    @property
    def chat_template_applied(self) -> bool:
        return self.chat_template and bool(getattr(self._tokenizer, "chat_template", None))

    def count_prompt(self, prompt: str) -> int:
        if self.chat_template_applied:
            encoded = self._tokenizer.apply_chat_template(
                [{"role": "user", "content": prompt}],
                add_generation_prompt=True,
                tokenize=True,
                return_dict=True,
            )
            return len(encoded["input_ids"])
        return len(self._tokenizer(prompt)["input_ids"])

    def count_text(self, text: str) -> int:
        return len(self._tokenizer(text, add_special_tokens=False)["input_ids"])

    def cut_points(self, text: str, head_tokens: int, tail_tokens: int) -> tuple[int, int]:
        try:
            offsets = self._tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)[
                "offset_mapping"
            ]
        except NotImplementedError:  # slow tokenizers have no offsets
            return (
                _prefix_chars(self.count_text, text, head_tokens),
                _suffix_start(self.count_text, text, tail_tokens),
            )
        total = len(offsets)
        head_end = int(offsets[head_tokens - 1][1]) if head_tokens > 0 else 0
        tail_start = int(offsets[total - tail_tokens][0]) if 0 < tail_tokens <= total else len(text)
        return head_end, max(head_end, tail_start)


@dataclass
class RegistryCounter:
    """A lengthwise.tokenizers registry tokenizer (for API models)."""

    tokenizer_id: str
    chat_template: bool
    _tokenizer: Any = None

    def __post_init__(self) -> None:
        from lengthwise.tokenizers import get_tokenizer

        self._tokenizer = get_tokenizer(self.tokenizer_id)

    @property
    def id(self) -> str:
        return self.tokenizer_id

    @property
    def chat_template_applied(self) -> bool:
        return False  # the server applies it; we only add an allowance

    def count_prompt(self, prompt: str) -> int:
        allowance = CHAT_ALLOWANCE_TOKENS if self.chat_template else 0
        return int(self._tokenizer.count(prompt)) + allowance

    def count_text(self, text: str) -> int:
        return int(self._tokenizer.count(text))

    def cut_points(self, text: str, head_tokens: int, tail_tokens: int) -> tuple[int, int]:
        head_end = _prefix_chars(self.count_text, text, head_tokens)
        tail_start = _suffix_start(self.count_text, text, tail_tokens)
        return head_end, max(head_end, tail_start)


def make_counter(model: str, tokenizer: str | None, *, chat_template: bool) -> PromptCounter:
    """`--tokenizer` when given (a model folder or a registry id), else the model folder."""
    name = tokenizer or model
    if is_model_folder(name):
        return HFFolderCounter(Path(name).expanduser().resolve(), chat_template)
    if tokenizer is None:
        raise UserError(
            f"model {model!r} is not a local model folder, so its tokenizer is unknown: pass "
            "--tokenizer (a registry id such as qwen2.5 or tiktoken:o200k_base, hf:PATH, or a "
            "model folder) so prompts can be counted before anything is sent"
        )
    return RegistryCounter(tokenizer, chat_template)
