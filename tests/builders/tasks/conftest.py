"""Task-stage fixtures: a copy of the demo build with [[tasks]] appended to its spec, a
small real build of two shared books (one zh classic, one en novel), and the same two books
built with the chars tokenizer for the recall and qa builder tests.

The order-clue heuristics (builders/tasks/order_clues.py) were written looking at
红楼梦, 三国演义, Pride and Prejudice and Moby Dick; the family tests build from books held
out while writing them: 西游记, 水浒传 (zh) and Tom Sawyer, Sherlock Holmes (en).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.build import run_build
from lengthwise.builders.corpus import CorpusSettings, process_corpus
from lengthwise.builders.sources.local import read_local_file
from lengthwise.builders.tasks.base import TaskBuildContext
from lengthwise.llm.types import LLMClient
from lengthwise.records import Book, SourceDocument
from lengthwise.reports import StageReport
from lengthwise.spec import ChaptersConfig, CleaningConfig, Spec, load_spec
from lengthwise.task_spec import TaskLength, TaskSpec
from lengthwise.tokenizers import get_tokenizer
from lengthwise.workdir import WorkDir
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


TOKENIZER = "chars"
HELD_OUT = [
    ("zh_simplified_four_classics", "xiyouji_utf8.txt"),
    ("zh_simplified_four_classics", "shuihu_utf8.txt"),
    ("en_pg_stripped", "tom_sawyer.txt"),
    ("en_pg_stripped", "sherlock.txt"),
]
# Two lengths (in characters, the test tokenizer), counts below the candidates available
# so that another seed draws other instances.
LENGTHS = [
    TaskLength(name="8k", target=8000, lower=6500, upper=9500, count=6),
    TaskLength(name="24k", target=24000, lower=20000, upper=28000, count=4),
]

# Families over runs of 3+ whole chapters (synopsis ordering, sections): lengths long
# enough for such runs in characters (zh 回 are 5-9k characters).
RUN_LENGTHS = [
    TaskLength(name="24k", target=24000, lower=20000, upper=28000, count=4),
    TaskLength(name="40k", target=40000, lower=34000, upper=46000, count=3),
]

MakeContext = Callable[..., TaskBuildContext]


@pytest.fixture(scope="session")
def held_out_books(
    shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Book]:
    documents = [read_local_file(shared_corpora / folder / name) for folder, name in HELD_OUT]
    docs = [d for d in documents if isinstance(d, SourceDocument)]
    assert len(docs) == len(HELD_OUT)
    settings = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())
    cache = tmp_path_factory.mktemp("task-books")
    books = [b for b, _ in process_corpus(docs, settings, [TOKENIZER], cache, 1, False)]
    return {b.id: b for b in books if b is not None}


def count_chars(texts: list[str]) -> list[int]:
    return get_tokenizer(TOKENIZER).count_many(texts)


@pytest.fixture
def make_context(tmp_path: Path) -> MakeContext:
    """A TaskBuildContext over `books` for `task` (fresh drops report each call)."""
    spec = Spec.model_validate({"name": "tasks-test", "sources": [{"kind": "files", "path": "."}]})

    def make(
        task: TaskSpec,
        books: dict[str, Book],
        seed: int = 0,
        synopses: dict[str, str] | None = None,
        llm: LLMClient | None = None,
    ) -> TaskBuildContext:
        return TaskBuildContext(
            spec=spec,
            task=task,
            work=WorkDir(tmp_path / "work"),
            books=books,
            count_tokens=count_chars,
            tokenizer=TOKENIZER,
            seed=seed,
            drops=StageReport(f"tasks:{task.name}"),
            synopses=dict(synopses or {}),
            llm=llm,
        )

    return make
