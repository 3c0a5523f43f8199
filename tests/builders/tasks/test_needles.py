"""Needles (SWiM): the seed task set loads as it is, answering documents sit at the depths
the spec asks for, the fill series fills its share, and chapter questions come from the
drafting model (the scripted provider here)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lengthwise.builders.tasks.needle_documents import Document, folder_documents, folder_questions
from lengthwise.builders.tasks.needles import SEPARATOR, _Sized, arrange
from lengthwise.builders.tasks.selection import recount
from lengthwise.builders.tasks.stage import run_tasks
from lengthwise.llm.types import ChatRequest, ChatResult
from lengthwise.reports import StageReport
from lengthwise.spec import load_spec
from lengthwise.store import WorkStore
from lengthwise.task_records import TaskInstance
from lengthwise.workdir import WorkDir
from tests.builders.tasks.conftest import TaskSpecFactory


def swim_folder(shared_corpora: Path) -> Path:
    return shared_corpora / "seed_artifacts" / "swim"


def test_swim_seed_set_loads_as_it_is(shared_corpora: Path) -> None:
    folder = swim_folder(shared_corpora)
    documents = folder_documents(folder, "auto")
    drops = StageReport("needles")
    questions = folder_questions(folder, documents, drops)
    expected = sum(len(json.loads(p.read_text())) for p in folder.glob("*.json"))
    assert len(questions) == expected == 48  # 29 + 19 items, every answer_doc resolves
    assert not drops.dropped
    assert len(documents) == 997  # 697 + 300 documents, inside the two archives
    for question in questions:
        assert (
            question.document.name
            == json.loads((folder / question.key.split("#")[0]).read_text())[
                question.key.split("#")[1]
            ]["answer_doc"]
        )
    # File names starting with a space are kept exactly (188 of them in SWiM's data).
    assert sum(1 for d in documents if d.name.startswith(" ")) == 188


def _needle_spec(folder: Path, fills: str = "[0.0, 0.5, 1.0]") -> str:
    return f"""
[[tasks]]
name = "swim"
family = "needles"
documents = "{folder}"
fills = {fills}
lengths = [
  {{ name = "4k", target = 4096, lower = 3500, upper = 4200, count = 40 }},
  {{ name = "8k", target = 8192, lower = 7400, upper = 8400, count = 24 }},
]
"""


def _answer_text(instance: TaskInstance, documents: dict[str, Document]) -> str:
    return documents[str(instance.details["answer_document"])].text


def test_needles_sit_at_the_depths_the_spec_says(
    shared_corpora: Path, demo_with_tasks: TaskSpecFactory
) -> None:
    folder = swim_folder(shared_corpora)
    spec, work = demo_with_tasks(_needle_spec(folder))
    run_tasks(spec, work)
    documents = {d.id: d for d in folder_documents(folder, "auto")}
    store = WorkStore(WorkDir(work))
    depths_seen: set[float] = set()
    for length, count, lower, upper in (("4k", 40, 3500, 4200), ("8k", 24, 7400, 8400)):
        instances = store.task_instances("swim", length)
        assert len(instances) == count
        recounted = recount([i.context for i in instances], "qwen2.5")
        for instance, tokens in zip(instances, recounted, strict=True):
            assert instance.lower <= tokens == instance.tokens <= instance.upper
            answer = _answer_text(instance, documents)
            start = instance.context.index(answer)
            shown = instance.context.split(SEPARATOR)
            assert len(shown) == len(instance.source_ids) == instance.details["documents"]
            if len(shown) > 1:  # the stated depth is where the document really starts
                relative = start / (len(instance.context) - len(answer))
                assert relative == pytest.approx(instance.depth, abs=1e-5)
            if instance.fill is None:
                requested = float(instance.details["depth_requested"])  # type: ignore[arg-type]
                depths_seen.add(requested)
                assert abs(instance.depth - requested) <= 0.1  # type: ignore[operator]
                assert (instance.lower, instance.upper) == (lower, upper)
            elif instance.fill > 0:  # fill 0 is the answering document alone
                assert instance.upper == round(instance.fill * upper)
            assert instance.answers and instance.question
    assert depths_seen == {0.0, 0.25, 0.5, 0.75, 1.0}


def test_fill_series_fills_its_share_of_the_window(
    shared_corpora: Path, demo_with_tasks: TaskSpecFactory
) -> None:
    spec, work = demo_with_tasks(_needle_spec(swim_folder(shared_corpora), "[0.0, 0.5, 1.0]"))
    run_tasks(spec, work)
    instances = WorkStore(WorkDir(work)).task_instances("swim", "4k")
    by_fill = {i.fill: i for i in instances if i.fill is not None}
    assert set(by_fill) == {0.0, 0.5, 1.0}
    assert by_fill[0.0].source_ids == [by_fill[0.0].details["answer_document"]]
    assert 1750 <= by_fill[0.5].tokens <= 2100
    assert 3500 <= by_fill[1.0].tokens <= 4200


@given(
    st.lists(st.integers(min_value=1, max_value=3000), min_size=1, max_size=30),
    st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]),
)
def test_arrange_puts_the_document_as_close_to_the_depth_as_documents_allow(
    lengths: list[int], depth: float
) -> None:
    distractors = [_Sized(Document(f"d{i}", "c", "x" * n, "en"), n) for i, n in enumerate(lengths)]
    answer = Document("answer", "c", "A" * 50, "en")
    shown, achieved = arrange(distractors, answer, depth)
    context = SEPARATOR.join(d.text for d in shown)
    start = context.index(answer.text)
    assert achieved == pytest.approx(start / (len(context) - len(answer.text)))
    weights = [n + len(SEPARATOR) for n in lengths]
    # Off by at most half a document (the smallest one left after it, at worst the largest).
    assert abs(achieved - depth) * sum(weights) <= max(weights) / 2 + 1e-9
    assert sorted(d.id for d in shown) == sorted(["answer", *(d.document.id for d in distractors)])


_CHAPTER = re.compile(
    r"--- chapter ---\n(.*)\n--- end of chapter ---|【章节开始】\n(.*)\n【章节结束】", re.S
)


def quote_first_line(request: ChatRequest) -> ChatResult:
    """A model that asks which chapter starts with a line, answering with that line."""
    match = _CHAPTER.search(request.messages[-1].content)
    assert match is not None
    text = match.group(1) or match.group(2)
    body = text.split("\n")[1] if "\n" in text else text
    reply = json.dumps({"question": "Which line follows the heading?", "answer": body[:40]})
    return ChatResult(text=reply, outcome="ok", model="scripted-model")


CHAPTER_TASK = """
[llm.drafter]
model = "scripted-model"

