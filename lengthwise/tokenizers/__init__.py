"""Tokenizer registry: build tokenizers from ids, count tokens (cached, parallel), compare them.

Typical use::

    from lengthwise.tokenizers import get_tokenizer, count_texts
    get_tokenizer("qwen2.5").count("满纸荒唐言")
"""

from lengthwise.tokenizers.base import (
    Tokenizer,
    TokenizerFileNotFoundError,
    TokenizerUnavailableError,
    UnknownTokenizerError,
)
from lengthwise.tokenizers.counting import (
    CountResult,
    TokenCountCache,
    count_texts,
    count_texts_detailed,
    process_context,
)
from lengthwise.tokenizers.efficiency import EfficiencyRow, efficiency_markdown, encoding_efficiency
from lengthwise.tokenizers.registry import (
    clear_tokenizer_cache,
    describe_tokenizer_id,
    get_tokenizer,
    tokenizer_cache_key,
)

__all__ = [
    "CountResult",
    "EfficiencyRow",
    "TokenCountCache",
    "Tokenizer",
    "TokenizerFileNotFoundError",
    "TokenizerUnavailableError",
    "UnknownTokenizerError",
    "clear_tokenizer_cache",
    "count_texts",
    "count_texts_detailed",
    "describe_tokenizer_id",
    "efficiency_markdown",
    "encoding_efficiency",
    "get_tokenizer",
    "process_context",
    "tokenizer_cache_key",
]
