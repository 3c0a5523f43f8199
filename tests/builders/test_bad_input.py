"""Bad input ends `build` and `inspect` with status 2 and one line saying what is wrong
(issue 14, point 6): a missing path, an empty folder, no readable book, a symlink loop."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lengthwise.builders.demo_corpus import write_demo_corpus
from lengthwise.cli import main

SPEC = """
name = "bad-input"
version = "0.0.1"
language = "auto"
seed = 1

[[sources]]
kind = "files"
path = "{path}"

[tokenizers]
primary = "chars"

[[subsets]]
name = "S"
target = 2048
lower = 1600
upper = 2560
count = 4
"""


@pytest.fixture(scope="module")
def demo_books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("demo") / "corpus"
    write_demo_corpus(folder)
    return folder


def _spec(tmp_path: Path, source: str) -> Path:
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC.format(path=source), encoding="utf-8")
    return spec


def _build(spec: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    work = spec.parent / "work"
    code = main(["build", str(spec), "--work", str(work), "--workers", "1", "--quiet"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _inspect(paths: list[Path], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["inspect", *map(str, paths), "--workers", "1"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_build_with_a_missing_path_names_spec_key_and_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = _spec(tmp_path, "no-such-folder")
    code, out, err = _build(spec, capsys)
    assert code == 2
    line = _one_line(err)
    assert str(spec) in line and "sources[0].path" in line
    assert "no-such-folder" in line and "no such file or folder" in line
    assert "built" not in out
    assert not (tmp_path / "work" / "samples").exists()


def test_build_of_an_empty_folder_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    code, out, err = _build(_spec(tmp_path, "empty"), capsys)
    assert code == 2
    assert "no readable book" in _one_line(err) and "folder has no files" in err
    assert "built" not in out


def test_build_of_unsupported_files_only_fails_listing_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.pdf").write_bytes(b"%PDF-1.7\n")
    (folder / "scan.docx").write_bytes(b"PK\x03\x04")
    code, _, err = _build(_spec(tmp_path, "docs"), capsys)
    assert code == 2
    line = _one_line(err)
    assert "no readable book" in line and "2 unsupported-extension" in line
    assert "notes.pdf" in line


def test_build_of_a_symlink_loop_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    code, _, err = _build(_spec(tmp_path, "loop"), capsys)
    assert code == 2
    line = _one_line(err)
    assert "symlink loop" in line and str(tmp_path / "loop") in line


def test_build_where_every_book_is_excluded_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "memo.txt").write_text("A memo with no chapters at all. " * 200, encoding="utf-8")
    code, out, err = _build(_spec(tmp_path, "notes"), capsys)
    assert code == 2
    line = _one_line(err)
    assert "no book left" in line and "memo" in line and "no chapter headings" in line
    assert "built" not in out


def test_build_warns_about_unsupported_files_beside_books(
    demo_books: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "corpus"
    shutil.copytree(demo_books, folder)
    (folder / "cover.jpg").write_bytes(b"\xff\xd8\xff\xe0")
    code, out, _ = _build(_spec(tmp_path, "corpus"), capsys)
    assert code == 0
    assert "cover.jpg" in out and "unsupported extension .jpg" in out


def test_inspect_of_a_missing_path_fails_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _inspect([tmp_path / "absent.txt"], capsys)
    assert code == 2 and out == ""
    assert f"{tmp_path / 'absent.txt'}: no such file or folder" in _one_line(err)


def test_inspect_of_an_empty_folder_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _inspect([tmp_path], capsys)
    assert code == 2
    assert "no readable book" in _one_line(err)


def test_inspect_of_a_symlink_loop_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    loop = tmp_path / "book.txt"
    loop.symlink_to(loop)
    code, _, err = _inspect([loop], capsys)
    assert code == 2
    assert f"{loop}: symlink loop" in _one_line(err)


def test_links_inside_a_folder_are_listed_not_dropped_silently(
    demo_books: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    shutil.copy(demo_books / "en_synthetic_1.txt", folder)
    (folder / "loop.txt").symlink_to(folder / "loop.txt")
    (folder / "gone.txt").symlink_to(folder / "nowhere.txt")
    code, out, _ = _inspect([folder], capsys)
    assert code == 0
    assert f"{folder / 'loop.txt'}" in out and "symlink loop" in out
    assert f"{folder / 'gone.txt'}" in out and "broken symlink" in out
