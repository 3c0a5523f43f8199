"""Fixtures for the drafting tests: a built demo work directory and a drafter config."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lengthwise.builders.build import run_build
from lengthwise.builders.demo_corpus import write_demo_corpus, write_demo_spec
from lengthwise.spec import LLMRoleConfig, load_spec


@pytest.fixture(scope="session")
def demo_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(spec path, work dir) of the demo corpus, built once per session; do not modify."""
    folder = tmp_path_factory.mktemp("demo-draft")
    write_demo_corpus(folder / "corpus")
    spec_path = write_demo_spec(folder)
    run_build(load_spec(spec_path), folder / "work", progress=False, workers=1)
    return spec_path, folder / "work"


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
