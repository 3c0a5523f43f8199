"""Fixtures for publish/fetch tests: demo releases, a local git mirror, a real olah server.

`--run-hub` (with HF_TOKEN and LENGTHWISE_HUB_TEST_REPO) opts into the live Hub test;
the option is registered in tests/conftest.py; LENGTHWISE_RUN_HUB=1 works too.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

# The release tests' helpers (demo build, annotator output fixture), shared by path.
sys.path.insert(0, str(Path(__file__).parent.parent / "release"))
from release_helpers import annotate_all, copy_work

from lengthwise.spec import Spec, load_spec

OLAH_CLI = Path(sys.executable).parent / "olah-cli"


def run_hub_requested(config: pytest.Config) -> bool:
    try:
        option = bool(config.getoption("--run-hub"))
    except ValueError:  # option not registered: this conftest was not loaded at start-up
        option = False
    return option or os.environ.get("LENGTHWISE_RUN_HUB") == "1"


@pytest.fixture(scope="session")
def hub_demo_built(demo_built: tuple[Path, Path]) -> tuple[Path, Path]:
    return demo_built  # the shared demo build (tests/conftest.py)


@pytest.fixture
def demo_spec_path(hub_demo_built: tuple[Path, Path]) -> Path:
    return hub_demo_built[0]


@pytest.fixture
def demo_spec(demo_spec_path: Path) -> Spec:
    return load_spec(demo_spec_path)


@pytest.fixture
def annotated_work(hub_demo_built: tuple[Path, Path], demo_spec: Spec, tmp_path: Path) -> Path:
    """A private copy of the demo work dir with (test fixture) summaries for every sample."""
    work = copy_work(hub_demo_built[1], tmp_path / "work")
    annotate_all(work, demo_spec)
    return work


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class OlahServer:
    endpoint: str
    mirror_root: Path

    def client_env(self, home: Path) -> dict[str, str]:
        """Environment for a client process that talks to this endpoint only."""
        env = {
            **os.environ,
            "HF_ENDPOINT": self.endpoint,
            "HF_HUB_DISABLE_XET": "1",
            "HF_HUB_OFFLINE": "0",
            "HF_DATASETS_OFFLINE": "0",
            "HF_HOME": str(home / "hf"),
            "HF_HUB_DISABLE_TELEMETRY": "1",
            "HF_HUB_DISABLE_PROGRESS_BARS": "1",
        }
        env.pop("HF_TOKEN", None)
        return env


@pytest.fixture
def olah_server(tmp_path: Path) -> Iterator[OlahServer]:
    """A real olah server on 127.0.0.1, offline, serving git repos under `mirror_root`.

    Repositories published into mirror_root after the start are served too (olah opens
    them per request); metadata caching is off so `main` is never stale.
    """
    if not OLAH_CLI.is_file():
        pytest.fail(f"olah is not installed in this environment ({OLAH_CLI} missing)")
    mirror_root = tmp_path / "mirror"
    mirror_root.mkdir()
    port = _free_port()
    config = tmp_path / "olah.toml"
    config.write_text(
        "[basic]\n"
        'host = "127.0.0.1"\n'
        f"port = {port}\n"
        f'repos-path = "{tmp_path / "olah-cache"}"\n'
        f'mirrors-path = ["{mirror_root}"]\n'
        "metadata-cache-ttl = 0\n"
        "\n[accessibility]\noffline = true\n",
        encoding="utf-8",
    )
    log = (tmp_path / "olah.log").open("wb")
    process = subprocess.Popen(
        [str(OLAH_CLI), "--config", str(config), "--log-path", str(tmp_path / "olah-logs")],
        cwd=tmp_path,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                pytest.fail(f"olah exited with {process.returncode}; see {tmp_path / 'olah.log'}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("olah did not start listening within 30 s")
                time.sleep(0.2)
        yield OlahServer(endpoint, mirror_root)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@dataclass(frozen=True)
class LiveHub:
    repo_id: str
    token: str


def live_hub_skip_reason(config: pytest.Config) -> str | None:
    if not run_hub_requested(config):
        return (
            "live Hub upload NOT tested: opt in with `pytest tests/releases/hub --run-hub` "
            "(or LENGTHWISE_RUN_HUB=1), HF_TOKEN and LENGTHWISE_HUB_TEST_REPO=org/name"
        )
    if not os.environ.get("HF_TOKEN") or not os.environ.get("LENGTHWISE_HUB_TEST_REPO"):
        return (
            "live Hub upload NOT tested: --run-hub given but HF_TOKEN or "
            "LENGTHWISE_HUB_TEST_REPO (a dataset repo you may write to) is not set"
        )
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip live-Hub tests at collection, before their fixtures build anything."""
    reason = live_hub_skip_reason(config)
    if reason is None:
        return
    for item in items:
        if "live_hub" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def live_hub(request: pytest.FixtureRequest) -> LiveHub:
    """The live Hub target (tests using it are skipped with a reason when not opted in)."""
    reason = live_hub_skip_reason(request.config)
    if reason is not None:
        pytest.skip(reason)
    return LiveHub(os.environ["LENGTHWISE_HUB_TEST_REPO"], os.environ["HF_TOKEN"])
