"""Real shared books built once per session for the recall and qa builder tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.spec import Spec
from tests.fixtures.model_tasks import build_books


@pytest.fixture(scope="session")
def model_task_books(
    shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Spec, Path]:
    """(spec, work dir) with 红楼梦 and Pride and Prejudice built (chars tokenizer); read-only."""
    folder = tmp_path_factory.mktemp("model-task-books")
    spec = build_books(
        shared_corpora,
        folder,
        [("zh_simplified_four_classics", "hongloumeng_utf8.txt"),
         ("en_pg_stripped", "pride_and_prejudice.txt")],
    )  # fmt: skip
    return spec, folder / "work"


@pytest.fixture
def books_work(model_task_books: tuple[Spec, Path], tmp_path: Path) -> tuple[Spec, Path]:
    """A private copy of the built corpus (the builders write chunk labels and a cache)."""
    import shutil

    spec, source = model_task_books
    target = tmp_path / "work"
    shutil.copytree(source / "corpus", target / "corpus")
    return spec, target
