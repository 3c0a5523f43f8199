"""`lengthwise tasks` (and the end of `lengthwise build`): every `[[tasks]]` entry at each of
its lengths, written to WORK/tasks/<task>/<length>.parquet with a report.

For each task and length the family's builder (builders/tasks/base.py) makes instances;
this stage recounts every context independently with the primary tokenizer, drops with
a reason each instance outside its interval or whose recount differs from the
builder's, keeps at most `count` per length (a seeded choice) and writes the files. A
family that cannot be built (no synopses, no model configured) is reported as not
built, with the reason, at every length.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from typing_extensions import TypedDict

from lengthwise import __version__
from lengthwise.builders.tasks.base import (
    FamilyUnavailable,
    TaskBuildContext,
    family_builder,
)
from lengthwise.builders.tasks.build_section import add_task_section
from lengthwise.builders.tasks.inputs import LazyDrafter, chapter_synopses, task_files_fingerprint
from lengthwise.builders.tasks.lengths import task_lengths
from lengthwise.builders.tasks.report import render_tasks_report
from lengthwise.builders.tasks.report_record import (
    DrafterOptions,
    TaskLengthReport,
    TaskReport,
    TasksReport,
)
from lengthwise.builders.tasks.selection import checked_instances, choose
from lengthwise.builders.tasks.shortcuts import shortcut_scores, shortcut_warnings
from lengthwise.errors import UserError
from lengthwise.llm.generation import identity_of
from lengthwise.records import Book
from lengthwise.reports import StageReport
from lengthwise.spec import Spec
from lengthwise.stage_runner import Envelope, Stage, StagePlan, run_stage
from lengthwise.stage_state import remove_leftovers
from lengthwise.storage import atomic_write_parquet, canonical_hash, sha256_file, sha256_text
from lengthwise.store import WorkStore
from lengthwise.task_records import TaskInstance, task_arrow_schema
from lengthwise.task_spec import TaskLength, TaskSpec
from lengthwise.tokenizers import TokenCountCache, count_texts, tokenizer_cache_key
from lengthwise.workdir import WorkDir

log = logging.getLogger(__name__)

MAX_EXAMPLES = 20  # instances named per drop reason in the report (all are counted)


@dataclass
class TaskRun:
    work: WorkDir
    up_to_date: bool
    report: TasksReport


def run_tasks(spec: Spec, work_dir: Path, llm_options: DrafterOptions | None = None) -> TaskRun:
    """Build every `[[tasks]]` entry of `spec` from the finished build in `work_dir`.

    `llm_options` go to `make_client` for the drafting model (tests: provider="scripted").
    """
    stage = TaskStage(spec, WorkDir(work_dir), llm_options or {})
    run = run_stage(stage)
    add_task_section(stage.work, run.body)
    return TaskRun(stage.work, run.up_to_date, run.body)


@dataclass
class _TaskInputs:
    books: dict[str, Book]
    synopses: dict[str, str]
    synopses_skipped: dict[str, int]


@dataclass
class TaskStage(Stage[_TaskInputs, TasksReport]):
    spec: Spec
    work: WorkDir
    llm_options: DrafterOptions = field(default_factory=lambda: DrafterOptions())
    name = "tasks"
    body_type = TasksReport

    def __post_init__(self) -> None:
        self.root = self.work.root
        self.report_json = self.work.tasks_report
        self.report_markdown = self.work.tasks_report_md

    def clear_leftovers(self) -> None:
        remove_leftovers(self.work.tasks)
        for task in self.spec.tasks:
            remove_leftovers(self.work.tasks / task.name)

    def plan(self) -> StagePlan[_TaskInputs]:
        spec, store = self.spec, WorkStore(self.work)
        if not spec.tasks:
            raise UserError(f"{spec.spec_file or spec.name}: the spec has no [[tasks]] table")
        books = store.sampled_books()
        synopses, skipped = chapter_synopses(store.drafts(required=False))
        fingerprint = canonical_hash(
            {
                "tool": __version__,
                "tasks": [_task_fingerprint(spec, t) for t in spec.tasks],
                "tokenizer": tokenizer_cache_key(spec.tokenizers.primary),
                "seed": spec.seed,
                "books": [sha256_file(self.work.books), sorted(books)],
                "synopses": canonical_hash(synopses),
                "llm": self._llm_identity(),
                "task_files": task_files_fingerprint(spec),
            }
        )
        outputs = [
            self.work.task_file(t.name, length.name)
            for t in spec.tasks
            for length in task_lengths(spec, t)
        ]
        return StagePlan(_TaskInputs(books, synopses, dict(skipped)), fingerprint, outputs)

    def _llm_identity(self) -> object:  # only hashed into the fingerprint
        drafter = self.spec.llm.drafter
        if drafter is None:
            return None
        provider = str(self.llm_options.get("provider", drafter.backend))
        return identity_of(drafter, provider=provider)

    def render_body(self, body: TasksReport, envelope: Envelope) -> str:
        return render_tasks_report(body)

    def compute(self, plan: StagePlan[_TaskInputs]) -> TasksReport:
        spec = self.spec
        drafter = (
            LazyDrafter(spec, self.work.root, self.llm_options)
            if spec.llm.drafter is not None
            else None
        )
        count_cache = TokenCountCache(self.work.cache / "token_counts.sqlite")
        try:
            tasks = [
                self._build_task(task, plan.inputs, drafter, count_cache) for task in spec.tasks
            ]
        finally:
            count_cache.close()
            if drafter is not None:
                drafter.close()
        return TasksReport(
            spec=spec.name,
            primary_tokenizer=spec.tokenizers.primary,
            seed=spec.seed,
            books=len(plan.inputs.books),
            synopses=len(plan.inputs.synopses),
            synopses_skipped=plan.inputs.synopses_skipped,
            drafter=drafter.name if drafter is not None and drafter.used else None,
            tasks=tasks,
        )

    def _build_task(
        self,
        task: TaskSpec,
        inputs: _TaskInputs,
        drafter: LazyDrafter | None,
        count_cache: TokenCountCache,
    ) -> TaskReport:
        spec = self.spec
        primary = spec.tokenizers.primary

        def count_tokens(texts: Sequence[str]) -> list[int]:
            keyed = [(sha256_text(t), t) for t in texts]
            return count_texts(keyed, [primary], cache=count_cache, workers=1)[primary]

        lengths = []
        for length in task_lengths(spec, task):
            drops = StageReport(f"tasks:{task.name}:{length.name}", max_examples=MAX_EXAMPLES)
            ctx = TaskBuildContext(
                spec=spec,
                task=task,
                work=self.work,
                books=inputs.books,
                count_tokens=count_tokens,
                tokenizer=primary,
                seed=spec.seed,
                drops=drops,
                synopses=inputs.synopses,
                llm=drafter,
            )
            lengths.append(self._build_length(ctx, length))
        return TaskReport(task.name, task.family, lengths)

    def _build_length(self, ctx: TaskBuildContext, length: TaskLength) -> TaskLengthReport:
        task, drops = ctx.task, ctx.drops
        not_built: str | None = None
        try:
            builder = family_builder(task.family)
        except KeyError as exc:  # a family whose module is not installed: said, not skipped
            builder, not_built = None, str(exc.args[0])
        try:
            built = builder(ctx, length) if builder is not None else []
        except FamilyUnavailable as exc:
            built, not_built = [], str(exc)
        checked = checked_instances(built, length, ctx.tokenizer, drops)
        kept = choose(checked, length.count, ctx.seed, task.name, length.name, drops)
        drops.keep(len(kept))
        shortcuts = shortcut_scores(task.family, kept)
        for line in shortcut_warnings(task.name, length.name, shortcuts):
            drops.warn(line)
        path = self.work.task_file(task.name, length.name)
        atomic_write_parquet(path, [i.to_row() for i in kept], schema=task_arrow_schema())
        if not_built is not None:
            log.warning("task %s (%s) not built: %s", task.name, task.family, not_built)
        entry = _length_entry(length, kept, len(built), not_built, drops.finish())
        entry.shortcuts = shortcuts
        return entry


def _length_entry(
    length: TaskLength,
    kept: list[TaskInstance],
    built: int,
    not_built: str | None,
    drops: StageReport,
) -> TaskLengthReport:
    # The fill series (needles) fills only a share of the window: outside the mean.
    tokens = [i.tokens for i in kept if i.fill is None]
    per_book = Counter(i.book_id for i in kept if i.book_id)
    largest = min(per_book.items(), key=lambda item: (-item[1], item[0]), default=None)
    return TaskLengthReport(
        name=length.name,
        target=length.target,
        lower=length.lower,
        upper=length.upper,
        requested=length.count,
        built=built,
        instances=len(kept),
        fill_instances=sum(1 for i in kept if i.fill is not None),
        mean_tokens=round(sum(tokens) / len(tokens), 1) if tokens else None,
        min_tokens=min(tokens) if tokens else None,
        max_tokens=max(tokens) if tokens else None,
        books=len({i.book_id for i in kept if i.book_id}),
        not_built=not_built,
        dropped=dict(sorted(drops.dropped.items())),
        examples=drops.examples,
        warnings=drops.warnings,
        largest_book=largest[0] if largest else None,
        largest_book_instances=largest[1] if largest else 0,
    )


class _TaskFingerprint(TypedDict):
    task: object  # the task's spec table, as JSON
    lengths: list[object]  # its resolved lengths, as JSON


def _task_fingerprint(spec: Spec, task: TaskSpec) -> _TaskFingerprint:
    return {
        "task": task.model_dump(mode="json"),
        "lengths": [length.model_dump(mode="json") for length in task_lengths(spec, task)],
    }
