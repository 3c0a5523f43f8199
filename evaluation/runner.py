"""One evaluation run: release -> plan -> generate (resumable) -> score -> results.json.

The run folder holds:
- ``run.json``: the run's settings and fingerprint; a different configuration pointed at
  the same folder is refused (pass ``overwrite`` to start over);
- ``generations.jsonl``: one line per (sample, prompt), appended as each finishes (a
  judged line is appended again with its verdict: the last line of a pair counts);
- ``request-cache.sqlite``: the LLM request cache (unless another path is given);
- ``results.json`` and the report, written at the end (and rewritten on resume);
- ``judge_check.jsonl``: a seeded sample of the judge's verdicts, for a person to check;
- ``state/eval-usage.jsonl`` (usage of every invocation), ``locks/eval.lock``.

Resuming: (sample, prompt) pairs whose line exists for the same request key are not sent
again; answers that reached the request cache but not the file are served from it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from lengthwise.evaluation.clients import open_eval_client
from lengthwise.evaluation.config import EvalConfig
from lengthwise.evaluation.generation_lines import generation_line, prefix_cache_order
from lengthwise.evaluation.judging import judge_pending
from lengthwise.evaluation.planning import PlannedItem
from lengthwise.evaluation.results import ResultsDocument, summarise
from lengthwise.evaluation.run_header import run_header
from lengthwise.evaluation.run_plan import RUN_FILE, EvalPlan, plan_eval
from lengthwise.evaluation.store import GENERATIONS, USAGE_JOURNAL, GenerationStore
from lengthwise.llm.accounting import UsageLedger
from lengthwise.llm.cache import RequestCache
from lengthwise.llm.types import ChatResult
from lengthwise.llm.usage_journal import UsageJournal
from lengthwise.progress import QUIET, ProgressDisplay
from lengthwise.stage_runner import Stage, StagePlan, run_stage
from lengthwise.stage_state import crash_point
from lengthwise.storage import atomic_write_json

log = logging.getLogger(__name__)

__all__ = ["RESULTS_FILE", "RUN_FILE", "EvalConfig", "EvalRun", "plan_eval", "run_eval"]
RESULTS_FILE: Final = "results.json"
CACHE_FILE: Final = "request-cache.sqlite"
Observer = Callable[[Mapping[str, object]], None]


@dataclass
class EvalRun:
    out: Path
    results: ResultsDocument
    generated: int  # requests answered in this invocation (cache hits included)
    reused: int  # pairs found finished in generations.jsonl and not sent again


def run_eval(
    config: EvalConfig,
    *,
    observer: Observer | None = None,
    provider_options: Mapping[str, object] | None = None,
) -> EvalRun:
    """Run (or resume) one evaluation; `observer` sees each generations line once written;
    `provider_options` go to the model's provider (the `scripted` provider's script)."""
    stage = EvalStage(config, observer, dict(provider_options or {}))
    run = run_stage(stage)  # one invocation per run folder at a time
    return EvalRun(config.out, run.report, stage.generated, stage.reused)


@dataclass
class EvalStage(Stage[EvalPlan]):
    """Plan, generate (resumable: it appends to generations.jsonl), judge, score. It resumes
    by itself, so it has no completion record: the runner gives it the lock and leftovers."""

    config: EvalConfig
    observer: Observer | None
    provider_options: dict[str, object]
    name = "eval"
    generated: int = 0  # requests answered in this invocation
    reused: int = 0  # pairs found finished and not sent again

    def __post_init__(self) -> None:
        self.root = self.config.out

    def plan(self) -> StagePlan[EvalPlan]:
        return StagePlan(plan_eval(self.config), None)

    def compute(self, plan: StagePlan[EvalPlan]) -> ResultsDocument:
        store = GenerationStore(self.config.out / GENERATIONS)
        todo = self._pending(plan.inputs, store)
        if todo:
            total = len(plan.inputs.plan.items)
            log.info(
                "%d of %d (sample, prompt) pairs to generate (%d already done)",
                len(todo),
                total,
                self.reused,
            )
        ledger = UsageLedger(UsageJournal(self.config.out / USAGE_JOURNAL))  # all invocations
        self.generated = generate(
            self.config,
            plan.inputs,
            todo,
            store,
            ledger,
            self.observer,
            self.provider_options,
            self.display,
        )
        cache = RequestCache(self.config.cache_path or self.config.out / CACHE_FILE)
        try:
            judge_pending(self.config, plan.inputs, store, cache, ledger)
        finally:
            cache.close()
        return score(self.config, plan.inputs, store, ledger)

    def _pending(self, ep: EvalPlan, store: GenerationStore) -> list[PlannedItem]:
        """Items still to send; plan-skipped items get their line now."""
        finished = store.latest()
        todo: list[PlannedItem] = []
        for item in ep.plan.items:
            previous = finished.get(item.key)
            key = ep.keys[item.key]
            finished_here = previous is not None and previous.request_key == key
            if finished_here and previous is not None and previous.outcome != "error":
                self.reused += 1
                continue
            if item.action == "skipped":
                version = ep.requests[item.key].prompt_version
                line = generation_line(item, key, version, None, ep.task_of(item.sample))
                store.append(line)
                if self.observer is not None:
                    self.observer(line.to_row())
                continue
            todo.append(item)
        todo.sort(key=prefix_cache_order)
        return todo


def generate(
    config: EvalConfig,
    ep: EvalPlan,
    todo: list[PlannedItem],
    store: GenerationStore,
    ledger: UsageLedger,
    observer: Observer | None,
    provider_options: Mapping[str, object],
    display: ProgressDisplay = QUIET,
) -> int:
    """Send `todo`, appending each answer's line as it comes; return how many were answered."""
    if not todo:
        return 0
    generated = 0
    # The stage's bar on a terminal; elsewhere (logs, CI) a log line every 5%.
    step = display.step("answers", total=len(todo), unit="answer")
    progress_every = max(1, len(todo) // 20)

    def record(index: int, result: ChatResult) -> None:
        nonlocal generated
        item = todo[index]
        ledger.record("evaluated", ep.llm_config, result)
        version = ep.requests[item.key].prompt_version
        line = generation_line(item, ep.keys[item.key], version, result, ep.task_of(item.sample))
        store.append(line)
        crash_point("eval:line-written")
        generated += 1
        step.advance()
        if not display.enabled and (generated % progress_every == 0 or generated == len(todo)):
            log.info("%d/%d answers written to %s", generated, len(todo), store.path)
        if observer is not None:
            observer(line.to_row())

    cache = RequestCache(config.cache_path or config.out / CACHE_FILE)
    try:
        with open_eval_client(ep, cache, config.seed, config.out, provider_options) as client:
            client.complete_many([ep.requests[item.key] for item in todo], on_result=record)
    finally:
        cache.close()
        step.close()
    return generated


def score(
    config: EvalConfig, ep: EvalPlan, store: GenerationStore, ledger: UsageLedger
) -> ResultsDocument:
    """Summarise every line (this invocation's and earlier ones') into results.json."""
    header = run_header(config, ep.engine, ep.revision, ep.counter.id, ep.engine_limit, ep.release)
    results = summarise(
        plan=ep.plan,
        lines=store.latest(),
        keys=ep.keys,
        release=ep.release,
        tasks=ep.tasks,
        header=header,
        usage=ledger.report(),
        resamples=config.bootstrap_resamples,
        seed=config.bootstrap_seed,
    )
    atomic_write_json(config.out / RESULTS_FILE, results)
    if config.write_report:
        from lengthwise.evaluation.report import write_report

        write_report([config.out], config.out)
    return results
