"""Real shared books for the task-family tests, processed once per session.

The order-clue heuristics (builders/tasks/order_clues.py) were written looking at
红楼梦, 三国演义, Pride and Prejudice and Moby Dick; these tests build from books held
out while writing them: 西游记, 水浒传 (zh) and Tom Sawyer, Sherlock Holmes (en).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lengthwise.builders.corpus import CorpusSettings, process_corpus
from lengthwise.builders.sources.local import read_local_file
from lengthwise.builders.tasks.base import TaskBuildContext
from lengthwise.llm.types import LLMClient
from lengthwise.records import Book, SourceDocument
from lengthwise.reports import StageReport
from lengthwise.spec import ChaptersConfig, CleaningConfig, Spec
from lengthwise.task_spec import TaskLength, TaskSpec
from lengthwise.tokenizers import get_tokenizer
from lengthwise.workdir import WorkDir

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
