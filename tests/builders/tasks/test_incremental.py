"""Incremental context on the shared corpora: each step inside its interval by an
independent recount, whole paragraphs, step k a prefix of step k+1, seeded book choice."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.tasks.selection import recount
from lengthwise.builders.tasks.stage import run_tasks
from lengthwise.spec import load_spec
from lengthwise.store import WorkStore
from lengthwise.workdir import WorkDir
from tests.builders.tasks.conftest import real_spec_text

INCREMENTAL = """
[[tasks]]
name = "grow"
family = "incremental"
start_tokens = 4096
step_tokens = 4096
max_tokens = 8192
books = 2
"""


def _build(shared_corpora: Path, real_build: Path, tmp_path: Path, seed: int, books: int) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    spec_file = tmp_path / f"spec-{seed}-{books}.toml"
    tasks = INCREMENTAL.replace("books = 2", f"books = {books}")
    spec_file.write_text(real_spec_text(shared_corpora, seed) + tasks, encoding="utf-8")
    work = tmp_path / f"work-{seed}-{books}"
    work.mkdir()
    for name in ("build_report.json", "corpus"):  # the build's books, not its samples
        source = real_build / name
        target = work / name
        if source.is_dir():
            target.mkdir()
            (target / "books.jsonl").write_bytes((source / "books.jsonl").read_bytes())
        else:
            target.write_bytes(source.read_bytes())
    run_tasks(load_spec(spec_file), work)
    return work


@pytest.mark.slow
def test_incremental_steps_on_the_shared_corpora(
    shared_corpora: Path, real_build: Path, tmp_path: Path
) -> None:
    work = _build(shared_corpora, real_build, tmp_path, seed=3, books=2)
    store = WorkStore(WorkDir(work))
    small, large = store.task_instances("grow", "4k"), store.task_instances("grow", "8k")
    assert len(small) == len(large) == 2
    assert {i.language for i in small} == {"zh", "en"}  # both shared books are long enough
    for instances, target in ((small, 4096), (large, 8192)):
        counts = recount([i.context for i in instances], "qwen2.5")
        for instance, tokens in zip(instances, counts, strict=True):
            assert target - 1024 <= tokens == instance.tokens <= target
            assert instance.answers == [] and instance.question == ""
    books = store.sampled_books()
    for step, grown in zip(small, large, strict=True):
        assert grown.book_id == step.book_id
        assert grown.context.startswith(step.context) and len(grown.context) > len(step.context)
        whole = "\n\n".join(
            f"{c.heading.strip()}\n{c.text.lstrip(chr(13) + chr(10)).rstrip()}"
            for c in books[step.book_id].chapters
        )
        after = whole[len(step.context) :]
        assert whole.startswith(step.context) and after.startswith("\n")  # whole paragraphs


@pytest.mark.slow
def test_incremental_is_deterministic_for_a_seed(
    shared_corpora: Path, real_build: Path, tmp_path: Path
) -> None:
    first = _build(shared_corpora, real_build, tmp_path / "a", seed=3, books=1)
    again = _build(shared_corpora, real_build, tmp_path / "b", seed=3, books=1)
    for length in ("4k", "8k"):
        path = WorkDir(first).task_file("grow", length)
        assert path.read_bytes() == WorkDir(again).task_file("grow", length).read_bytes()
    chosen = {
        WorkStore(WorkDir(_build(shared_corpora, real_build, tmp_path / str(s), s, 1)))
        .task_instances("grow", "4k")[0]
        .book_id
        for s in range(6)
    }
    assert len(chosen) == 2  # the seed picks the book
