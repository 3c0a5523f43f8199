"""tiktoken encodings load from bpe-openai's files alone, and never touch the network."""

from __future__ import annotations

import hashlib
import inspect
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import tiktoken.load
import tiktoken.registry

from lengthwise.tokenizers import TokenizerUnavailableError, get_tokenizer
from lengthwise.tokenizers.backends import REFERENCE_ENV
from lengthwise.tokenizers.tiktoken_offline import (
    ENCODING_FILES,
    bundled_encodings,
    cached_file_path,
)


@pytest.fixture(autouse=True)
def _reference_implementation(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about tiktoken's own offline loading, not the faster quicktok path."""
    monkeypatch.setenv(REFERENCE_ENV, "reference")


@pytest.fixture
def bare_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_registry: None
) -> Iterator[Path]:
    """No tiktoken cache anywhere, no loaded encodings, and any download attempt fails.

    Yields the lengthwise cache root the test's registry will use.
    """
    # setenv first so that monkeypatch restores the variable we are about to unset
    # (our code sets TIKTOKEN_CACHE_DIR when the user has not).
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "placeholder")
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR")
    monkeypatch.delenv("DATA_GYM_CACHE_DIR", raising=False)
    monkeypatch.setenv("LENGTHWISE_CACHE_DIR", str(tmp_path / "lw-cache"))
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})

    def no_network(blobpath: str) -> bytes:
        raise AssertionError(f"tried to download {blobpath}")

    monkeypatch.setattr(tiktoken.load, "read_file", no_network)
    yield tmp_path / "lw-cache"


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base", "o200k_harmony"])
def test_bundled_encodings_load_from_package_files_alone(bare_machine: Path, encoding: str) -> None:
    import os

    tokenizer = get_tokenizer(f"tiktoken:{encoding}")
    expected = [24912, 2375] if "o200k" in encoding else [15339, 1917]  # published ids
    assert tokenizer.encode("hello world") == expected
    assert os.environ["TIKTOKEN_CACHE_DIR"] == str(bare_machine / "tiktoken")
    for bpe_file in ENCODING_FILES[encoding]:
        seeded = cached_file_path(bare_machine / "tiktoken", bpe_file)
        assert hashlib.sha256(seeded.read_bytes()).hexdigest() == bpe_file.sha256


def test_without_lengthwise_cache_dir_the_xdg_cache_is_used(
    bare_machine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LENGTHWISE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    get_tokenizer("tiktoken:cl100k_base")
    assert any((tmp_path / "xdg" / "lengthwise" / "tiktoken").iterdir())


def test_a_user_set_tiktoken_cache_dir_is_kept_and_seeded(
    bare_machine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    user_dir = tmp_path / "my-tiktoken"
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(user_dir))
    assert get_tokenizer("tiktoken:o200k_base").count("hello world") == 2
    assert os.environ["TIKTOKEN_CACHE_DIR"] == str(user_dir)
    assert cached_file_path(user_dir, ENCODING_FILES["o200k_base"][0]).is_file()
    assert not (bare_machine / "tiktoken").exists()


def test_a_corrupt_cached_file_is_replaced(bare_machine: Path) -> None:
    bpe_file = ENCODING_FILES["cl100k_base"][0]
    cached = cached_file_path(bare_machine / "tiktoken", bpe_file)
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"half a download")
    assert get_tokenizer("tiktoken:cl100k_base").count("hello world") == 2
    assert hashlib.sha256(cached.read_bytes()).hexdigest() == bpe_file.sha256


def test_an_encoding_not_shipped_says_which_file_to_put_where(bare_machine: Path) -> None:
    with pytest.raises(TokenizerUnavailableError) as caught:
        get_tokenizer("tiktoken:r50k_base")
    message = str(caught.value)
    assert "r50k_base.tiktoken" in message
    assert "never downloads" in message
    assert str(bare_machine / "tiktoken") in message
    assert "cl100k_base" in message  # what works instead


def test_an_empty_tiktoken_cache_dir_is_refused(
    bare_machine: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    with pytest.raises(TokenizerUnavailableError, match="TIKTOKEN_CACHE_DIR"):
        get_tokenizer("tiktoken:cl100k_base")


def test_file_table_matches_tiktoken_ext() -> None:
    """Our URLs and hashes are the ones the installed tiktoken asks for."""
    from tiktoken_ext import openai_public

    for encoding, files in ENCODING_FILES.items():
        source = inspect.getsource(openai_public.ENCODING_CONSTRUCTORS[encoding])
        urls = re.findall(r'"(https://[^"]+)"', source)
        hashes = re.findall(r'"([0-9a-f]{64})"', source)
        if not urls:  # e.g. o200k_harmony builds on o200k_base()
            base = re.search(r"(\w+)\(\)", source.split(":", 1)[1])
            assert base is not None and ENCODING_FILES[base.group(1)] == files
            continue
        assert sorted(urls) == sorted(f.url for f in files)
        assert sorted(hashes) == sorted(f.sha256 for f in files)


def test_bundled_encodings_are_the_three_shipped_by_bpe_openai() -> None:
    assert bundled_encodings() == ["cl100k_base", "o200k_base", "o200k_harmony"]
