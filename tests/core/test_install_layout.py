"""The editable install imports the checkout's files where they are.

The old strict link tree (`build/__editable__/...`) had to be rebuilt for every new module
and was rebuilt beneath running commands by `scripts/dev-install.sh`; these tests pin the
layout that needs none.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import uuid
from pathlib import Path

import lengthwise
import lengthwise.builders

REPO = Path(__file__).resolve().parents[2]
AREAS = ("builders", "annotation", "releases", "evaluation")


def test_area_packages_are_the_checkout_folders() -> None:
    assert Path(lengthwise.__file__).resolve().parent == REPO / "lengthwise"
    for area in AREAS:
        module = importlib.import_module(f"lengthwise.{area}")
        assert module.__file__ is not None
        assert Path(module.__file__).resolve().parent == REPO / area
        assert "__editable__" not in module.__file__


def test_a_new_module_imports_without_reinstalling(tmp_path: Path) -> None:
    name = f"_probe_{uuid.uuid4().hex[:8]}"
    module_file = REPO / "builders" / f"{name}.py"
    module_file.write_text("VALUE = 42\n", encoding="utf-8")
    try:
        # A fresh interpreter, as a command started after the file appeared would be.
        done = subprocess.run(
            [sys.executable, "-c", f"import lengthwise.builders.{name} as m; print(m.VALUE)"],
            capture_output=True,
            text=True,
            check=False,
            cwd=tmp_path,
            env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        )
    finally:
        module_file.unlink()
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "42"
