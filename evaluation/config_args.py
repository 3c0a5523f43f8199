"""`lengthwise eval`'s command line read into a validated `EvalConfig`.

Every eval option defaults to "not given" (argparse.SUPPRESS), so only what the user
typed overrides the `--config FILE.toml` [eval] table; the mapping from options to
config keys and engine settings lives here, once.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from lengthwise.errors import UserError
from lengthwise.evaluation.backends import EngineSettings, parse_json_option, yarn_rope_scaling
from lengthwise.evaluation.planning import parse_max_new_tokens
from lengthwise.workdir import EVAL_ROOT

if TYPE_CHECKING:
    from lengthwise.evaluation.config import EvalConfig


# Command-line option (argparse dest) -> EvalConfig key, or EngineSettings field.
_TOP_LEVEL = {
    "release": "release",
    "tasks": "tasks",
    "subsets": "subsets",
    "prompts": "prompts",
    "prompt_file": "prompt_file",
    "tokenizer": "tokenizer",
    "context_window": "context_window",
    "policy": "policy",
    "max_new_tokens": "default_max_new_tokens",
    "temperature": "temperature",
    "top_p": "top_p",
    "seed": "seed",
    "limit": "limit",
    "metric": "metric",
    "bootstrap_resamples": "bootstrap_resamples",
    "bootstrap_seed": "bootstrap_seed",
    "cache": "cache_path",
    "download_dir": "download_dir",
    "out": "out",
    "overwrite": "overwrite",
}
_ENGINE = {
    "backend": "backend",
    "model": "model",
    "revision": "revision",
    "base_url": "base_url",
    "api_key_env": "api_key_env",
    "concurrency": "concurrency",
    "timeout": "timeout_seconds",
    "device": "device",
    "max_model_len": "max_model_len",
    "tensor_parallel_size": "tensor_parallel_size",
    "pipeline_parallel_size": "pipeline_parallel_size",
    "data_parallel_size": "data_parallel_size",
    "endpoint": "endpoints",
    "gpu_memory_utilization": "gpu_memory_utilization",
    "dtype": "dtype",
    "enforce_eager": "enforce_eager",
    "rope_theta": "rope_theta",
    "vllm_python": "vllm_python",
    "server_port": "server_port",
}
_JUDGE = {"judge_model": "model", "judge_base_url": "base_url", "judge_api_key_env": "api_key_env"}


def _given(args: argparse.Namespace) -> dict[str, object]:
    """The options on the command line (every eval option defaults to "not given")."""
    return dict(vars(args))


def engine_values(args: argparse.Namespace) -> dict[str, object]:
    """The engine settings given on the command line, under EngineSettings' names."""
    given = _given(args)
    values = {_ENGINE[k]: v for k, v in given.items() if k in _ENGINE}
    if "chat_template" in given:
        values["chat_template"] = given["chat_template"] == "on"
    if "prefix_caching" in given:
        values["enable_prefix_caching"] = given["prefix_caching"] == "on"
    rope = parse_json_option(_text(given.get("rope_scaling")), "--rope-scaling")
    if "yarn_factor" in given:
        if rope is not None:
            raise UserError("give either --rope-scaling or --yarn-factor, not both")
        original = given.get("original_max_position_embeddings") or 32768
        rope = yarn_rope_scaling(float(str(given["yarn_factor"])), int(str(original)))
    if rope is not None:
        values["rope_scaling"] = rope
    overrides = parse_json_option(_text(given.get("hf_overrides")), "--hf-overrides")
    if overrides is not None:
        values["hf_overrides"] = overrides
    return values


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def engine_from_args(args: argparse.Namespace) -> EngineSettings:
    """The engine settings of a parsed `eval` command line (backend and model given)."""
    from lengthwise.evaluation.config import make_config

    values = {"release": "-", "out": ".", "engine": engine_values(args)}
    return make_config(values, "command line").engine


def config_values(args: argparse.Namespace) -> dict[str, object]:
    """The EvalConfig keys given on the command line (they override `--config`)."""
    given = _given(args)
    values: dict[str, object] = {_TOP_LEVEL[k]: v for k, v in given.items() if k in _TOP_LEVEL}
    if "max_new_tokens_per_subset" in given:
        values["max_new_tokens"] = parse_max_new_tokens(_text(given["max_new_tokens_per_subset"]))
    if "no_report" in given:
        values["write_report"] = False
    engine = engine_values(args)
    if engine:
        values["engine"] = engine
    judge = {_JUDGE[k]: v for k, v in given.items() if k in _JUDGE}
    if judge:
        values["judge"] = judge
    return values


def _default_out(values: dict[str, object]) -> Path:
    engine = values.get("engine")
    model = str(engine.get("model", "model")) if isinstance(engine, dict) else "model"
    backend = str(engine.get("backend", "")) if isinstance(engine, dict) else ""
    release = Path(str(values.get("release", "release")).replace("@", "-")).name
    return EVAL_ROOT / f"{Path(model).name or 'model'}-{backend}-{release}"


def load_eval_config(args: argparse.Namespace) -> EvalConfig:
    """`--config FILE`'s [eval] table with the command line over it, validated."""
    from lengthwise.evaluation.config import make_config, merge, read_eval_table

    file: Path | None = getattr(args, "config", None)
    base = read_eval_table(file) if file is not None else {}
    values = merge(base, config_values(args))
    values.setdefault("out", _default_out(values))
    where = f"{file} [eval] (or the command line)" if file else "command line"
    return make_config(values, where)
