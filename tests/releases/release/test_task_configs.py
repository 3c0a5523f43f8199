"""Task families in a release: each task/length its own config, read by datasets.load_dataset,
listed in the card's YAML and the manifest, with a card section per task."""

from __future__ import annotations

import shutil
from pathlib import Path

import datasets
import pytest

from lengthwise.builders.build import run_build
from lengthwise.builders.tasks.stage import run_tasks
from lengthwise.releases.release.build import build_release
from lengthwise.releases.release.layout import ReleaseError
from lengthwise.spec import Spec, load_spec
from lengthwise.store import WorkStore
from lengthwise.workdir import WorkDir

TASKS = """
[[tasks]]
name = "grow"
family = "incremental"
start_tokens = 2048
step_tokens = 2048
max_tokens = 4096
books = 2

[[tasks]]
name = "swim"
family = "needles"
documents = "{swim}"
fills = [0.5]
lengths = [
  {{ name = "4k", target = 4096, lower = 3500, upper = 4200, count = 12 }},
  {{ name = "8k", target = 8192, lower = 7400, upper = 8400, count = 12 }},
]
"""


@pytest.fixture
def built_tasks(
    demo_built: tuple[Path, Path], shared_corpora: Path, tmp_path: Path
) -> tuple[Spec, Path]:
    spec_path, demo_work = demo_built
    work = tmp_path / "work"
    shutil.copytree(demo_work, work)
    text = spec_path.read_text(encoding="utf-8")
    text = text.replace('path = "corpus"', f'path = "{spec_path.parent / "corpus"}"')
    spec_file = tmp_path / "tasks.toml"
    swim = shared_corpora / "seed_artifacts" / "swim"
    spec_file.write_text(text + TASKS.format(swim=swim), encoding="utf-8")
    spec = load_spec(spec_file)
    run_build(spec, work, progress=False, workers=1)
    run_tasks(spec, work)
    return spec, work


def test_release_holds_every_task_length_as_a_config(built_tasks: tuple[Spec, Path]) -> None:
    spec, work = built_tasks
    result = build_release(spec, work, "1.0.0", allow_unannotated=True)
    folder = result.folder
    configs = ["grow-2k", "grow-4k", "swim-4k", "swim-8k"]
    assert list(result.manifest["tasks"]) == configs
    card = (folder / "README.md").read_text(encoding="utf-8")
    store = WorkStore(WorkDir(work))
    for config in configs:
        task, length = config.split("-")
        built = store.task_instances(task, length)
        assert (folder / config / "test-00000-of-00001.parquet").is_file()
        assert f'- config_name: "{config}"' in card
        loaded = datasets.load_dataset(str(folder), config, split="test")
        assert (
            loaded["id"]
            == [i.id for i in built]
            == [s["id"] for s in result.manifest["tasks"][config]["samples"]]
        )
        assert loaded["context"] == [i.context for i in built]
        assert result.manifest["files"][f"{config}/test-00000-of-00001.parquet"]["sha256"]
    swim = datasets.load_dataset(str(folder), "swim-4k", split="test")
    assert all(a for a in swim["answers"]) and set(swim["fill"]) == {None, 0.5}
    assert "### swim (needles)" in card and "### grow (incremental)" in card
    assert "`answers`: the accepted answers to the question." in card
    assert "| swim-8k | 8k | 12 | 12 | 8,192 | [7,400, 8,400] |" in card
    assert "more long books than the task's `books`" in card  # drops are in the card


def test_release_refuses_tasks_that_were_not_built(built_tasks: tuple[Spec, Path]) -> None:
    spec, work = built_tasks
    WorkDir(work).task_file("grow", "4k").write_bytes(b"changed")
    with pytest.raises(ReleaseError, match="rerun `lengthwise tasks SPEC`"):
        build_release(spec, work, "1.0.0", allow_unannotated=True)
