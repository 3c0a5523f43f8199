"""`fetch --endpoint URL`: a mirror without HF_ENDPOINT; a non-Hub server is one line."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main
from lengthwise.releases.hub import publish_to_git_mirror
from lengthwise.releases.release import build_release
from lengthwise.spec import Spec


class _NotAHub(http.server.BaseHTTPRequestHandler):
    """Answers every request 200 with an empty JSON object (a busy port's other server)."""

    def do_GET(self) -> None:
        body = b"{}"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_HEAD = do_GET

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def not_a_hub() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _NotAHub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _online_env(home: Path) -> dict[str, str]:
    """The tests run offline (HF_HUB_OFFLINE=1); a fetch process here may talk to 127.0.0.1."""
    env = {**os.environ, "HF_HUB_OFFLINE": "0", "HF_HOME": str(home / "hf")}
    env["HF_HUB_DISABLE_XET"] = "1"
    for name in ("HF_ENDPOINT", "HF_TOKEN"):
        env.pop(name, None)
    return env


def test_a_server_that_is_no_hub_is_one_line_exit_2(not_a_hub: str, tmp_path: Path) -> None:
    out = tmp_path / "fetched"
    done = subprocess.run(
        [sys.executable, "-m", "lengthwise", "fetch", "acme/demo@v1.0.0", "--out", str(out),
         "--endpoint", not_a_hub],
        capture_output=True, text=True, env=_online_env(tmp_path), timeout=120,
    )  # fmt: skip
    err = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr[-3000:]
    assert len(err) == 1 and f"{not_a_hub} did not answer as a Hugging Face Hub endpoint" in err[0]
    assert not out.exists()


def test_an_endpoint_that_is_no_url_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fetch", "acme/demo@v1.0.0", "--endpoint", "127.0.0.1:8090"]) == 2
    assert "expected an http(s) URL" in capsys.readouterr().err


@pytest.mark.slow
def test_fetch_from_a_mirror_by_endpoint_without_hf_endpoint(
    olah_server: Any,  # conftest.OlahServer
    demo_spec: Spec,
    annotated_work: Path,
    tmp_path: Path,
) -> None:
    folder = build_release(demo_spec, annotated_work, "1.0.0").folder
    publish_to_git_mirror(folder, olah_server.mirror_root, "acme/demo", "1.0.0")
    env = olah_server.client_env(tmp_path)
    env.pop("HF_ENDPOINT")
    out = tmp_path / "fetched"
    done = subprocess.run(
        [sys.executable, "-m", "lengthwise", "fetch", "acme/demo@v1.0.0", "--out", str(out),
         "--endpoint", olah_server.endpoint],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert Path(done.stdout.strip().splitlines()[-1]) == out
    assert json.loads((out / "manifest.json").read_text())["version"] == "1.0.0"
