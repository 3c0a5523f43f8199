from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

from lengthwise import cli
from lengthwise.cli import build_parser, main
from lengthwise.errors import InputFileError


def subcommands() -> list[str]:
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return sorted(action.choices)  # type: ignore[arg-type]


def test_every_subcommand_explains_itself(capsys: pytest.CaptureFixture[str]) -> None:
    names = subcommands()
    assert {"inspect", "build", "demo-corpus", "tokenizers", "pack-training"} <= set(names)
    for name in names:
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0
        out = capsys.readouterr().out
        assert f"lengthwise {name}" in out and len(out.splitlines()) > 3, name


def test_missing_subcommand_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([])
    assert done.value.code == 2
    assert "COMMAND" in capsys.readouterr().err


def _failing_parser(error: Exception) -> Callable[[], argparse.ArgumentParser]:
    def parser() -> argparse.ArgumentParser:
        built = argparse.ArgumentParser(prog="lengthwise")
        built.add_argument("-v", "--verbose", action="store_true")
        commands = built.add_subparsers(dest="command", required=True)

        def handler(args: argparse.Namespace) -> int:
            raise error

        commands.add_parser("fail").set_defaults(handler=handler)
        return built

    return parser


def test_user_error_is_one_line_and_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    problem = InputFileError("corpus/books.jsonl:3: not a valid book row")
    monkeypatch.setattr(cli, "build_parser", _failing_parser(problem))
    assert cli.main(["fail"]) == 2
    err = capsys.readouterr().err
    assert err == "lengthwise fail: error: corpus/books.jsonl:3: not a valid book row\n"


def test_a_value_error_from_a_bug_keeps_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    # A ValueError raised by a library (pyarrow, json) is not the user's input: it must
    # surface with its traceback instead of looking like "bad input, exit 2".
    monkeypatch.setattr(cli, "build_parser", _failing_parser(ValueError("bad internal state")))
    with pytest.raises(ValueError, match="bad internal state"):
        cli.main(["fail"])
