"""Any OpenAI-compatible chat endpoint (commercial APIs, `vllm serve`, `transformers serve`).

Transient failures (connection errors, timeouts, 408/409/429, 5xx) move the request to
another of the role's endpoints when it has several (lengthwise/llm/endpoints.py), else
retry with exponential backoff and jitter, honouring Retry-After. Answers that are facts
about the request (content filter, prompt over the context window, cut at max_tokens)
become outcomes.
The API key is read from the environment, held by the `openai` client only, and never
logged, cached or shown in `name`.
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Final, cast

import openai

from lengthwise.errors import UserError
from lengthwise.llm.batch import run_batch
from lengthwise.llm.endpoints import Endpoint, EndpointPool, endpoints_of
from lengthwise.llm.pacing import RateLimiter, backoff_delay
from lengthwise.llm.types import ChatRequest, ChatResult, Outcome, ResultCallback, Usage
from lengthwise.spec import LLMRoleConfig

log = logging.getLogger(__name__)

PLACEHOLDER_API_KEY: Final = "EMPTY"  # local servers (vLLM, transformers serve) accept anything
RETRY_STATUSES: Final = frozenset({408, 409, 425, 429})  # plus every 5xx
MAX_RETRY_AFTER_SECONDS: Final = 600.0  # a provider asking for longer is treated as this

# Provider wordings seen for refusals by a content filter (OpenAI, Azure, DashScope, vLLM guards).
_CONTENT_FILTER = re.compile(
    r"content[ _-]?(filter|management|policy)|usage polic|safety (system|polic)"
    r"|data_inspection_failed|inappropriate content",
    re.IGNORECASE,
)
# ... and for prompts over the context window (OpenAI, vLLM, TGI, llama.cpp, Anthropic-style).
_OVER_LENGTH = re.compile(
    r"maximum context length|context[ _-]?length|context window|too many tokens"
    r"|prompt is too long|input is too long|max_model_len|exceeds? the (model|context)"
    r"|reduce the length|tokens.{0,40}must be <= \d+",
    re.IGNORECASE,
)


def build(config: LLMRoleConfig, **options: Any) -> OpenAIClient:
    """The registry's `openai` provider (options: see `OpenAIClient`)."""
    return OpenAIClient(config, **options)


class MissingApiKeyError(UserError):
    """The role's `api_key_env` names an environment variable that is not set."""


def read_api_key(config: LLMRoleConfig) -> str:
    """The key from `os.environ[config.api_key_env]`, or a placeholder when none is configured."""
    if config.api_key_env is None:
        return PLACEHOLDER_API_KEY
    value = os.environ.get(config.api_key_env)
    if not value:
        raise MissingApiKeyError(
            f"environment variable {config.api_key_env} is not set "
            f"(api_key_env of the LLM role using model {config.model!r}); "
            "export it or remove api_key_env for a local endpoint"
        )
    return value


class OpenAIClient:
    """`LLMClient` for an OpenAI-compatible endpoint; safe to call from several threads."""

    def __init__(
        self,
        config: LLMRoleConfig,
        *,
        retry_base_seconds: float = 1.0,
        retry_max_seconds: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        if config.backend != "openai":
            raise ValueError(f"OpenAIClient needs backend 'openai', got {config.backend!r}")
        self.config = config
        self._retry_base = retry_base_seconds
        self._retry_max = retry_max_seconds
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._limiter = RateLimiter(config.requests_per_second, sleep=sleep)
        # OpenAI's reasoning models refuse `max_tokens`; switched on their first refusal.
        self._max_tokens_field = "max_tokens"
        endpoints = endpoints_of(config)
        for endpoint in endpoints:
            # Our own retry loop decides what is transient, so the library's is off.
            endpoint.client = openai.OpenAI(
                api_key=read_api_key(
                    config.model_copy(update={"api_key_env": endpoint.api_key_env})
                ),
                base_url=endpoint.base_url,
                timeout=config.timeout_seconds,
                max_retries=0,
            )
        self.endpoints = EndpointPool(endpoints)

    @property
    def name(self) -> str:
        urls = [e.base_url or "https://api.openai.com/v1" for e in self.endpoints.endpoints]
        return f"openai:{self.config.model}@{urls[0] if len(urls) == 1 else urls}"

    @property
    def concurrency(self) -> int:
        """Requests in flight at once: every endpoint's limit added up."""
        return self.endpoints.total_limit

    def complete(self, request: ChatRequest) -> ChatResult:
        """One answer from the endpoint (the request cache wraps this client, see cached.py)."""
        return self._call_with_retries(request)

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        """Answers in input order, `config.concurrency` in flight, paced by the rate limit."""
        return run_batch(requests, self.complete, concurrency=self.concurrency, on_result=on_result)

    # -- one request -------------------------------------------------------------------

    def _call_with_retries(self, request: ChatRequest) -> ChatResult:
        """Transient failures move the request to another live endpoint at once; when
        every endpoint has failed it, one retry is spent and the client backs off."""
        started = time.perf_counter()
        attempts = self.config.max_retries + 1
        tried: frozenset[int] = frozenset()
        attempt = 0
        while True:
            self._limiter.acquire()
            endpoint = self.endpoints.acquire(avoid=tried)
            answer = self._attempt(endpoint, request, started)
            failure = answer if isinstance(answer, _Transient) else None
            self.endpoints.release(
                endpoint,
                healthy=failure is None,
                cool_down=failure.retry_after if failure else None,
            )
            if failure is None:
                return cast(ChatResult, answer)
            tried |= {endpoint.index}
            if self.endpoints.another_live(tried):
                log.warning("%s: %s; trying another endpoint", endpoint.base_url, failure.error)
                continue
            attempt, tried = attempt + 1, frozenset()
            if attempt >= attempts:
                message = f"{failure.error} (gave up after {attempts} attempts)"
                return _failure("error", message, started)
            delay = (
                self._backoff(attempt - 1) if failure.retry_after is None else failure.retry_after
            )
            log.warning(
                "%s: attempt %d/%d failed (%s); retrying in %.1f s",
                self.name,
                attempt,
                attempts,
                failure.error,
                delay,
            )
            self._sleep(delay)

    def _attempt(
        self, endpoint: Endpoint, request: ChatRequest, started: float
    ) -> ChatResult | _Transient:
        """One request to one endpoint: an answer or outcome, or a transient failure."""
        try:
            response = self._create(endpoint.client, request)
        except openai.APIStatusError as error:
            outcome = _classify_status_error(error)
            if outcome is not None:
                return _failure(outcome, _describe(error), started)
            if not _is_transient_status(error.status_code):
                return _failure("error", _describe(error), started)
            return _Transient(_describe(error), _retry_after_seconds(error))
        except openai.APIConnectionError as error:  # includes APITimeoutError
            return _Transient(_describe(error), None)
        except openai.OpenAIError as error:  # malformed response and the like
            return _failure("error", _describe(error), started)
        return _from_response(response, self.config.model, started)

    def _create(self, client: openai.OpenAI, request: ChatRequest) -> Any:
        try:
            return client.chat.completions.create(**self._payload(request))
        except openai.BadRequestError as error:
            wants_other_field = "max_completion_tokens" in _error_text(error)
            if not wants_other_field or self._max_tokens_field == "max_completion_tokens":
                raise
            self._max_tokens_field = "max_completion_tokens"
            return client.chat.completions.create(**self._payload(request))

    def _payload(self, request: ChatRequest) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "model": self.config.model,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            self._max_tokens_field: request.max_tokens,
            "temperature": request.temperature,
        }
        # Only non-defaults, since some compatible servers reject parameters they lack.
        if request.top_p != 1.0:
            payload["top_p"] = request.top_p
        if request.seed is not None:
            payload["seed"] = request.seed
        if request.stop:
            payload["stop"] = list(request.stop)
        return payload

    def _backoff(self, attempt: int) -> float:
        return backoff_delay(
            attempt, base_seconds=self._retry_base, max_seconds=self._retry_max, rng=self._rng
        )


