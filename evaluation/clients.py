"""The evaluated client for a run: a registry provider behind the run's request cache.

Every backend (transformers, openai, vllm, vllm-server, baseline, scripted) is built by
name from the model registry (lengthwise.llm.registry) and keyed by
`key_identity(engine)`: the provider, the chat-template switch and the engine settings
that change answers. A launched vLLM server's address is not keyed (it changes per
launch).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from lengthwise.errors import UserError
from lengthwise.evaluation.backends import key_identity
from lengthwise.evaluation.run_plan import EvalPlan
from lengthwise.llm.cache import RequestCache
from lengthwise.llm.registry import make_client
from lengthwise.llm.types import LLMClient


def _options(ep: EvalPlan, seed: int) -> dict[str, object]:
    """What the provider needs beside the role config."""
    engine = ep.engine
    if engine.backend == "baseline":
        samples = {s.id: s for rows in ep.release.subsets.values() for s in rows}
        return {"samples": samples, "count": ep.counter.count_text, "seed": seed}
    if engine.backend == "vllm":
        return {"engine": engine, "max_model_len": ep.engine_limit, "seed": seed}
    if engine.backend == "transformers":
        return {"device": engine.device, "chat_template": engine.chat_template}
    if engine.backend == "openai" and not engine.base_url:
        raise UserError("--backend openai needs --base-url (e.g. http://127.0.0.1:8000/v1)")
    return {}


@contextmanager
def open_eval_client(
    ep: EvalPlan,
    cache: RequestCache,
    seed: int,
    out: Path,
    provider_options: Mapping[str, object] | None = None,
) -> Iterator[LLMClient]:
    """The evaluated client, with a launched vLLM server around it when needed.

    Baselines answer from the release's samples (counted with the run's tokenizer for
    the length cap) behind the same request cache as models; `provider_options` are
    added to the provider's (the scripted provider's `script`)."""
    engine = ep.engine
    key = key_identity(engine)
    options = _options(ep, seed) | dict(provider_options or {})
    if engine.backend != "vllm-server":
        yield make_client(ep.llm_config, cache, provider=engine.backend, key=key, **options)
        return
    from lengthwise.evaluation.vllm_engine import launched_server

    log_path = out / "vllm-server.log"
    with launched_server(
        engine, max_model_len=ep.engine_limit, seed=seed, log_path=log_path
    ) as base_url:
        yield make_client(ep.llm_config, cache, provider="vllm-server", key=key, base_url=base_url)
