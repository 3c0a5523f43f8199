"""The task stage: up to date on rerun, rebuilt when [[tasks]] change, the samples build
untouched by [[tasks]], every drop counted with its reason, the build report's section."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from lengthwise.builders.build import run_build
from lengthwise.builders.tasks.inputs import chapter_synopses
from lengthwise.builders.tasks.selection import checked_instances, choose
from lengthwise.builders.tasks.stage import run_tasks
from lengthwise.cli import main
from lengthwise.human_records import ChapterDraft, Draft
from lengthwise.reports import StageReport
from lengthwise.store import WorkStore
from lengthwise.task_spec import TaskLength
from lengthwise.workdir import WorkDir
from tests.builders.tasks.conftest import TaskSpecFactory

GROW = """
[[tasks]]
name = "grow"
family = "incremental"
start_tokens = 2048
step_tokens = 2048
max_tokens = 4096
books = {books}
"""


def test_rerun_is_up_to_date_and_changed_tasks_rebuild(demo_with_tasks: TaskSpecFactory) -> None:
    spec, work = demo_with_tasks(GROW.format(books=2))
    run_build(spec, work, progress=False, workers=1)  # this spec's sources, as `build` runs
    first = run_tasks(spec, work)
    assert not first.up_to_date
    assert [len(WorkStore(WorkDir(work)).task_instances("grow", n)) for n in ("2k", "4k")] == [2, 2]
    assert run_tasks(spec, work).up_to_date
    changed, _ = demo_with_tasks(GROW.format(books=3))
    again = run_tasks(changed, work)
    assert not again.up_to_date
    assert len(WorkStore(WorkDir(work)).task_instances("grow", "2k")) == 3
    # The samples build ignores [[tasks]]: still up to date, its report now has the section.
    assert run_build(changed, work, progress=False, workers=1).up_to_date
    markdown = WorkDir(work).build_report_md.read_text(encoding="utf-8")
    assert "## Task families" in markdown
    assert "| grow | incremental | 2k | 3 | 3 | 2,048 |" in markdown


def test_a_removed_task_file_rebuilds(demo_with_tasks: TaskSpecFactory) -> None:
    spec, work = demo_with_tasks(GROW.format(books=1))
    run_tasks(spec, work)
    WorkDir(work).task_file("grow", "4k").unlink()
    assert not run_tasks(spec, work).up_to_date
    assert WorkDir(work).task_file("grow", "4k").is_file()


def test_recount_drops_what_the_builder_miscounted(demo_with_tasks: TaskSpecFactory) -> None:
    spec, work = demo_with_tasks(GROW.format(books=2))
    run_tasks(spec, work)
    good = WorkStore(WorkDir(work)).task_instances("grow", "2k")
    length = TaskLength(name="2k", target=2048, lower=1536, upper=2048, count=5)
    miscounted = replace(good[0], id="miscounted", tokens=good[0].tokens + 1)
    too_long = replace(good[1], id="too-long", context=good[1].context * 2)
    drops = StageReport("tasks")
    kept = checked_instances([*good, miscounted, too_long], length, "qwen2.5", drops)
    assert [i.id for i in kept] == [i.id for i in good]
    assert dict(drops.dropped) == {
        "recount differs from the builder's count": 1,
        "recount outside the instance's [lower, upper]": 1,
    }
    assert drops.examples["recount differs from the builder's count"][0].startswith("miscounted")


def test_choice_is_seeded_and_keeps_build_order(demo_with_tasks: TaskSpecFactory) -> None:
    spec, work = demo_with_tasks(GROW.format(books=6))
    run_tasks(spec, work)
    instances = WorkStore(WorkDir(work)).task_instances("grow", "2k")
    assert len(instances) >= 4
    picks = [choose(instances, 2, 7, "grow", "2k", StageReport("t")) for _ in range(2)]
    assert picks[0] == picks[1] and len(picks[0]) == 2
    assert [instances.index(i) for i in picks[0]] == sorted(instances.index(i) for i in picks[0])
    others = {
        tuple(i.id for i in choose(instances, 2, s, "grow", "2k", StageReport("t")))
        for s in range(8)
    }
    assert len(others) > 1
    drops = StageReport("t")
    choose(instances, 2, 7, "grow", "2k", drops)
    assert drops.dropped["more instances than the length's count"] == len(instances) - 2


def test_synopses_prefer_human_then_model_and_never_extractive() -> None:
    def chapter(sha: str, drafter: str, text: str) -> ChapterDraft:
        return ChapterDraft(0, "", text, drafter, chapter_sha256=sha, outcome="ok")

    drafts = {
        "a": Draft("a", (chapter("c1", "llm", "model 1"), chapter("c2", "extractive", "cut"))),
        "b": Draft("b", (chapter("c1", "human", "person 1"), chapter("c3", "llm", "model 3"))),
    }
    synopses, skipped = chapter_synopses(drafts)
    assert synopses == {"c1": "person 1", "c3": "model 3"}
    assert skipped == {"extractive draft (not a synopsis)": 1}


def test_tasks_command(demo_with_tasks: TaskSpecFactory, capsys: object) -> None:
    spec, work = demo_with_tasks(GROW.format(books=2))
    assert spec.spec_file is not None
    assert main(["tasks", str(spec.spec_file), "--work", str(work)]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "task families: built" in out
    assert "grow 2k (incremental): 2 of 2 instances" in out
    assert "more long books than the task's `books`" in out  # drops are printed
    assert main(["tasks", str(spec.spec_file), "--work", str(work)]) == 0
    assert "up to date" in capsys.readouterr().out  # type: ignore[attr-defined]


def test_tasks_command_without_tasks_says_so(
    demo_with_tasks: TaskSpecFactory, capsys: object
) -> None:
    spec, work = demo_with_tasks("")
    assert main(["tasks", str(spec.spec_file), "--work", str(work)]) == 2
    assert "the spec has no [[tasks]] table" in capsys.readouterr().err  # type: ignore[attr-defined]


def test_tasks_before_a_build_name_the_command(
    tmp_path: Path, demo_with_tasks: TaskSpecFactory
) -> None:
    spec, _ = demo_with_tasks(GROW.format(books=2))
    assert main(["tasks", str(spec.spec_file), "--work", str(tmp_path / "empty")]) == 2


def test_model_written_families_without_a_drafter_are_reported_not_built(
    demo_with_tasks: TaskSpecFactory,
) -> None:
    tasks = "".join(
        f'[[tasks]]\nname = "{family}"\nfamily = "{family}"\n'
        f'lengths = [{{ name = "2k", target = 2000, lower = 1500, upper = 2500, count = 2 }}]\n\n'
        for family in ("recall", "qa")
    )
    spec, work = demo_with_tasks(tasks)
    run = run_tasks(spec, work)  # no [llm.drafter]: the build goes on and says why
    reasons = [length.not_built for task in run.report.tasks for length in task.lengths]
    assert reasons == ["written by the drafting model: add an [llm.drafter] table to the spec"] * 2
    markdown = WorkDir(work).tasks_report_md.read_text(encoding="utf-8")
    assert "recall (recall): not built: written by the drafting model" in markdown
    assert "qa (qa): not built: written by the drafting model" in markdown
