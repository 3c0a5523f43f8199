"""The evaluated client for a run: a model backend, a launched vLLM server, or a baseline."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from lengthwise.evaluation.backends import CachedClient, EngineSettings, make_eval_client
from lengthwise.evaluation.counting import PromptCounter
from lengthwise.evaluation.samples import ReleaseData
from lengthwise.llm.cache import RequestCache
from lengthwise.llm.types import LLMClient
from lengthwise.spec import LLMRoleConfig


@contextmanager
def open_eval_client(
    engine: EngineSettings,
    config: LLMRoleConfig,
    cache: RequestCache,
    engine_limit: int,
    seed: int,
    out: Path,
    release: ReleaseData,
    counter: PromptCounter,
) -> Iterator[LLMClient]:
    """The evaluated client, with a launched vLLM server around it when needed.

    Baselines answer from the release's samples (counted with the run's tokenizer for
    the length cap) behind the same request cache as models."""
    if engine.backend == "baseline":
        from lengthwise.evaluation.baselines import BaselineClient, parse_baseline

        samples = {s.id: s for rows in release.subsets.values() for s in rows}
        baseline = BaselineClient(parse_baseline(engine.model), samples, counter.count_text, seed)
        yield CachedClient(baseline, config, cache)
        return
    if engine.backend == "vllm":
        from lengthwise.evaluation.vllm_engine import VLLMOfflineClient

        yield VLLMOfflineClient(engine, config, cache, max_model_len=engine_limit, seed=seed)
        return
    if engine.backend == "vllm-server":
        from lengthwise.evaluation.vllm_engine import launched_server
        from lengthwise.llm.openai_backend import OpenAIClient

        log_path = out / "vllm-server.log"
        with launched_server(
            engine, max_model_len=engine_limit, seed=seed, log_path=log_path
        ) as base_url:
            served = OpenAIClient(config.model_copy(update={"base_url": base_url}), None)
            # The port changes per launch: key the cache on the engine settings, not the URL.
            yield CachedClient(served, config, cache)
        return
    yield make_eval_client(engine, config, cache)
