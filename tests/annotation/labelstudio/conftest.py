"""A real Label Studio server for the end-to-end tests, started once per test session.

Label Studio comes from .venv-labelstudio (scripts/ensure-labelstudio.sh; CI runs it
before pytest). A migrated empty database is cached in that venv so each session's
server skips the ~25 s of migrations. Annotators sign up through the web form, as
people do, and act with their own API tokens.
"""

from __future__ import annotations

import fcntl
import socket
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from lengthwise.annotation.drafts import run_drafting
from lengthwise.annotation.labelstudio.credentials import Credentials, load_or_create_credentials
from lengthwise.annotation.labelstudio.server import LabelStudioServer, make_migrated_database
from lengthwise.builders.build import run_build
from lengthwise.builders.demo_corpus import write_demo_corpus, write_demo_spec
from lengthwise.spec import load_spec

REPO_ROOT = Path(__file__).resolve().parents[3]
LS_VENV = REPO_ROOT / ".venv-labelstudio"
LS_EXECUTABLE = LS_VENV / "bin" / "label-studio"

E2E_ANNOTATION = """
[annotation]
project_title = "lengthwise e2e"
annotators_per_sample = 2
"""


@dataclass(frozen=True)
class DemoWork:
    spec_path: Path
    work: Path


@pytest.fixture(scope="session")
def demo_work(tmp_path_factory: pytest.TempPathFactory) -> DemoWork:
    """The synthetic demo corpus built and drafted (extractive drafter), two annotators wanted."""
    folder = tmp_path_factory.mktemp("ls-demo")
    write_demo_corpus(folder / "corpus")
    spec_path = write_demo_spec(folder)
    spec_path.write_text(spec_path.read_text(encoding="utf-8") + E2E_ANNOTATION, encoding="utf-8")
    work = folder / "work"
    run_build(load_spec(spec_path), work, progress=False, workers=1)
    run_drafting(work)
    return DemoWork(spec_path, work)


@pytest.fixture(scope="session")
def label_studio_executable() -> Path:
    if not LS_EXECUTABLE.is_file():
        done = subprocess.run(
            ["bash", str(REPO_ROOT / "scripts" / "ensure-labelstudio.sh")],
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        if not LS_EXECUTABLE.is_file():
            pytest.skip(
                f"Label Studio is not installed in {LS_VENV} and scripts/ensure-labelstudio.sh "
                f"could not create it: {(done.stderr or done.stdout)[-500:]}"
            )
    return LS_EXECUTABLE


@pytest.fixture(scope="session")
def template_database(label_studio_executable: Path) -> Path:
    """A migrated empty database, made once per Label Studio install (locked for xdist)."""
    versions = sorted(LS_VENV.glob("lib/python*/site-packages/label_studio-*.dist-info"))
    version = versions[-1].name.removesuffix(".dist-info") if versions else "unknown"
    target = LS_VENV / ".lengthwise-test" / f"migrated-{version}.sqlite3"
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not target.is_file():
            dummy = Credentials("nobody@invalid.example", "unused", "unused0", "unused-secret")
            make_migrated_database(target, dummy, label_studio_executable)
    return target


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class RunningServer:
    server: LabelStudioServer
    credentials: Credentials

    @property
    def url(self) -> str:
        return self.server.url


@pytest.fixture(scope="session")
def ls_server(
    demo_work: DemoWork, label_studio_executable: Path, template_database: Path
) -> Iterator[RunningServer]:
    """Label Studio serving the demo work dir on a free port of 127.0.0.1."""
    credentials = load_or_create_credentials(
        demo_work.work / "labelstudio" / "credentials.json", environ={}
    )
    server = LabelStudioServer(
        demo_work.work,
        credentials,
        port=free_port(),
        executable=label_studio_executable,
        template_database=template_database,
    )
    server.start(timeout=600)
    try:
        yield RunningServer(server, credentials)
    finally:
        server.stop()


@pytest.fixture(scope="session")
def sign_up(ls_server: RunningServer) -> Callable[[str], str]:
    """Create an annotator account through the sign-up form; returns their API token."""
    tokens: dict[str, str] = {}

    def create(email: str) -> str:
        if email in tokens:
            return tokens[email]
        session = requests.Session()
        base = ls_server.url
        session.get(f"{base}/user/signup/", timeout=60)
        response = session.post(
            f"{base}/user/signup/",
            data={
                "email": email,
                "password": "annotator-password-1",
                "csrfmiddlewaretoken": session.cookies.get("csrftoken"),
                "allow_newsletters": "false",
            },
            headers={"Referer": f"{base}/user/signup/"},
            allow_redirects=False,
            timeout=60,
        )
        assert response.status_code == 302, f"sign-up of {email} failed: {response.status_code}"
        token = session.get(f"{base}/api/current-user/token", timeout=60).json()["token"]
        tokens[email] = str(token)
        return tokens[email]

    return create