[[tasks]]
name = "chapneedles"
family = "needles"
depths = [0.0, 0.5, 1.0]
lengths = [
  { name = "8k", target = 8192, lower = 7000, upper = 8600, count = 6 },
  { name = "12k", target = 12288, lower = 11000, upper = 12800, count = 6 },
]
"""


def test_chapter_needles_ask_the_drafting_model(demo_with_tasks: TaskSpecFactory) -> None:
    spec, work = demo_with_tasks(CHAPTER_TASK)
    run = run_tasks(spec, work, {"provider": "scripted", "script": quote_first_line})
    store = WorkStore(WorkDir(work))
    books = store.sampled_books()
    chapters = {c.sha256: (b, c) for b in books.values() for c in b.chapters}
    for length in ("8k", "12k"):
        instances = store.task_instances("chapneedles", length)
        assert len(instances) == 6
        for instance in instances:
            book, chapter = chapters[str(instance.details["answer_document"])]
            assert instance.book_id == book.id and instance.language == book.language
            assert instance.answers[0] in chapter.text  # answered by that chapter
            assert chapter.heading in instance.context
            # distractors: other chapters in the same language, other books first
            others = [chapters[s][0] for s in instance.source_ids if s != chapter.sha256]
            assert others and all(b.language == book.language for b in others)
            assert any(b.id != book.id for b in others)
    assert run.report.drafter == "scripted:scripted-model"


def test_chapter_needles_without_a_model_are_reported_not_built(
    demo_with_tasks: TaskSpecFactory,
) -> None:
    spec, work = demo_with_tasks(
        CHAPTER_TASK.replace('[llm.drafter]\nmodel = "scripted-model"', "")
    )
    run = run_tasks(spec, work)
    lengths = run.report.tasks[0].lengths
    assert [entry.not_built for entry in lengths] == [
        "needles over chapters need a model to write the questions; set [llm.drafter]"
    ] * 2
    markdown = WorkDir(work).tasks_report_md.read_text(encoding="utf-8")
    assert "chapneedles (needles): not built: needles over chapters need a model" in markdown
    assert WorkStore(WorkDir(work)).task_instances("chapneedles", "8k") == []


@pytest.mark.slow
def test_chapter_needles_on_the_shared_corpora(real_build: Path, tmp_path: Path) -> None:
    """红楼梦 and Pride and Prejudice at two lengths: one book per language, so the
    distractors are the book's other chapters."""
    spec_file = tmp_path / "spec.toml"
    build_spec = (real_build.parent / "spec.toml").read_text(encoding="utf-8")
    tasks = CHAPTER_TASK.replace(
        "8192, lower = 7000, upper = 8600", "16384, lower = 15000, upper = 17000"
    )
    tasks = tasks.replace('"8k"', '"16k"').replace(
        "12288, lower = 11000, upper = 12800", "24576, lower = 23000, upper = 25000"
    )
    tasks = tasks.replace('"12k"', '"24k"')
    spec_file.write_text(build_spec + tasks, encoding="utf-8")
    run_tasks(
        load_spec(spec_file), real_build, {"provider": "scripted", "script": quote_first_line}
    )
    store = WorkStore(WorkDir(real_build))
    for length in ("16k", "24k"):
        instances = store.task_instances("chapneedles", length)
        assert len(instances) == 6 and {i.language for i in instances} <= {"zh", "en"}
        for instance, tokens in zip(
            instances, recount([i.context for i in instances], "qwen2.5"), strict=True
        ):
            assert instance.lower <= tokens == instance.tokens <= instance.upper
            requested = float(instance.details["depth_requested"])  # type: ignore[arg-type]
            assert abs(instance.depth - requested) <= 0.2  # type: ignore[operator]


def test_needles_are_deterministic_for_a_seed(
    shared_corpora: Path, demo_with_tasks: TaskSpecFactory
) -> None:
    spec, work = demo_with_tasks(_needle_spec(swim_folder(shared_corpora)))
    run_tasks(spec, work)
    paths = [WorkDir(work).task_file("swim", n) for n in ("4k", "8k")]
    first = [p.read_bytes() for p in paths]
    for path in paths:
        path.unlink()
    assert not run_tasks(spec, work).up_to_date
    assert [p.read_bytes() for p in paths] == first
