"""The header of results.json: what ran, on what, how (read by reports and people)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from lengthwise import __version__
from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.json_types import JsonObject
from lengthwise.evaluation.metrics import rouge_l_describe
from lengthwise.evaluation.outcomes import thresholds
from lengthwise.evaluation.samples import ReleaseData

if TYPE_CHECKING:
    from lengthwise.evaluation.config import EvalConfig

PROTOCOL_VERSION = "lengthwise-eval/1"


def _chat_template_note(engine: EngineSettings) -> str:
    if engine.backend == "baseline":
        return "n/a (baseline)"
    if engine.chat_template:
        return "on"
    if engine.backend in ("openai", "vllm-server"):
        return "off (plain prompt as one user message; the chat endpoint applies its template)"
    return "off"


def _baseline_note(engine: EngineSettings) -> str | None:
    if engine.backend != "baseline":
        return None
    from lengthwise.evaluation.baselines import parse_baseline

    return parse_baseline(engine.model).describe()


def run_header(
    config: EvalConfig,
    engine: EngineSettings,
    revision: str,
    counter_id: str,
    engine_limit: int,
    release: ReleaseData,
) -> JsonObject:
    return {
        "tool": {"name": "lengthwise", "version": __version__, "protocol": PROTOCOL_VERSION},
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "release": dict(release.identity),
        "model": {
            "name": engine.model,
            "backend": engine.backend,
            "revision": revision,
            "base_url": engine.base_url,
            "tokenizer": counter_id,
            "chat_template": _chat_template_note(engine),
            "baseline": _baseline_note(engine),
            # Answers that do not depend on the prompt: run under one, shown under each.
            "prompt_independent": engine.backend == "baseline",
            "layout": engine.layout(),
            "engine": engine.to_dict()
            | ({"resolved_max_model_len": engine_limit} if "vllm" in engine.backend else {}),
        },
        "decoding": {
            "temperature": config.temperature,
            "top_p": config.top_p,
            "greedy": config.temperature == 0,
        },
        "seeds": {"generation": config.seed, "bootstrap": config.bootstrap_seed},
        "metric": {"name": config.metric, "scale": "x100", "rouge_l": dict(rouge_l_describe())},
        "outcome_thresholds": dict(thresholds()),
        "limit_per_subset": config.limit,
    }
