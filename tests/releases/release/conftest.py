"""Fixtures for release folder tests: one demo build per session, a private copy per test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from release_helpers import copy_work

from lengthwise.spec import Spec, load_spec


@pytest.fixture
def demo_spec(demo_built: tuple[Path, Path]) -> Spec:
    return load_spec(demo_built[0])


@pytest.fixture
def work(demo_built: tuple[Path, Path], tmp_path: Path) -> Path:
    """A private copy of the demo work dir for one test."""
    return copy_work(demo_built[1], tmp_path / "work")
