"""Shared fixtures. Real corpora come from ../shared/corpora and are never copied here."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.fixtures.demo_build import build_demo
from tests.fixtures.shared_data import missing_shared_data

pytest_plugins = ["tests.fixtures.llm_server"]

REPO_ROOT = Path(__file__).resolve().parent.parent


def _find_shared_corpora() -> Path:
    """$LENGTHWISE_SHARED_CORPORA, else the nearest `shared/corpora` beside an ancestor."""
    if "LENGTHWISE_SHARED_CORPORA" in os.environ:
        return Path(os.environ["LENGTHWISE_SHARED_CORPORA"])
    for folder in REPO_ROOT.parents:
        if (folder / "shared" / "corpora").is_dir():
            return folder / "shared" / "corpora"
    return REPO_ROOT.parent / "shared" / "corpora"


SHARED_CORPORA = _find_shared_corpora()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-hub",
        action="store_true",
        default=False,
        help="run the live Hugging Face Hub upload test (needs HF_TOKEN, LENGTHWISE_HUB_TEST_REPO)",
    )


@pytest.fixture(scope="session")
def shared_corpora() -> Path:
    """The shared real corpora; missing, tests skip locally with a clear message and fail
    under CI (see `missing_shared_data`)."""
    if not SHARED_CORPORA.is_dir():
        missing_shared_data(
            f"shared corpora not found at {SHARED_CORPORA} "
            "(set LENGTHWISE_SHARED_CORPORA to the folder holding zh_simplified_four_classics/)"
        )
    return SHARED_CORPORA


@pytest.fixture(scope="session")
def demo_built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(spec path, work dir) of the synthetic demo build, built once per session.

    Read-only: a test that writes (releases, drafts, stats) copies it first.
    """
    return build_demo(tmp_path_factory.getbasetemp() / "demo-build")


@pytest.fixture(autouse=True)
def _no_home_writes(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep caches that libraries put under $HOME inside the test's temporary tree."""
    home = tmp_path_factory.getbasetemp() / "home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("HF_HOME", str(home / ".cache" / "huggingface"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("LENGTHWISE_CACHE_DIR", str(home / ".cache" / "lengthwise"))
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR", raising=False)
    # `datasets` reads its cache folder once, when first imported (often at a test
    # module's import, before this fixture): point the module's setting there too, or
    # load_dataset serves configs cached by an earlier run from the real ~/.cache.
    datasets_config = sys.modules.get("datasets.config")
    if datasets_config is not None:
        cache = home / ".cache" / "huggingface" / "datasets"
        monkeypatch.setattr(datasets_config, "HF_DATASETS_CACHE", cache)
