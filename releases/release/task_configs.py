"""Task families in a release: one dataset config per task and length.

Each task/length of the build's task stage (WORK/tasks/<task>/<length>.parquet) becomes
the config `release_config_name(task, length)`, laid out exactly like the summary
subsets (`<config>/test-00000-of-00001.parquet`, the task-instance schema), listed in
the card's YAML and in manifest.json under "tasks", and loaded with datasets during
validation. Families that need a human check before release ("qa", "recall") pass
through the human-check gate (lengthwise.annotation.task_checks.gate); whatever it
holds back is counted in the card.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from lengthwise.builders.tasks.lengths import task_lengths
from lengthwise.builders.tasks.report_record import TaskLengthReport, read_tasks_report
from lengthwise.releases.release.layout import ReleaseError, data_file
from lengthwise.releases.release.manifest import row_entry
from lengthwise.releases.release.manifest_record import SampleEntryJson, TaskEntryJson
from lengthwise.spec import Spec
from lengthwise.stage_state import CompletionRecord
from lengthwise.store import WorkStore
from lengthwise.task_records import TaskInstance, release_config_name
from lengthwise.workdir import WorkDir

GATED_FAMILIES = ("qa", "recall")  # never released without the human check
GATE_MODULE = "lengthwise.annotation.task_checks.gate"
TASK_STAGE = "tasks"  # TaskStage.name


@dataclass
class TaskConfig:
    config: str
    task: str
    family: str
    length: str
    rows: list[TaskInstance]  # as released (public tokenizer name); rows at write time
    built: TaskLengthReport  # the task stage's report entry for this length
    held_back: Counter[str] = field(default_factory=Counter)  # by the human-check gate


def collect_task_configs(
    spec: Spec, work: WorkDir, tokenizer_names: Mapping[str, str]
) -> tuple[list[TaskConfig], list[TaskConfig]]:
    """(configs to release, configs left out because no instance is left)."""
    if not spec.tasks:
        return [], []
    built = _built_lengths(work)
    store = WorkStore(work)
    released: list[TaskConfig] = []
    empty: list[TaskConfig] = []
    for task in spec.tasks:
        for length in task_lengths(spec, task):
            entry = built.get((task.name, length.name))
            if entry is None:
                raise ReleaseError(
                    f"{work.tasks_report}: task {task.name!r} length {length.name!r} was not "
                    "built; run `lengthwise tasks SPEC`"
                )
            instances = store.task_instances(task.name, length.name)
            instances, held_back = _gate(work, task.name, task.family, instances)
            rows = [_public_instance(i, tokenizer_names) for i in instances]
            config = TaskConfig(
                release_config_name(task.name, length.name),
                task.name,
                task.family,
                length.name,
                rows,
                entry,
                held_back,
            )
            (released if rows else empty).append(config)
    return released, empty


def _built_lengths(work: WorkDir) -> dict[tuple[str, str], TaskLengthReport]:
    """The task stage's report by (task, length), refusing a stage whose files changed."""
    if not work.tasks_report.is_file():
        raise ReleaseError(
            f"{work.tasks_report}: the spec has [[tasks]] but none were built; "
            "run `lengthwise tasks SPEC`"
        )
    record = CompletionRecord.load(work.root, TASK_STAGE)
    if record is None or record.stale_outputs():
        raise ReleaseError(
            f"{work.tasks}: task files changed or incomplete since they were built; "
            "rerun `lengthwise tasks SPEC`"
        )
    return read_tasks_report(work).lengths()


def _gate(
    work: WorkDir, task: str, family: str, instances: list[TaskInstance]
) -> tuple[list[TaskInstance], Counter[str]]:
    if family not in GATED_FAMILIES:
        return instances, Counter()
    try:  # imported by name: the gate is written beside this module (annotation area)
        gate = importlib.import_module(GATE_MODULE)
    except ImportError as exc:
        raise ReleaseError(
            f"task {task!r} ({family}) needs the human-check gate before release "
            f"({GATE_MODULE}): {exc}"
        ) from None
    kept: tuple[list[TaskInstance], Counter[str]] = gate.released_instances(
        work, task, family, instances
    )
    return kept


def _public_instance(instance: TaskInstance, tokenizer_names: Mapping[str, str]) -> TaskInstance:
    public = tokenizer_names.get(instance.tokenizer, instance.tokenizer)
    return replace(instance, tokenizer=public)


def _instance_entry(instance: TaskInstance) -> SampleEntryJson:
    """A released instance's id and hashes (task rows have no summary)."""
    return row_entry(instance.to_row(), instance.context, None)


def manifest_tasks(configs: list[TaskConfig]) -> dict[str, TaskEntryJson]:
    """manifest.json's "tasks": per config, what it is and every instance's hashes."""
    return {
        c.config: {
            "task": c.task,
            "family": c.family,
            "length": c.length,
            "data_file": data_file(c.config),
            "rows": len(c.rows),
            "samples": [_instance_entry(i) for i in c.rows],
        }
        for c in configs
    }
