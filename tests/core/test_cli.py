from __future__ import annotations

import pytest

from lengthwise.cli import build_parser, main


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
