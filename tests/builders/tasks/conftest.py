"""Task-stage fixtures: a copy of the demo build with [[tasks]] appended to its spec, a
small real build of two shared books (one zh classic, one en novel), and the same two books
built with the chars tokenizer for the recall and qa builder tests."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.build import run_build
from lengthwise.spec import Spec, load_spec
from tests.fixtures.model_tasks import build_books

TaskSpecFactory = Callable[[str], tuple[Spec, Path]]


@pytest.fixture
def demo_with_tasks(demo_built: tuple[Path, Path], tmp_path: Path) -> TaskSpecFactory:
    """`make(tasks_toml)` -> (spec with those [[tasks]], a private copy of the demo work dir)."""
    spec_path, work = demo_built
    copy = tmp_path / "work"
    shutil.copytree(work, copy)

    def make(tasks_toml: str) -> tuple[Spec, Path]:
        text = spec_path.read_text(encoding="utf-8")
        text = text.replace('path = "corpus"', f'path = "{spec_path.parent / "corpus"}"')
        spec_file = tmp_path / "demo-tasks.toml"
        spec_file.write_text(text + "\n" + tasks_toml, encoding="utf-8")
        return load_spec(spec_file), copy

    return make


REAL_SPEC = """
name = "tasks-real"
language = "auto"
seed = {seed}

[[sources]]
kind = "files"
path = "{zh}"

[[sources]]
kind = "files"
path = "{en}"

[tokenizers]
primary = "qwen2.5"

[[subsets]]
name = "L"
target = 16384
lower = 13000
upper = 18432
count = 4
"""


@pytest.fixture(scope="session")
def real_build(shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build of 红楼梦 and Pride and Prejudice (qwen2.5); the work dir, built once."""
    root = tmp_path_factory.mktemp("tasks-real")
    spec_file = root / "spec.toml"
    spec_file.write_text(real_spec_text(shared_corpora, seed=3), encoding="utf-8")
    run_build(load_spec(spec_file), root / "work", progress=False, workers=1)
    return root / "work"


def real_spec_text(shared_corpora: Path, seed: int) -> str:
    return REAL_SPEC.format(
        seed=seed,
        zh=shared_corpora / "zh_simplified_four_classics" / "hongloumeng_utf8.txt",
        en=shared_corpora / "en_pg_stripped" / "pride_and_prejudice.txt",
    )


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
    spec, source = model_task_books
    target = tmp_path / "work"
    shutil.copytree(source / "corpus", target / "corpus")
    return spec, target
