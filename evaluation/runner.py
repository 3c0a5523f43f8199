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
from lengthwise.evaluation.counting import is_model_folder, make_counter, model_context_window
from lengthwise.evaluation.generation import SKIPPED, Generation
from lengthwise.evaluation.metrics import Metric, get_metric
from lengthwise.evaluation.outcomes import classify
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
from lengthwise.llm.types import ChatRequest, ChatResult, Message
from lengthwise.llm.usage_journal import UsageJournal
from lengthwise.stage_state import StageLock, crash_point, remove_leftovers
from lengthwise.storage import atomic_write_json, canonical_hash

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


def _prompt_version(item: PlannedItem, plan: Plan) -> str:
    """What besides the messages made this prompt (the engine is keyed by `key_identity`)."""
    return canonical_hash(
        {
            "protocol": PROTOCOL_VERSION,
            "prompt": item.prompt.version(item.sample.language),
            "policy": plan.policy,
            "truncation": item.truncation.to_dict() if item.truncation else None,
        }
    )[:24]


def _request(item: PlannedItem, plan: Plan, config: EvalConfig) -> ChatRequest:
    return ChatRequest(
        messages=(Message("user", item.prompt_text),),
        max_tokens=item.max_new_tokens,
        temperature=config.temperature,
        top_p=config.top_p,
        seed=config.seed,
        prompt_version=_prompt_version(item, plan),
        metadata=(("sample", item.sample.id), ("prompt", item.prompt.id)),
    )


def _prefix_cache_order(item: PlannedItem) -> tuple[str, str, int, str, str]:
    """Same template together, then by book and first chapter: prompts sharing a template
    header and a context start (nested samples) run close together for prefix caching."""
    sample = item.sample
    return (item.prompt.id, sample.book_id, sample.first_chapter, sample.subset, sample.id)


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


def _line(
    item: PlannedItem,
    key: str,
    version: str,
    result: ChatResult | None,
    metric: Metric,
) -> Generation:
    sample = item.sample
    line = Generation(
        sample_id=sample.id,
        subset=sample.subset,
        prompt_id=item.prompt.id,
        language=sample.language,
        prompt_tokens=item.prompt_tokens,
        original_prompt_tokens=item.original_tokens,
        max_new_tokens=item.max_new_tokens,
        action=item.action,
        truncation=item.truncation.to_dict() if item.truncation else None,
        request_key=key,
        prompt_version=version,
    )
    if result is None:  # skipped by the plan
        line.outcome, line.skip_reason = SKIPPED, item.skip_reason
        return line
    check = classify(
        result.text,
        result.outcome,
        context=sample.context,
        instruction=item.prompt.instruction(sample.language),
        language=sample.language,
    )
    # Failures that are facts about the request score 0; an `error` is retried, not scored;
    # without a reference summary there is nothing to score against.
    score = (
        None
        if check.outcome == "error" or sample.reference is None
        else metric(result.text, sample.reference, sample.language)
    )
    line.outcome, line.flags, line.details = check.outcome, list(check.flags), check.details
    line.backend_outcome, line.prediction, line.score = result.outcome, result.text, score
    line.usage = {
        "prompt_tokens": result.usage.prompt_tokens,
        "completion_tokens": result.usage.completion_tokens,
    }
    line.cached, line.latency_seconds = result.cached, round(result.latency_seconds, 4)
    line.error = result.error
    return line


def run_eval(config: EvalConfig, *, observer: Observer | None = None) -> EvalRun:
    """Run (or resume) one evaluation; `observer` sees each generations line once written."""
    config.out.mkdir(parents=True, exist_ok=True)
    with StageLock(config.out, "eval"):  # one invocation per run folder at a time
        remove_leftovers(config.out)
        return _run_eval(config, observer)


def _run_eval(config: EvalConfig, observer: Observer | None) -> EvalRun:
    engine = config.engine_settings()
    require_backend(engine.backend)
    out = config.out
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
    local = is_model_folder(engine.model)
    revision = engine.revision or (
        local_model_revision(Path(engine.model).expanduser())
        if local
        else baseline_revision(engine.model)
        if baseline
        else ""
    )
    engine_limit = engine.max_model_len or max(window or 0, plan.required_model_len())
    fingerprint = _fingerprint(config, engine, release, plan, revision)
    check_run_folder(out / RUN_FILE, fingerprint, config.overwrite)
    started = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    atomic_write_json(
        out / RUN_FILE,
        {"fingerprint": fingerprint, "engine": engine.to_dict(), "started": started},
    )

    llm_config = role_config(
        _with_revision(engine, revision),
        # Never let the backend refuse what the plan kept (extrapolate keeps long prompts).
        context_window=(max(window, plan.required_model_len()) if window else None),
        max_tokens=max(limits.values(), default=400),
        temperature=config.temperature,
        seed=config.seed,
    )
    store = GenerationStore(out / GENERATIONS)
    finished = store.latest()
    requests = {item.key: _request(item, plan, config) for item in plan.items}
    identity = key_identity(engine)  # provider, chat template, engine settings: keyed
    keys = {name: request_key(llm_config, r, **identity) for name, r in requests.items()}
    todo: list[PlannedItem] = []
    reused = 0
    for item in plan.items:
        previous = finished.get(item.key)
        if (
            previous is not None
            and previous.request_key == keys[item.key]
            and previous.outcome != "error"
        ):
            reused += 1
            continue
        if item.action == "skipped":
            line = _line(item, keys[item.key], requests[item.key].prompt_version, None, metric)
            store.append(line)
            if observer is not None:
                observer(line.to_row())
            continue
        todo.append(item)
    todo.sort(key=_prefix_cache_order)

    ledger = UsageLedger(UsageJournal(out / USAGE_JOURNAL))  # totals over invocations too
    generated = 0
    cache = RequestCache(config.cache_path or out / CACHE_FILE)
    try:
        if todo:
            log.info(
                "%d of %d (sample, prompt) pairs to generate (%d already done)",
                len(todo),
                len(plan.items),
                reused,
            )

            def record(index: int, result: ChatResult) -> None:
                nonlocal generated
                item = todo[index]
                ledger.record("evaluated", llm_config, result)
                version = requests[item.key].prompt_version
                line = _line(item, keys[item.key], version, result, metric)
                store.append(line)
                crash_point("eval:line-written")
                generated += 1
                if generated % progress_every == 0 or generated == len(todo):
                    log.info("%d/%d answers written to %s", generated, len(todo), store.path)
                if observer is not None:
                    observer(line.to_row())

            progress_every = max(1, len(todo) // 20)
            with open_eval_client(
                engine, llm_config, cache, engine_limit, config.seed, out, release, counter
            ) as client:
                client.complete_many([requests[item.key] for item in todo], on_result=record)
    finally:
        cache.close()

    results = summarise(
        plan=plan,
        lines=store.latest(),
        keys=keys,
        release=release,
        header=run_header(config, engine, revision, counter.id, engine_limit, release),
        usage=ledger.report(),
        resamples=config.bootstrap_resamples,
        seed=config.bootstrap_seed,
    )
    atomic_write_json(out / RESULTS_FILE, results)
    if config.write_report:
        from lengthwise.evaluation.report import write_report

        write_report([out], out)
    return EvalRun(out, results, generated, reused)


def _with_revision(engine: EngineSettings, revision: str) -> EngineSettings:
    return replace(engine, revision=revision or None)
