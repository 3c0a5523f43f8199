"""The evaluated client for a run: a registry provider behind the run's request cache.

Every backend (transformers, openai, vllm, vllm-server, baseline) is built by name from
the model registry (lengthwise.llm.registry) and keyed by `key_identity(engine)`: the
provider, the chat-template switch and the engine settings that change answers. A
launched vLLM server's address is not keyed (it changes per launch).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lengthwise.errors import UserError
from lengthwise.evaluation.backends import EngineSettings, key_identity
from lengthwise.evaluation.counting import PromptCounter
from lengthwise.evaluation.samples import ReleaseData
from lengthwise.llm.cache import RequestCache
from lengthwise.llm.registry import make_client
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
    key = key_identity(engine)
    options: dict[str, Any] = {}
    if engine.backend == "baseline":
        samples = {s.id: s for rows in release.subsets.values() for s in rows}
        options = {"samples": samples, "count": counter.count_text, "seed": seed}
    elif engine.backend == "vllm":
        options = {"engine": engine, "max_model_len": engine_limit, "seed": seed}
    elif engine.backend == "transformers":
        options = {"device": engine.device, "chat_template": engine.chat_template}
    elif engine.backend == "openai" and not engine.base_url:
        raise UserError("--backend openai needs --base-url (e.g. http://127.0.0.1:8000/v1)")
    if engine.backend != "vllm-server":
        yield make_client(config, cache, provider=engine.backend, key=key, **options)
        return
    from lengthwise.evaluation.vllm_engine import launched_server

    log_path = out / "vllm-server.log"
    with launched_server(
        engine, max_model_len=engine_limit, seed=seed, log_path=log_path
    ) as base_url:
        yield make_client(config, cache, provider="vllm-server", key=key, base_url=base_url)
