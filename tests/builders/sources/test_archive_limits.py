"""Archive limits (lengthwise/limits.py): an EPUB zip bomb is refused from its directory,
without inflating it. The campaign's bomb (2 MB holding 2 GiB) took 87 s and 4.4 GB."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

from lengthwise.builders.sources.epub import read_epub
from lengthwise.builders.sources.errors import SourceError
from lengthwise.cli import main
from tests.builders.sources.test_epub import write_epub

ZEROS_MB = 40  # about 40 KB deflated: a 1000x ratio, far over the default 50x


def _bomb(path: Path) -> Path:
    """A readable EPUB plus one member of ZEROS_MB megabytes of zeros, written in chunks."""
    write_epub(path)
    chunk = bytes(1 << 20)
    with (
        zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as archive,
        archive.open("EPUB/images/padding.bin", "w") as member,
    ):
        for _ in range(ZEROS_MB):
            member.write(chunk)
    assert path.stat().st_size < 2 * ZEROS_MB * 1024  # really a bomb
    return path


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of archive members anyone inflates (zipfile.ZipFile.open) during the test."""
    names: list[str] = []
    original = zipfile.ZipFile.open

    def counting(self: zipfile.ZipFile, name: Any, *args: Any, **kwargs: Any) -> Any:
        names.append(getattr(name, "filename", name))
        return original(self, name, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "open", counting)
    return names


def test_a_zip_bomb_is_refused_without_inflating_anything(
    tmp_path: Path, opened: list[str]
) -> None:
    bomb = _bomb(tmp_path / "bomb.epub")
    opened.clear()
    with pytest.raises(SourceError) as caught:
        read_epub(bomb.read_bytes(), str(bomb))
    assert caught.value.key == "too-large"
    message = str(caught.value)
    assert message.startswith(f"{bomb}: ") and "\n" not in message
    assert "archive ratio limit of 50" in message and "LENGTHWISE_MAX_ARCHIVE_RATIO" in message
    assert opened == []  # not one member was inflated


def test_the_size_ceiling_is_configurable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    book = write_epub(tmp_path / "book.epub")
    assert read_epub(book.read_bytes(), str(book)).toc  # within the default limits
    monkeypatch.setenv("LENGTHWISE_MAX_ARCHIVE_BYTES", "1000")
    with pytest.raises(SourceError, match=r"over the archive size limit of 1,000 \(set LENGTH"):
        read_epub(book.read_bytes(), str(book))
    monkeypatch.setenv("LENGTHWISE_MAX_ARCHIVE_BYTES", "0")
    with pytest.raises(ValueError, match=r"LENGTHWISE_MAX_ARCHIVE_BYTES='0': expected a posit"):
        read_epub(book.read_bytes(), str(book))


def test_a_build_from_a_zip_bomb_is_one_line_and_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    opened: list[str],
) -> None:
    (tmp_path / "books").mkdir()
    bomb = _bomb(tmp_path / "books" / "bomb.epub")
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'name = "bomb"\n[[sources]]\nkind = "files"\npath = "books"\n'
        '[tokenizers]\nprimary = "chars"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    opened.clear()
    assert main(["build", str(spec), "--work", "work"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert str(bomb) in err[0] and "archive ratio limit of 50" in err[0]
    assert "padding.bin" not in opened
    assert not (tmp_path / "work").exists()
