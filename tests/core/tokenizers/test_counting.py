"""count_texts: on-disk cache, parallel workers, and input checks."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest

import lengthwise.tokenizers.counting as counting
from lengthwise.storage import sha256_text
from lengthwise.tokenizers import (
    TokenCountCache,
    UnknownTokenizerError,
    count_texts,
    count_texts_detailed,
    get_tokenizer,
    tokenizer_cache_key,
)


def pairs_of(texts: list[str]) -> list[tuple[str, str]]:
    return [(sha256_text(text), text) for text in texts]


@pytest.fixture
def chapters(english_text: str) -> list[str]:
    """Forty chapter-like texts, Chinese and English, of different lengths."""
    zh = "满纸荒唐言，一把辛酸泪。都云作者痴，谁解其中味？"
    return [f"第{i}回 {zh * (i % 7 + 1)}\n{english_text[: 200 * (i % 5 + 1)]}" for i in range(40)]


def test_counts_are_aligned_with_the_input_and_match_the_tokenizer(chapters: list[str]) -> None:
    counts = count_texts(pairs_of(chapters), ["qwen2.5", "chars"], workers=1)
    assert counts["chars"] == [len(text) for text in chapters]
    assert counts["qwen2.5"] == [get_tokenizer("qwen2.5").count(text) for text in chapters]


def test_second_run_reads_everything_from_the_cache(
    chapters: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = ["tiktoken:cl100k_base", "chars"]
    with TokenCountCache(tmp_path / "counts.sqlite") as cache:
        first = count_texts_detailed(pairs_of(chapters), ids, cache, workers=1)
    assert first.tokenized == {"tiktoken:cl100k_base": 40, "chars": 40}
    assert first.from_cache == {"tiktoken:cl100k_base": 0, "chars": 0}

    def no_tokenizing(tokenizer_id: str) -> object:
        raise AssertionError(f"tokenizer {tokenizer_id} used although every count is cached")

    monkeypatch.setattr(counting, "get_tokenizer", no_tokenizing)
    with TokenCountCache(tmp_path / "counts.sqlite") as reopened:
        second = count_texts_detailed(pairs_of(chapters), ids, reopened, workers=2)
    assert second.tokenized == {"tiktoken:cl100k_base": 0, "chars": 0}
    assert second.from_cache == {"tiktoken:cl100k_base": 40, "chars": 40}
    assert second.counts == first.counts


def test_only_new_texts_are_tokenized(chapters: list[str], tmp_path: Path) -> None:
    with TokenCountCache(tmp_path / "counts.sqlite") as cache:
        count_texts(pairs_of(chapters[:25]), ["qwen2.5"], cache, workers=1)
        result = count_texts_detailed(pairs_of(chapters), ["qwen2.5"], cache, workers=1)
    assert result.tokenized == {"qwen2.5": 15}
    assert result.from_cache == {"qwen2.5": 25}
    assert result.counts["qwen2.5"] == [get_tokenizer("qwen2.5").count(t) for t in chapters]


def test_two_workers_give_the_same_counts_as_one(
    chapters: list[str], hf_tokenizer_dir: Path
) -> None:
    ids = ["qwen2.5", "tiktoken:o200k_base", f"hf:{hf_tokenizer_dir}", "chars"]
    one = count_texts_detailed(pairs_of(chapters), ids, workers=1)
    # Small chunks so that both workers get several.
    two = count_texts_detailed(pairs_of(chapters), ids, workers=2, chunk_chars=2_000)
    assert two.counts == one.counts
    assert one.worker_pids == {os.getpid()}
    assert os.getpid() not in two.worker_pids
    assert 1 <= len(two.worker_pids) <= 2


def test_with_other_threads_running_workers_are_spawned_not_forked(chapters: list[str]) -> None:
    # Forking a multi-threaded process can deadlock the child; spawn must be used then.
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert counting.process_context().get_start_method() == "spawn"
        two = count_texts_detailed(pairs_of(chapters), ["tiktoken:cl100k_base"], workers=2)
    finally:
        release.set()
        other.join()
    assert os.getpid() not in two.worker_pids
    one = count_texts(pairs_of(chapters), ["tiktoken:cl100k_base"], workers=1)
    assert two.counts == one


def test_duplicate_texts_are_tokenized_once(chapters: list[str]) -> None:
    texts = [chapters[0], chapters[1], chapters[0], chapters[0]]
    result = count_texts_detailed(pairs_of(texts), ["tiktoken:cl100k_base"], workers=1)
    assert result.tokenized == {"tiktoken:cl100k_base": 2}
    counts = result.counts["tiktoken:cl100k_base"]
    assert counts[0] == counts[2] == counts[3] != counts[1]


def test_counting_never_raises_on_special_token_strings(tmp_path: Path) -> None:
    book = "第一回 <|endoftext|><|im_start|>system\n<|fim_prefix|> 甄士隐梦幻识通灵 <|endofprompt|>"
    ids = ["tiktoken:cl100k_base", "tiktoken:o200k_harmony", "qwen2.5", "qwen3.5"]
    counts = count_texts(pairs_of([book]), ids, workers=1)
    assert all(counts[tokenizer_id][0] > 20 for tokenizer_id in ids)


def test_a_wrong_hash_is_refused_naming_the_position(chapters: list[str]) -> None:
    pairs = pairs_of(chapters[:3])
    pairs[2] = (pairs[1][0], chapters[2])
    with pytest.raises(ValueError, match=r"texts\[2\]"):
        count_texts(pairs, ["chars"], workers=1)


def test_a_bad_tokenizer_id_fails_before_any_work(chapters: list[str]) -> None:
    with pytest.raises(UnknownTokenizerError, match=r"'qwen-2\.5'"):
        count_texts(pairs_of(chapters), ["chars", "qwen-2.5"], workers=2)


def test_workers_must_be_positive(chapters: list[str]) -> None:
    with pytest.raises(ValueError, match="workers"):
        count_texts(pairs_of(chapters), ["chars"], workers=0)


def test_changing_a_tokenizer_file_invalidates_its_cached_counts(
    hf_tokenizer_dir: Path, tmp_path: Path, chapters: list[str]
) -> None:
    tokenizer_file = tmp_path / "tokenizer.json"
    tokenizer_file.write_bytes((hf_tokenizer_dir / "tokenizer.json").read_bytes())
    tokenizer_id = f"hf:{tokenizer_file}"
    with TokenCountCache(tmp_path / "counts.sqlite") as cache:
        count_texts(pairs_of(chapters), [tokenizer_id], cache, workers=1)
        tokenizer_file.write_text(tokenizer_file.read_text(encoding="utf-8") + " ", "utf-8")
        os.utime(tokenizer_file, ns=(1, 1))
        again = count_texts_detailed(pairs_of(chapters), [tokenizer_id], cache, workers=1)
    assert again.tokenized == {tokenizer_id: 40}


def test_progress_bar_goes_to_stderr(
    chapters: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    count_texts(pairs_of(chapters), ["chars"], workers=1, progress=True)
    captured = capsys.readouterr()
    assert "counting tokens" in captured.err
    assert captured.out == ""


def test_cache_api_round_trip(tmp_path: Path) -> None:
    with TokenCountCache(tmp_path / "sub" / "counts.sqlite") as cache:
        cache.put_many("qwen2.5", {"a" * 64: 7, "b" * 64: 9})
        cache.put_many("chars", {"a" * 64: 100})
        assert cache.get_many("qwen2.5", ["a" * 64, "c" * 64, "b" * 64]) == {
            "a" * 64: 7,
            "b" * 64: 9,
        }
        assert cache.get_many("chars", ["a" * 64, "b" * 64]) == {"a" * 64: 100}
    journal = sqlite3.connect(tmp_path / "sub" / "counts.sqlite").execute("PRAGMA journal_mode")
    assert journal.fetchone()[0] == "wal"


def test_cache_lookups_beyond_sqlite_parameter_limits(tmp_path: Path) -> None:
    many = {sha256_text(str(i)): i for i in range(2_500)}
    with TokenCountCache(tmp_path / "counts.sqlite") as cache:
        cache.put_many("chars", many)
        assert cache.get_many("chars", many) == many


def test_a_file_that_is_not_a_cache_is_reported(tmp_path: Path) -> None:
    not_a_cache = tmp_path / "counts.sqlite"
    not_a_cache.write_bytes(b"this is not an SQLite database, just some bytes" * 100)
    with pytest.raises(ValueError, match="not a usable token count cache") as caught:
        TokenCountCache(not_a_cache)
    assert str(not_a_cache) in str(caught.value)


def test_a_poisoned_cached_count_is_discarded_and_counted_again(
    chapters: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "counts.sqlite"
    with TokenCountCache(path) as cache:
        clean = count_texts(pairs_of(chapters), ["chars"], cache, workers=1)
    with sqlite3.connect(path) as db:  # a careless edit, or a damaged file
        assert db.execute("UPDATE token_counts SET count = count + 7").rowcount == 40
    with TokenCountCache(path) as cache:
        again = count_texts_detailed(pairs_of(chapters), ["chars"], cache, workers=1)
        assert cache.discarded == 40
    assert again.counts == clean
    assert again.tokenized == {"chars": 40}
    with TokenCountCache(path) as cache:  # the recounted rows verify again
        assert count_texts_detailed(pairs_of(chapters), ["chars"], cache, workers=1).tokenized == {
            "chars": 0
        }


def test_a_cache_from_before_row_checks_is_dropped_not_trusted(
    chapters: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "counts.sqlite"
    with sqlite3.connect(path) as db:  # the old layout, with a wrong count in it
        db.execute(
            "CREATE TABLE token_counts (text_sha256 TEXT NOT NULL, tokenizer_key TEXT NOT NULL,"
            " count INTEGER NOT NULL, PRIMARY KEY (text_sha256, tokenizer_key)) WITHOUT ROWID"
        )
        row = (sha256_text(chapters[0]), tokenizer_cache_key("chars"))
        db.execute("INSERT INTO token_counts VALUES (?, ?, 1)", row)
    with TokenCountCache(path) as cache:
        counts = count_texts(pairs_of(chapters[:1]), ["chars"], cache, workers=1)
    assert counts == {"chars": [len(chapters[0])]}
