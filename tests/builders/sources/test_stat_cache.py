"""Unchanged local files are not read again; any change to a file is still noticed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lengthwise.builders.sources import stat_cache as stat_cache_module
from lengthwise.builders.sources.local import read_local
from lengthwise.builders.sources.stat_cache import SourceStatCache
from lengthwise.records import SourceDocument
from lengthwise.storage import sha256_bytes

BOOK = "第一回 宴桃园豪杰三结义\n\n话说天下大势，分久必合，合久必分。\n" * 20


@pytest.fixture
def trusted_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written by the test are seconds old at most: trust them (see RACY_NS)."""
    monkeypatch.setattr(stat_cache_module, "RACY_NS", 0)


def read_all(folder: Path, cache_file: Path, language: str | None = "zh") -> list[SourceDocument]:
    cache = SourceStatCache(cache_file)
    docs = [d for d in read_local(folder, language, stat_cache=cache)]
    cache.save()
    assert all(isinstance(d, SourceDocument) for d in docs)
    return docs  # type: ignore[return-value]


def library(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / "a.txt").write_text(BOOK, encoding="utf-8")
    (folder / "b.txt").write_text(BOOK.replace("天下", "海内"), encoding="utf-8")
    return folder, tmp_path / "cache" / "source_stats.json"


def test_unchanged_files_come_back_as_headers_with_the_same_fields(
    tmp_path: Path, trusted_now: None
) -> None:
    folder, cache_file = library(tmp_path)
    first = read_all(folder, cache_file)
    second = read_all(folder, cache_file)
    assert all(d.text for d in first) and not any(d.text for d in second)
    for read, header in zip(first, second, strict=True):
        assert header.raw_sha256 == read.raw_sha256 == sha256_bytes(Path(read.source).read_bytes())
        assert (header.id, header.title, header.source, header.warnings) == (
            read.id,
            read.title,
            read.source,
            read.warnings,
        )


def test_a_touched_file_is_read_again(tmp_path: Path, trusted_now: None) -> None:
    folder, cache_file = library(tmp_path)
    read_all(folder, cache_file)
    stat = (folder / "a.txt").stat()
    os.utime(folder / "a.txt", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    a, b = read_all(folder, cache_file)
    assert a.text == BOOK and not b.text


def test_same_size_rewrite_with_the_old_mtime_is_noticed(tmp_path: Path, trusted_now: None) -> None:
    """Rewriting in place and putting the mtime back still changes the ctime."""
    folder, cache_file = library(tmp_path)
    (before, _) = read_all(folder, cache_file)
    stat = (folder / "a.txt").stat()
    changed = BOOK.replace("大势", "形势")
    assert len(changed.encode()) == len(BOOK.encode())
    (folder / "a.txt").write_text(changed, encoding="utf-8")
    os.utime(folder / "a.txt", ns=(stat.st_atime_ns, stat.st_mtime_ns))
    a, _ = read_all(folder, cache_file)
    assert a.text == changed and a.raw_sha256 != before.raw_sha256


def test_a_file_replaced_by_another_is_noticed(tmp_path: Path, trusted_now: None) -> None:
    folder, cache_file = library(tmp_path)
    read_all(folder, cache_file)
    (folder / "b.txt").replace(folder / "a.txt")
    (docs,) = [read_all(folder, cache_file)]
    assert [d.id for d in docs] == ["a"] and "海内" in docs[0].text


def test_recently_changed_files_are_not_trusted(tmp_path: Path) -> None:
    """A file changed within RACY_NS of when its stat was recorded is always read: a
    same-size rewrite inside one timestamp tick would not show in its stat."""
    folder, cache_file = library(tmp_path)
    read_all(folder, cache_file)
    assert all(d.text for d in read_all(folder, cache_file))


def test_another_language_override_or_a_broken_cache_reads_the_files(
    tmp_path: Path, trusted_now: None
) -> None:
    folder, cache_file = library(tmp_path)
    read_all(folder, cache_file, language="zh")
    assert all(d.text for d in read_all(folder, cache_file, language=None))
    cache_file.write_text("{not json", encoding="utf-8")
    assert all(d.text for d in read_all(folder, cache_file))
    assert not any(d.text for d in read_all(folder, cache_file))
