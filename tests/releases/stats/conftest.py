"""A demo build shared by the statistics tests (about 10 s, once per session)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def stats_demo_build(demo_built: tuple[Path, Path]) -> tuple[Path, Path]:
    """(spec path, work dir) of the shared demo build (tests/conftest.py); read-only."""
    return demo_built


@pytest.fixture
def stats_work(stats_demo_build: tuple[Path, Path], tmp_path: Path) -> Path:
    """A private copy of the demo work dir (build outputs only) for one test."""
    source = stats_demo_build[1]
    target = tmp_path / "work"
    target.mkdir()
    shutil.copytree(source / "samples", target / "samples")
    shutil.copy2(source / "build_report.json", target / "build_report.json")
    return target
