"""One evaluation run: release -> plan -> generate (resumable) -> score -> results.json.

The run folder holds:
- ``run.json``: the run's settings and fingerprint; a different configuration pointed at
  the same folder is refused (pass ``overwrite`` to start over);
- ``generations.jsonl``: one line per (sample, prompt), appended as each finishes;
- ``request-cache.sqlite``: the LLM request cache (unless another path is given);
- ``results.json`` and the report, written at the end (and rewritten on resume);
- ``state/eval-usage.jsonl`` (usage of every invocation), ``locks/eval.lock``.

Resuming: (sample, prompt) pairs whose line exists for the same request key are not sent
again; answers that reached the request cache but not the file are served from it.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from lengthwise.evaluation.backends import (
    EngineSettings,
    key_identity,
    local_model_revision,
    require_backend,
    role_config,
)
from lengthwise.evaluation.baselines import baseline_revision, check_baseline
from lengthwise.evaluation.clients import open_eval_client
from lengthwise.evaluation.counting import (
    PromptCounter,
    is_model_folder,
    make_counter,
    model_context_window,
)
from lengthwise.evaluation.generation_lines import chat_request, generation_line, prefix_cache_order
from lengthwise.evaluation.metrics import Metric, get_metric
from lengthwise.evaluation.planning import (
    Plan,
    PlannedItem,
    Policy,
    make_plan,
    max_new_tokens_for,
)
from lengthwise.evaluation.prompts import PromptTemplate, select_prompts
from lengthwise.evaluation.results import summarise
from lengthwise.evaluation.run_header import PROTOCOL_VERSION, run_header
from lengthwise.evaluation.samples import ReleaseData, load_release
from lengthwise.evaluation.store import (
    GENERATIONS,
    USAGE_JOURNAL,
    GenerationStore,
    check_run_folder,
)
from lengthwise.llm.accounting import UsageLedger
from lengthwise.llm.cache import RequestCache, request_key
from lengthwise.llm.types import ChatRequest, ChatResult
from lengthwise.llm.usage_journal import UsageJournal
from lengthwise.spec import LLMRoleConfig
from lengthwise.stage_runner import Stage, StagePlan, run_stage
from lengthwise.stage_state import crash_point
from lengthwise.storage import atomic_write_json

log = logging.getLogger(__name__)

RUN_FILE: Final = "run.json"
RESULTS_FILE: Final = "results.json"
CACHE_FILE: Final = "request-cache.sqlite"


@dataclass
class EvalConfig:
    release: str
    model: str
    backend: str
    out: Path
    subsets: list[str] | None = None
    prompts: list[str] = field(default_factory=lambda: ["IB", "IE"])
    prompt_file: Path | None = None
    chat_template: bool = True
    tokenizer: str | None = None
    context_window: int | None = None
    policy: Policy = "truncate-middle"
    max_new_tokens: dict[str, int] = field(default_factory=dict)
    default_max_new_tokens: int | None = None
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 0
    metric: str = "rouge-l"
    limit: int | None = None
    bootstrap_resamples: int = 1000
    bootstrap_seed: int = 0
    cache_path: Path | None = None  # default: OUT/request-cache.sqlite
    download_dir: Path | None = None
    overwrite: bool = False
    write_report: bool = True
    engine: EngineSettings | None = None  # default: built from model/backend

    def engine_settings(self) -> EngineSettings:
        if self.engine is not None:
            return self.engine
        return EngineSettings(
            backend=self.backend,  # type: ignore[arg-type]
            model=self.model,
            chat_template=self.chat_template,
        )


@dataclass
class EvalRun:
    out: Path
    results: dict[str, Any]
    generated: int  # requests answered in this invocation (cache hits included)
    reused: int  # pairs found finished in generations.jsonl and not sent again


Observer = Callable[[dict[str, Any]], None]
ItemKey = tuple[str, str, str]  # PlannedItem.key


def _context_window(config: EvalConfig, engine: EngineSettings) -> tuple[int | None, str]:
    if config.context_window is not None:
        return config.context_window, "--context-window"
    if is_model_folder(engine.model):
        window = model_context_window(Path(engine.model).expanduser())
        if window is not None:
            return window, "model config"
    return None, "unknown (nothing is truncated or skipped)"


def _check_languages(release: ReleaseData, metric: Metric) -> None:
    """Fail before generating when the metric cannot score a language in the release."""
    languages = {s.language for rows in release.subsets.values() for s in rows}
    for language in sorted(languages):
        metric("check", "check", language)  # raises ValueError naming the language


def _fingerprint(
    config: EvalConfig, engine: EngineSettings, release: ReleaseData, plan: Plan, revision: str
) -> dict[str, Any]:
    """What makes two invocations the same run (and so resumable into one folder)."""
    return {
        "protocol": PROTOCOL_VERSION,
        "release_manifest_sha256": release.identity["manifest_sha256"],
        "model": engine.model,
        "revision": revision,
        "engine": engine.answer_settings(),
        "prompts": {p.id: dict(p.texts) for p in _prompts_of(plan)},
        "policy": plan.policy,
        "context_window": plan.context_window,
        "max_new_tokens": plan.max_new_tokens,
        "decoding": {"temperature": config.temperature, "top_p": config.top_p, "seed": config.seed},
        "metric": config.metric,
    }


def _prompts_of(plan: Plan) -> list[PromptTemplate]:
    seen: dict[str, PromptTemplate] = {}
    for item in plan.items:
        seen.setdefault(item.prompt.id, item.prompt)
    return list(seen.values())


def run_eval(config: EvalConfig, *, observer: Observer | None = None) -> EvalRun:
    """Run (or resume) one evaluation; `observer` sees each generations line once written."""
    config.out.mkdir(parents=True, exist_ok=True)
    stage = EvalStage(config, observer)
    run = run_stage(stage)  # one invocation per run folder at a time
    return EvalRun(config.out, run.report, stage.generated, stage.reused)


@dataclass
class EvalPlan:
    """Everything decided before the first request: what to send, to whom, scored how."""

    engine: EngineSettings
    release: ReleaseData
    plan: Plan
    metric: Metric
    counter: PromptCounter
    revision: str
    engine_limit: int
    llm_config: LLMRoleConfig
    requests: dict[ItemKey, ChatRequest]
    keys: dict[ItemKey, str]  # planned item -> request key


@dataclass
class EvalStage(Stage[EvalPlan]):
    """Plan, generate (resumable: it appends to generations.jsonl), score. It resumes by
    itself, so it has no completion record: the runner gives it the lock and leftovers."""

    config: EvalConfig
    observer: Observer | None
    name = "eval"
    generated: int = 0  # requests answered in this invocation
    reused: int = 0  # pairs found finished and not sent again

    def __post_init__(self) -> None:
        self.root = self.config.out

    def plan(self) -> StagePlan[EvalPlan]:
        return StagePlan(plan_eval(self.config), None)

    def compute(self, plan: StagePlan[EvalPlan]) -> dict[str, Any]:
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
        self.generated = generate(self.config, plan.inputs, todo, store, ledger, self.observer)
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
                line = generation_line(item, key, version, None, ep.metric)
                store.append(line)
                if self.observer is not None:
                    self.observer(line.to_row())
                continue
            todo.append(item)
        todo.sort(key=prefix_cache_order)
        return todo


def plan_eval(config: EvalConfig) -> EvalPlan:
    """Load the release, fit every (sample, prompt) to the context window, and record the
    run's fingerprint in run.json (a different configuration in the folder is refused)."""
    engine = config.engine_settings()
    require_backend(engine.backend)
    release = load_release(
        config.release, config.subsets, limit=config.limit, download_dir=config.download_dir
    )
    prompts = select_prompts(config.prompts, config.prompt_file)
    metric = get_metric(config.metric)
    # A chat endpoint applies its template whatever we ask: count what it will receive.
    server_template = engine.backend in ("openai", "vllm-server")
    baseline = engine.backend == "baseline"
    if baseline:
        check_baseline(engine.model, release)
    counter = make_counter(
        engine.model,
        config.tokenizer or (release.identity.get("primary_tokenizer") if baseline else None),
        chat_template=(engine.chat_template or server_template) and not baseline,
    )
    _check_languages(release, metric)
    window, window_source = _context_window(config, engine)
    limits = {
        subset: max_new_tokens_for(subset, config.max_new_tokens, config.default_max_new_tokens)
        for subset in release.subsets
    }
    plan = make_plan(
        release.subsets,
        prompts,
        counter,
        policy=config.policy,
        context_window=window,
        window_source=window_source,
        max_new_tokens=limits,
    )
    revision = _revision(engine, baseline)
    _start_run_folder(config, _fingerprint(config, engine, release, plan, revision), engine)
    llm_config = role_config(
        _with_revision(engine, revision),
        # Never let the backend refuse what the plan kept (extrapolate keeps long prompts).
        context_window=(max(window, plan.required_model_len()) if window else None),
        max_tokens=max(limits.values(), default=400),
        temperature=config.temperature,
        seed=config.seed,
    )
    decoding = (config.temperature, config.top_p, config.seed)
    requests = {item.key: chat_request(item, plan, decoding) for item in plan.items}
    identity = key_identity(engine)  # provider, chat template, engine settings: keyed
    keys = {name: request_key(llm_config, r, **identity) for name, r in requests.items()}
    engine_limit = engine.max_model_len or max(window or 0, plan.required_model_len())
    return EvalPlan(
        engine, release, plan, metric, counter, revision, engine_limit, llm_config, requests, keys
    )


