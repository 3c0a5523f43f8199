"""Download by tag through a real Hub-compatible server (olah, offline, on 127.0.0.1).

Two versions are published into a local git mirror; `main` holds the newer one. The
real huggingface_hub / datasets download code (separate processes with HF_ENDPOINT set)
must return the tagged version's rows, not main's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from release_helpers import read_rows, write_rows

from lengthwise.releases.hub import PublishRefused, publish_to_git_mirror
from lengthwise.releases.release import build_release
from lengthwise.spec import Spec

pytestmark = pytest.mark.slow

LOAD_SCRIPT = """
import json, sys
import datasets
datasets.config.USE_PARQUET_EXPORT = False  # no dataset-viewer host offline
datasets.disable_progress_bars()
repo, config, *revisions = sys.argv[1:]
found = {}
for revision in revisions:
    rows = datasets.load_dataset(repo, config, split="test", revision=revision)
    found[revision] = {"id": list(rows["id"]), "summary": list(rows["summary"])}
print(json.dumps(found))
"""


def _lengthwise(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lengthwise", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def _load(repo: str, config: str, revisions: list[str], env: dict[str, str]) -> dict[str, Any]:
    """Revision -> {"id": [...], "summary": [...]} from datasets.load_dataset (one process)."""
    done = subprocess.run(
        [sys.executable, "-c", LOAD_SCRIPT, repo, config, *revisions],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_fetch_and_load_by_tag_return_the_tagged_rows(
    olah_server: Any,  # conftest.OlahServer
    demo_spec_path: Path,
    demo_spec: Spec,
    annotated_work: Path,
    tmp_path: Path,
) -> None:
    old = build_release(demo_spec, annotated_work, "1.0.0")
    publish_to_git_mirror(old.folder, olah_server.mirror_root, "acme/demo", "1.0.0")
    old_rows = read_rows(old.folder / "S" / "test-00000-of-00001.parquet")

    # v1.1.0 on main: one S sample dropped, one S summary revised.
    samples = annotated_work / "samples" / "S.parquet"
    rows = read_rows(samples)[1:]
    rows[0]["summary"] = "Revised reference summary for v1.1.0 (test fixture)."
    write_rows(samples, rows)
    new = build_release(demo_spec, annotated_work, "1.1.0")
    publish_to_git_mirror(new.folder, olah_server.mirror_root, "acme/demo", "1.1.0")

    env = olah_server.client_env(tmp_path)
    out = tmp_path / "fetched"
    fetched = _lengthwise(["fetch", "acme/demo@v1.0.0", "--out", str(out)], env)
    assert fetched.returncode == 0, fetched.stderr[-3000:]
    assert Path(fetched.stdout.strip().splitlines()[-1]) == out
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["version"] == "1.0.0"
    assert read_rows(out / "S" / "test-00000-of-00001.parquet") == old_rows

    loaded = _load("acme/demo", "S", ["v1.0.0", "v1.1.0", "main"], env)
    assert loaded["v1.0.0"]["id"] == [r["id"] for r in old_rows]
    assert loaded["v1.0.0"]["summary"] == [r["summary"] for r in old_rows]
    assert loaded["v1.1.0"]["id"] == [r["id"] for r in old_rows][1:]
    assert loaded["v1.1.0"]["summary"][0] == "Revised reference summary for v1.1.0 (test fixture)."
    assert loaded["main"] == loaded["v1.1.0"]

    missing = _lengthwise(["fetch", "acme/demo@v9.9.9", "--out", str(tmp_path / "x")], env)
    assert missing.returncode == 2
    assert "v9.9.9" in missing.stderr
    unknown = _lengthwise(["fetch", "acme/nothere@v1.0.0"], env)
    assert unknown.returncode == 2
    assert "acme/nothere@v1.0.0: no such dataset repository or revision" in unknown.stderr

    with pytest.raises(PublishRefused, match=r"already has tag v1.0.0"):
        publish_to_git_mirror(old.folder, olah_server.mirror_root, "acme/demo", "1.0.0")
