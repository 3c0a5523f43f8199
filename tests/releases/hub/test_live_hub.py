"""Opt-in: publish to the real Hugging Face Hub and fetch the tag back.

Runs only with `--run-hub` (or LENGTHWISE_RUN_HUB=1), HF_TOKEN and
LENGTHWISE_HUB_TEST_REPO=org/name; otherwise it is reported as SKIPPED with the reason,
never as a pass. Each run publishes a fresh version 0.0.<unix time> to that repo.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from lengthwise.releases.release import build_release
from lengthwise.spec import Spec

pytestmark = pytest.mark.slow


def _lengthwise(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lengthwise", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_publish_to_live_hub_and_fetch_the_tag(
    live_hub: Any,  # conftest.LiveHub; skips unless opted in
    demo_spec_path: Path,
    demo_spec: Spec,
    annotated_work: Path,
    tmp_path: Path,
) -> None:
    version = f"0.0.{int(time.time())}"
    build_release(demo_spec, annotated_work, version)
    env = {**os.environ, "HF_HUB_OFFLINE": "0", "HF_TOKEN": live_hub.token}
    env.pop("HF_ENDPOINT", None)
    publish = [
        "publish",
        str(demo_spec_path),
        "--version",
        version,
        "--work",
        str(annotated_work),
        "--repo",
        live_hub.repo_id,
    ]
    done = _lengthwise(publish, env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"@v{version}" in done.stdout
    assert live_hub.token not in done.stdout + done.stderr

    out = tmp_path / "fetched"
    fetched = _lengthwise(["fetch", f"{live_hub.repo_id}@v{version}", "--out", str(out)], env)
    assert fetched.returncode == 0, fetched.stderr[-3000:]
    assert json.loads((out / "manifest.json").read_text())["version"] == version

    again = _lengthwise(publish, env)
    assert again.returncode == 2
    assert f"already has tag v{version}" in again.stderr
