"""After `publish --repo ORG/NAME` the published card loads from ORG/NAME, and publish
prints the exact load_dataset line."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from lengthwise.cli import main
from lengthwise.releases.hub import check_before_publish, mirror_repo_path
from lengthwise.releases.release import build_release
from lengthwise.spec import Spec


def _show(repo: Path, revision: str, path: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={repo}", "show", f"{revision}:{path}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_published_card_names_the_repo_given_on_the_command_line(
    demo_spec_path: Path,
    demo_spec: Spec,
    annotated_work: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = build_release(demo_spec, annotated_work, "0.2.0").folder
    assert 'load_dataset("ORG/NAME"' in (folder / "README.md").read_text()  # no repo_id yet
    mirror = tmp_path / "mirror"
    args = ["publish", str(demo_spec_path), "--version", "0.2.0", "--work", str(annotated_work)]
    assert main([*args, "--repo", "acme/stories", "--mirror-root", str(mirror)]) == 0
    out = capsys.readouterr().out
    first = next(iter(demo_spec.subsets)).name
    line = f'load_dataset("acme/stories", "{first}", split="test", revision="v0.2.0")'
    assert f"  {line}" in out.splitlines()
    card = _show(mirror_repo_path(mirror, "acme/stories"), "v0.2.0", "README.md")
    assert f"ds = {line}" in card
    assert "lengthwise fetch acme/stories@v0.2.0" in card
    assert "ORG/NAME" not in card
    # The local folder is what was published, and still verifies against its manifest.
    assert (folder / "README.md").read_text() == card
    check_before_publish(folder, "0.2.0", environ={})
