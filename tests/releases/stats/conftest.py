"""A demo build shared by the statistics tests (about 10 s, once per session)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lengthwise.builders.build import run_build
from lengthwise.builders.demo_corpus import write_demo_corpus, write_demo_spec
from lengthwise.spec import load_spec


@pytest.fixture(scope="session")
def stats_demo_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(spec path, work dir) of the synthetic demo build; treat as read-only."""
    root = tmp_path_factory.mktemp("stats-demo")
    write_demo_corpus(root / "corpus")
    spec_path = write_demo_spec(root)
    run_build(load_spec(spec_path), root / "work", progress=False, workers=1)
    return spec_path, root / "work"


@pytest.fixture
def stats_work(stats_demo_build: tuple[Path, Path], tmp_path: Path) -> Path:
    """A private copy of the demo work dir (build outputs only) for one test."""
    source = stats_demo_build[1]
    target = tmp_path / "work"
    target.mkdir()
    shutil.copytree(source / "samples", target / "samples")
    shutil.copy2(source / "build_report.json", target / "build_report.json")
    return target
