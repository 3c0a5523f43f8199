"""Fixtures for the drafting tests: a built demo work directory and a drafter config."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lengthwise.spec import LLMRoleConfig


@pytest.fixture(scope="session")
def demo_build(demo_built: tuple[Path, Path]) -> tuple[Path, Path]:
    """(spec path, work dir) of the shared demo build (tests/conftest.py); do not modify."""
    return demo_built


@pytest.fixture
def draft_work(demo_build: tuple[Path, Path], tmp_path: Path) -> Path:
    """A private copy of the built demo work directory (samples and corpus only)."""
    _, source = demo_build
    target = tmp_path / "work"
    shutil.copytree(source / "samples", target / "samples")
    shutil.copytree(source / "corpus", target / "corpus")
    return target


@pytest.fixture
def drafter_config() -> LLMRoleConfig:
    return LLMRoleConfig(model="scripted-model", base_url="http://127.0.0.1:9/v1", max_tokens=300)