@dataclass(frozen=True)
class _Transient:
    """A failure worth retrying (elsewhere or later): connection, timeout, 429, 5xx."""

    error: str
    retry_after: float | None  # what the server asked for, if it did


def _from_response(response: Any, default_model: str, started: float) -> ChatResult:
    elapsed = time.perf_counter() - started
    usage = Usage(
        prompt_tokens=int(getattr(response.usage, "prompt_tokens", 0) or 0),
        completion_tokens=int(getattr(response.usage, "completion_tokens", 0) or 0),
    )
    model = str(getattr(response, "model", "") or default_model)
    if not response.choices:
        return ChatResult("", "error", usage, model, error="response had no choices")
    choice = response.choices[0]
    text = choice.message.content or ""
    outcome: Outcome = "ok"
    if choice.finish_reason == "content_filter" or getattr(choice.message, "refusal", None):
        outcome = "blocked"
        text = text or str(getattr(choice.message, "refusal", "") or "")
    elif choice.finish_reason == "length":
        outcome = "length"
    return ChatResult(text, outcome, usage, model, latency_seconds=elapsed)


def _failure(outcome: Outcome, message: str, started: float) -> ChatResult:
    return ChatResult("", outcome, error=message, latency_seconds=time.perf_counter() - started)


def _error_text(error: openai.APIStatusError) -> str:
    body = error.body if isinstance(error.body, str) else json.dumps(error.body, default=str)
    return f"{error.message} {body} {getattr(error, 'code', '') or ''}"


def _classify_status_error(error: openai.APIStatusError) -> Outcome | None:
    """`blocked` / `over_length` when a 4xx says so; None for everything else."""
    if not 400 <= error.status_code < 500 or error.status_code == 429:
        return None
    text = _error_text(error)
    if _CONTENT_FILTER.search(text):
        return "blocked"
    if error.status_code == 413 or _OVER_LENGTH.search(text):
        return "over_length"
    return None


def _is_transient_status(status: int) -> bool:
    return status in RETRY_STATUSES or status >= 500


def _retry_after_seconds(error: openai.APIStatusError) -> float | None:
    """The server's Retry-After (seconds or HTTP date; or retry-after-ms), if any."""
    headers = error.response.headers
    try:
        if "retry-after-ms" in headers:
            return min(MAX_RETRY_AFTER_SECONDS, max(0.0, float(headers["retry-after-ms"]) / 1000))
        if "retry-after" in headers:
            raw = headers["retry-after"]
            try:
                seconds = float(raw)
            except ValueError:
                seconds = parsedate_to_datetime(raw).timestamp() - time.time()
            return min(MAX_RETRY_AFTER_SECONDS, max(0.0, seconds))
    except (TypeError, ValueError):
        return None  # unparseable: fall back to our own backoff
    return None


def _describe(error: openai.OpenAIError) -> str:
    if isinstance(error, openai.APIStatusError):
        return f"HTTP {error.status_code}: {error.message}"[:500]
    return f"{type(error).__name__}: {error}"[:500]
