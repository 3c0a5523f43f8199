"""examples/tasks.toml: a [[tasks]] entry for every family, each at two or more lengths."""

from __future__ import annotations

from pathlib import Path

from lengthwise.builders.tasks.lengths import task_lengths
from lengthwise.spec import load_spec
from lengthwise.task_records import FAMILIES

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "tasks.toml"


def test_example_spec_has_every_family_at_two_lengths() -> None:
    spec = load_spec(EXAMPLE)
    assert {task.family for task in spec.tasks} == set(FAMILIES)
    for task in spec.tasks:
        assert len(task_lengths(spec, task)) >= 2, task.name
    sources = {Path(spec.resolve(s.path)).name for s in spec.sources if s.kind == "files"}
    assert sources == {"zh_simplified_four_classics", "en_pg_stripped"}
