"""Everything an evaluation run decides before its first request.

`plan_eval` loads the release configs of the run's tasks, gives each sample its task's
prompt fields, fits every (sample, prompt) to the context window (planning.py), and
records the run's fingerprint in run.json: a different configuration pointed at the
same folder is refused unless `overwrite`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from lengthwise.evaluation.backends import (
    EngineSettings,
    key_identity,
    local_model_revision,
    require_backend,
    role_config,
)
from lengthwise.evaluation.baselines import baseline_revision, check_baseline
from lengthwise.evaluation.config import EvalConfig
from lengthwise.evaluation.counting import (
    PromptCounter,
    is_model_folder,
    make_counter,
    model_context_window,
)
from lengthwise.evaluation.generation_lines import chat_request
from lengthwise.evaluation.metrics import get_metric
from lengthwise.evaluation.planning import Plan, make_plan
from lengthwise.evaluation.prompts import PromptTemplate
from lengthwise.evaluation.run_header import PROTOCOL_VERSION
from lengthwise.evaluation.samples import SUMMARIZATION, EvalSample, ReleaseData, load_release
from lengthwise.evaluation.store import check_run_folder
from lengthwise.evaluation.tasks.base import EvalTask
from lengthwise.evaluation.tasks.registry import make_task
from lengthwise.llm.cache import request_key
from lengthwise.llm.types import ChatRequest
from lengthwise.spec import LLMRoleConfig
from lengthwise.storage import atomic_write_json

RUN_FILE: Final = "run.json"
ItemKey = tuple[str, str, str]  # PlannedItem.key: (config, sample id, prompt id)
Fingerprint = dict[str, object]


@dataclass
class EvalPlan:
    """Everything decided before the first request: what to send, to whom, scored how."""

    engine: EngineSettings
    release: ReleaseData
    plan: Plan
    tasks: Mapping[str, EvalTask]  # family -> its task
    counter: PromptCounter
    revision: str
    engine_limit: int
    llm_config: LLMRoleConfig
    requests: dict[ItemKey, ChatRequest]
    keys: dict[ItemKey, str]  # planned item -> request key

    def task_of(self, sample: EvalSample) -> EvalTask:
        return self.tasks[sample.family]


def _context_window(config: EvalConfig, engine: EngineSettings) -> tuple[int | None, str]:
    if config.context_window is not None:
        return config.context_window, "--context-window"
    if is_model_folder(engine.model):
        window = model_context_window(Path(engine.model).expanduser())
        if window is not None:
            return window, "model config"
    return None, "unknown (nothing is truncated or skipped)"


def make_tasks(config: EvalConfig, release: ReleaseData) -> dict[str, EvalTask]:
    """One task per family in the loaded release (summarization with the run's metric)."""
    judge = config.judge is not None
    tasks: dict[str, EvalTask] = {}
    for family in {s.family for rows in release.subsets.values() for s in rows}:
        if family == SUMMARIZATION:
            metric = get_metric(config.metric)
            tasks[family] = make_task(
                family, judge=judge, metric=metric, prompt_file=config.prompt_file
            )
        else:
            tasks[family] = make_task(family, judge=judge)
    return tasks


def _with_fields(release: ReleaseData, tasks: Mapping[str, EvalTask]) -> ReleaseData:
    """The release with every sample's prompt fields filled by its task."""
    subsets = {
        name: [replace(s, prompt_fields=tasks[s.family].fields(s)) for s in rows]
        for name, rows in release.subsets.items()
    }
    return replace(release, subsets=subsets)


def _check_languages(release: ReleaseData, config: EvalConfig) -> None:
    """Fail before generating when the metric cannot score a summary's language."""
    metric = get_metric(config.metric)
    languages = {
        s.language for rows in release.subsets.values() for s in rows if s.family == SUMMARIZATION
    }
    for language in sorted(languages):
        metric("check", "check", language)  # raises naming the language


def _limits(
    config: EvalConfig, release: ReleaseData, tasks: Mapping[str, EvalTask]
) -> dict[str, int]:
    """Max new tokens per config: named override, then the run's default, then the task's."""
    limits: dict[str, int] = {}
    for name, rows in release.subsets.items():
        if name in config.max_new_tokens:
            limits[name] = config.max_new_tokens[name]
        elif config.default_max_new_tokens is not None:
            limits[name] = config.default_max_new_tokens
        elif rows:
            limits[name] = max(tasks[rows[0].family].max_new_tokens(s) for s in rows)
        else:
            limits[name] = 400
    return limits


def _prompts(
    config: EvalConfig, release: ReleaseData, tasks: Mapping[str, EvalTask]
) -> dict[str, list[PromptTemplate]]:
    by_family = {family: task.prompts(config.prompts) for family, task in tasks.items()}
    if config.engine.backend == "baseline":
        # A baseline never reads the instruction: its answers are the same under every
        # prompt, so it runs once (the first prompt) and the report shows it under each.
        by_family = {family: prompts[:1] for family, prompts in by_family.items()}
    return {
        name: by_family[rows[0].family] if rows else [] for name, rows in release.subsets.items()
    }


def prompt_label(family: str, prompt_id: str) -> str:
    """How the fingerprint names a task's template (summary templates keep their id)."""
    return prompt_id if family == SUMMARIZATION else f"{family}/{prompt_id}"


def _fingerprint(
    config: EvalConfig, release: ReleaseData, plan: Plan, revision: str
) -> Fingerprint:
    """What makes two invocations the same run (and so resumable into one folder)."""
    engine = config.engine
    prompts: dict[str, dict[str, str]] = {}
    for item in plan.items:
        label = prompt_label(item.sample.family, item.prompt.id)
        prompts.setdefault(label, dict(item.prompt.texts))
    fingerprint: Fingerprint = {
        "protocol": PROTOCOL_VERSION,
        "release_manifest_sha256": release.manifest_sha256,
        "model": engine.model,
        "revision": revision,
        "engine": engine.answer_settings(),
        "prompts": prompts,
        "policy": plan.policy,
        "context_window": plan.context_window,
        "max_new_tokens": plan.max_new_tokens,
        "decoding": {"temperature": config.temperature, "top_p": config.top_p, "seed": config.seed},
        "metric": config.metric,
    }
    if config.tasks != [SUMMARIZATION]:  # summary-only runs keep their earlier fingerprint
        fingerprint["tasks"] = list(config.tasks)
    if config.judge is not None:
        fingerprint["judge"] = config.judge.model_dump(mode="json", exclude_none=True)
    return fingerprint


def plan_eval(config: EvalConfig) -> EvalPlan:
    """Load the release, fit every (sample, prompt) to the context window, and record the
    run's fingerprint in run.json (a different configuration in the folder is refused)."""
    engine = config.engine
    require_backend(engine.backend)
    loaded = load_release(
        config.release,
        config.subsets,
        limit=config.limit,
        download_dir=config.download_dir,
        tasks=config.tasks,
    )
    tasks = make_tasks(config, loaded)
    release = _with_fields(loaded, tasks)
    # A chat endpoint applies its template whatever we ask: count what it will receive.
    server_template = engine.backend in ("openai", "vllm-server")
    baseline = engine.backend == "baseline"
    if baseline:
        check_baseline(engine.model, release)
    counter = make_counter(
        engine.model,
        config.tokenizer or (release.primary_tokenizer if baseline else None),
        chat_template=(engine.chat_template or server_template) and not baseline,
    )
    _check_languages(release, config)
    window, window_source = _context_window(config, engine)
    limits = _limits(config, release, tasks)
    plan = make_plan(
        release.subsets,
        _prompts(config, release, tasks),
        counter,
        policy=config.policy,
        context_window=window,
        window_source=window_source,
        max_new_tokens=limits,
    )
    revision = _revision(engine, baseline)
    _start_run_folder(config, _fingerprint(config, release, plan, revision))
    llm_config = role_config(
        replace(engine, revision=revision or None),
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
        engine, release, plan, tasks, counter, revision, engine_limit, llm_config, requests, keys
    )


def _revision(engine: EngineSettings, baseline: bool) -> str:
    if engine.revision:
        return engine.revision
    if is_model_folder(engine.model):
        return local_model_revision(Path(engine.model).expanduser())
    return baseline_revision(engine.model) if baseline else ""


def _start_run_folder(config: EvalConfig, fingerprint: Fingerprint) -> None:
    check_run_folder(config.out / RUN_FILE, fingerprint, config.overwrite)
    started = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    atomic_write_json(
        config.out / RUN_FILE,
        {"fingerprint": fingerprint, "engine": config.engine.to_dict(), "started": started},
    )
