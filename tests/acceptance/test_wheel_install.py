"""Installs as users install it: the wheel, no extras, in a fresh venv, on the demo corpus."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _run(argv: list[str], cwd: Path, timeout: int = 900) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def _ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, f"{done.args}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.slow
def test_wheel_without_extras_runs_the_core_stages_and_names_missing_extras(
    tmp_path: Path,
) -> None:
    pip = [sys.executable, "-m", "pip"]
    _ok(_run([*pip, "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(REPO)], tmp_path))
    wheel = next(tmp_path.glob("lengthwise-*.whl"))
    venv = tmp_path / "venv"
    _ok(_run([sys.executable, "-m", "venv", str(venv)], tmp_path))
    _ok(_run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], tmp_path))
    lw = str(venv / "bin" / "lengthwise")
    freeze = _ok(_run([str(venv / "bin" / "python"), "-m", "pip", "freeze"], tmp_path)).lower()
    assert "torch" not in freeze and "datasets==" in freeze and "huggingface" in freeze

    demo = tmp_path / "demo"
    spec, work = str(demo / "demo.toml"), str(demo / "work")
    _ok(_run([lw, "demo-corpus", str(demo)], tmp_path))
    for stage in ("build", "draft"):
        _ok(_run([lw, stage, spec, "--work", work], tmp_path))
    _ok(_run([lw, "annotate", "demo-references", spec, "--work", work], tmp_path))
    _ok(_run([lw, "stats", spec, "--work", work], tmp_path))
    release = _ok(_run([lw, "release", spec, "--work", work, "--version", "0.1.0"], tmp_path))
    release_dir = release.strip().splitlines()[-1]
    evaluated = _ok(
        _run(
            [lw, "eval", "--release", release_dir, "--backend", "baseline", "--model", "lead-3",
             "--prompts", "IB", "--subsets", "S", "--out", str(tmp_path / "eval")],
            tmp_path,
        )
    )  # fmt: skip
    assert "S IB: ROUGE-L" in evaluated and "(n=0" not in evaluated

    model = _run(
        [lw, "eval", "--release", release_dir, "--backend", "transformers", "--model",
         str(tmp_path / "no-model"), "--out", str(tmp_path / "eval-model")],
        tmp_path,
    )  # fmt: skip
    assert model.returncode == 2
    error = model.stderr.strip()
    assert "pip install 'lengthwise[local]'" in error and "Traceback" not in error
    assert len(error.splitlines()) == 1, error
    tiny = _run([lw, "tiny-model", str(tmp_path / "tiny")], tmp_path)
    assert tiny.returncode == 2 and "lengthwise[local]" in tiny.stderr