def _revision(engine: EngineSettings, baseline: bool) -> str:
    if engine.revision:
        return engine.revision
    if is_model_folder(engine.model):
        return local_model_revision(Path(engine.model).expanduser())
    return baseline_revision(engine.model) if baseline else ""


def _start_run_folder(
    config: EvalConfig, fingerprint: dict[str, Any], engine: EngineSettings
) -> None:
    check_run_folder(config.out / RUN_FILE, fingerprint, config.overwrite)
    started = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    atomic_write_json(
        config.out / RUN_FILE,
        {"fingerprint": fingerprint, "engine": engine.to_dict(), "started": started},
    )


def generate(
    config: EvalConfig,
    ep: EvalPlan,
    todo: list[PlannedItem],
    store: GenerationStore,
    ledger: UsageLedger,
    observer: Observer | None,
) -> int:
    """Send `todo`, appending each answer's line as it comes; return how many were answered."""
    if not todo:
        return 0
    generated = 0
    progress_every = max(1, len(todo) // 20)

    def record(index: int, result: ChatResult) -> None:
        nonlocal generated
        item = todo[index]
        ledger.record("evaluated", ep.llm_config, result)
        version = ep.requests[item.key].prompt_version
        line = generation_line(item, ep.keys[item.key], version, result, ep.metric)
        store.append(line)
        crash_point("eval:line-written")
        generated += 1
        if generated % progress_every == 0 or generated == len(todo):
            log.info("%d/%d answers written to %s", generated, len(todo), store.path)
        if observer is not None:
            observer(line.to_row())

    cache = RequestCache(config.cache_path or config.out / CACHE_FILE)
    try:
        with open_eval_client(
            ep.engine,
            ep.llm_config,
            cache,
            ep.engine_limit,
            config.seed,
            config.out,
            ep.release,
            ep.counter,
        ) as client:
            client.complete_many([ep.requests[item.key] for item in todo], on_result=record)
    finally:
        cache.close()
    return generated


def score(
    config: EvalConfig, ep: EvalPlan, store: GenerationStore, ledger: UsageLedger
) -> dict[str, Any]:
    """Summarise every line (this invocation's and earlier ones') into results.json."""
    header = run_header(config, ep.engine, ep.revision, ep.counter.id, ep.engine_limit, ep.release)
    results = summarise(
        plan=ep.plan,
        lines=store.latest(),
        keys=ep.keys,
        release=ep.release,
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


def _with_revision(engine: EngineSettings, revision: str) -> EngineSettings:
    return replace(engine, revision=revision or None)
