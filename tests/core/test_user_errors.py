"""Every user error is one line, exit 2, and writes nothing (issue 34's campaign, item 7).

Each case runs the command line as a user does (`main([...])`) and checks the status, that
stderr is one line naming what is wrong, and that no work dir / --out folder was left."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main

CHAPTERS = "\n\n".join(
    f"CHAPTER {n}.\n\n" + "She looked at the river and thought of nothing at all.\n" * 30
    for n in range(1, 6)
)
SPEC = (
    'name = "river"\n[[sources]]\nkind = "files"\npath = "books"\n'
    '[tokenizers]\nprimary = "chars"\n'
    '[[subsets]]\nname = "S"\ntarget = 2000\nlower = 1000\nupper = 3000\ncount = 1\n'
)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with spec.toml and an empty books/ folder; the current directory."""
    (tmp_path / "books").mkdir()
    (tmp_path / "spec.toml").write_text(SPEC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run the command line; it must exit 2 with one line on stderr: that line."""
    capsys.readouterr()
    try:
        status = main(args)
    except SystemExit as exc:  # argparse's usage errors
        status = int(exc.code or 0)
    err = capsys.readouterr().err
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_a_refused_build_leaves_no_new_work_dir(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "books" / "cover.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    line = refused(["build", "spec.toml", "--work", "new/work"], capsys)
    assert "no readable book in the sources" in line and "cover.png" in line
    assert not (home / "new").exists()  # no lock, no cache, no folder
    line = refused(["build", "spec.toml"], capsys)  # the default work dir lw-work/river
    assert not (home / "lw-work").exists()


def test_a_refused_build_writes_nothing_in_an_existing_work_dir(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "work").mkdir()
    (home / "books" / "cover.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    refused(["build", "spec.toml", "--work", "work"], capsys)
    assert _files(home / "work") == ["locks/build.lock"]  # no cache/source_stats.json

    (home / "books" / "cover.png").unlink()
    # Readable, but no book is left after chapter detection: one paragraph, no chapters.
    (home / "books" / "note.txt").write_text("Just a note to myself.\n" * 3, encoding="utf-8")
    line = refused(["build", "spec.toml", "--work", "work"], capsys)
    assert "no book left after cleaning and chapter detection" in line
    # The content caches of the work done may stay (they are keyed by content); no output does.
    outputs = [p for p in _files(home / "work") if not p.startswith(("cache/", "locks/"))]
    assert outputs == []  # no corpus/books.jsonl, no report, no completion record


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_an_unwritable_work_dir_is_one_line(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (home / "books" / "river.txt").write_text(CHAPTERS, encoding="utf-8")
    # Root may write anywhere but /sys; the error is the same for a read-only folder.
    line = refused(["build", "spec.toml", "--work", "/sys/lengthwise-test-work"], capsys)
    assert "/sys/lengthwise-test-work" in line and "not permitted" in line.lower()


def test_an_unreadable_folder_is_reported_as_unreadable(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (home / "books" / "river.txt").write_text(CHAPTERS, encoding="utf-8")
    books = str(home / "books")
    real_scandir = os.scandir

    def denied(path: Any = ".") -> Any:
        # As for a folder without read permission (tests run as root: chmod would not do).
        if os.path.abspath(os.fspath(path)) == books:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", denied)
    line = refused(["build", "spec.toml", "--work", "work"], capsys)
    assert "cannot read folder: Permission denied" in line and "unreadable-folder" in line
    assert "no files" not in line


def test_a_newline_in_a_file_name_does_not_break_the_build_report(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "books" / "river.txt").write_text(CHAPTERS, encoding="utf-8")
    (home / "books" / "bad\nname.txt").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    assert main(["build", "spec.toml", "--work", "work", "--quiet"]) == 0
    report = (home / "work" / "build_report.md").read_text(encoding="utf-8")
    assert "bad\\nname.txt" in report  # shown escaped
    assert not [line for line in report.splitlines() if line.startswith("name.txt")]
    out = capsys.readouterr().out
    assert "bad\\nname.txt" in out and not out.count("\nname.txt")


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_annotate_push_without_a_server_is_one_line_naming_the_url(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (home / "books" / "river.txt").write_text(CHAPTERS, encoding="utf-8")
    assert main(["build", "spec.toml", "--work", "work", "--quiet"]) == 0
    assert main(["draft", "spec.toml", "--work", "work"]) == 0
    monkeypatch.setenv("LABEL_STUDIO_API_KEY", "not-a-real-token")
    url = f"http://127.0.0.1:{_closed_port()}"
    line = refused(["annotate", "push", "spec.toml", "--work", "work", "--url", url], capsys)
    assert f"cannot reach Label Studio at {url}" in line


def test_eval_with_a_missing_release_does_not_create_out(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(
        [
            "eval",
            "--release",
            str(home / "no-such-release"),
            "--model",
            "m",
            "--backend",
            "openai",
            "--base-url",
            f"http://127.0.0.1:{_closed_port()}/v1",
            "--out",
            "runs/one",
        ],
        capsys,
    )
    assert "no-such-release" in line
    assert not (home / "runs").exists()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["fetch", "ORG/../../x@v1", "--out", "fetched"], "is not of the form ORG/NAME"),
        (["fetch", "/abs/x@v1.0.0", "--out", "fetched"], "is not of the form ORG/NAME"),
        (["publish", "spec.toml", "--version", "1.0.0", "--repo", "org/../x"], "org/../x"),
        (["publish", "spec.toml", "--version", "../1"], "'../1' is not of the form X.Y.Z"),
        (["build", "spec.toml", "--workers", "-1"], "--workers"),
    ],
)
def test_invalid_command_line_values_are_one_line(
    home: Path, capsys: pytest.CaptureFixture[str], args: list[str], expected: str
) -> None:
    line = refused(args, capsys)
    assert expected in line
    assert not (home / "fetched").exists() and not (home / "lw-work").exists()
