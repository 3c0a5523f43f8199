"""Built qa and recall tasks on real shared books, and the real Label Studio server.

The server fixtures are the Label Studio end-to-end tests' own (imported, not copied).
The task stage is not this area's: `built_tasks` writes the builders' instances the way
the stage does (`WorkDir.task_file`, `task_arrow_schema`).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from lengthwise.builders.tasks.base import family_builder
from lengthwise.spec import Spec
from lengthwise.storage import atomic_write_parquet
from lengthwise.task_records import TaskInstance, task_arrow_schema
from lengthwise.workdir import WorkDir
from tests.annotation.labelstudio.conftest import (  # noqa: F401  (fixtures)
    demo_work,
    label_studio_executable,
    ls_server,
    template_database,
)
from tests.fixtures.model_tasks import (
    LENGTH,
    NameLabeller,
    QuestionWriter,
    build_books,
    task_context,
)

TASKS_TOML = """
[[tasks]]
name = "qa"
family = "qa"
lengths = [{ name = "S", target = 20000, lower = 15000, upper = 25000, count = 2 }]

[[tasks]]
name = "recall"
family = "recall"
human_check_share = 0.05
lengths = [{ name = "S", target = 20000, lower = 15000, upper = 25000, count = 2 }]
"""


@dataclass(frozen=True)
class BuiltTasks:
    spec: Spec
    spec_path: Path
    work: Path
    qa: list[TaskInstance]
    recall: list[TaskInstance]


def write_task(work: Path, instances: list[TaskInstance]) -> None:
    for length in sorted({i.length for i in instances}):
        rows = [i.to_row() for i in instances if i.length == length]
        path = WorkDir(work).task_file(instances[0].task, length)
        atomic_write_parquet(path, rows, task_arrow_schema())


@pytest.fixture(scope="session")
def built_tasks_source(
    shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory
) -> BuiltTasks:
    folder = tmp_path_factory.mktemp("task-checks")
    spec = build_books(
        shared_corpora,
        folder,
        [("zh_simplified_four_classics", "hongloumeng_utf8.txt"),
         ("en_pg_stripped", "pride_and_prejudice.txt")],
        TASKS_TOML,
    )  # fmt: skip
    work = folder / "work"
    built: dict[str, list[TaskInstance]] = {}
    for task, script in ((spec.tasks[0], QuestionWriter()), (spec.tasks[1], NameLabeller())):
        with task_context(spec, work, task, script) as ctx:
            built[task.name] = family_builder(task.family)(ctx, LENGTH)
        write_task(work, built[task.name])
    return BuiltTasks(spec, folder / "spec.toml", work, built["qa"], built["recall"])


@pytest.fixture
def built_tasks(built_tasks_source: BuiltTasks, tmp_path: Path) -> BuiltTasks:
    """A private copy (own Label Studio state and validations)."""
    work = tmp_path / "work"
    shutil.copytree(built_tasks_source.work / "tasks", work / "tasks")
    source = built_tasks_source
    return BuiltTasks(source.spec, source.spec_path, work, source.qa, source.recall)
