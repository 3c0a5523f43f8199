"""A refused fetch leaves nothing: no --out copy of a release that fails its manifest."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lengthwise.cli import main
from lengthwise.releases.release import build_release
from lengthwise.spec import Spec


def test_a_tampered_local_release_leaves_no_out_copy(
    demo_spec: Spec, annotated_work: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    built = build_release(demo_spec, annotated_work, "1.0.0").folder
    folder = tmp_path / "release"
    shutil.copytree(built, folder)
    card = folder / "README.md"
    card.write_text(card.read_text(encoding="utf-8") + "\nedited\n", encoding="utf-8")
    out = tmp_path / "fetched" / "v1"
    capsys.readouterr()
    assert main(["fetch", str(folder), "--out", str(out)]) == 2
    assert not (tmp_path / "fetched").exists()  # the refused copy is gone, folders too
    err = capsys.readouterr().err.strip().splitlines()
    # One line per problem (the manifest lists each file), each a complete error line.
    assert all(line.startswith("lengthwise fetch: error: ") for line in err), err
    assert "README.md: sha256 differs" in err[-1]
    # The untampered release is fetched and kept.
    assert main(["fetch", str(built), "--out", str(out)]) == 0
    assert (out / "manifest.json").is_file()
