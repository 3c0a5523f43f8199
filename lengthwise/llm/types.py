"""The one LLM interface every role uses: messages in, text out, with usage and outcome.

Roles (drafter, probe, judge, locator, evaluated model) differ only in configuration
(`lengthwise.spec.LLMRoleConfig`). Backends implement `LLMClient`; failures that are
facts about the request (a content filter, an input over the context window) come
back as outcomes, not exceptions, so a stage can count them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

Role = Literal["system", "user", "assistant"]

# ok: text is the answer; length: cut at max_tokens (text is what came); blocked: a content
# filter or refusal by the provider; over_length: the prompt does not fit the context
# window; error: gave up after retries (message in `error`).
Outcome = Literal["ok", "length", "blocked", "over_length", "error"]


@dataclass(frozen=True)
class Message:
    role: Role
    content: str


@dataclass(frozen=True)
class ChatRequest:
    """Everything that determines the answer (and so the cache key), nothing else.

    `prompt_version` names the prompt template that produced `messages`, so that a
    reworded template never reuses old answers. `seed` is recorded and sent where the
    backend supports it.
    """

    messages: tuple[Message, ...]
    max_tokens: int = 512
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int | None = 0
    stop: tuple[str, ...] = ()
    prompt_version: str = ""
    metadata: tuple[tuple[str, str], ...] = ()  # e.g. (("sample", id),): logged, not keyed

    @staticmethod
    def of(system: str | None, user: str, *, prompt_version: str, **options: Any) -> ChatRequest:
        messages = ([Message("system", system)] if system else []) + [Message("user", user)]
        return ChatRequest(messages=tuple(messages), prompt_version=prompt_version, **options)


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class ChatResult:
    text: str
    outcome: Outcome
    usage: Usage = field(default_factory=Usage)
    model: str = ""  # the model that answered, as the backend names it
    cached: bool = False  # served from the request cache
    error: str | None = None
    latency_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# Called once per finished request (cache hits included) with its index in the input, in
# the caller's thread, so a stage can persist each answer as soon as it exists.
ResultCallback = Callable[[int, ChatResult], None]


class LLMClient(Protocol):
    """A configured model for one role."""

    @property
    def name(self) -> str:
        """A readable identity, e.g. "openai:qwen2.5-7b@http://127.0.0.1:8000/v1"."""
        ...

    def complete(self, request: ChatRequest) -> ChatResult: ...

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        """Answers in input order; concurrency and rate limits come from the config.

        `on_result(index, result)` runs as each answer finishes (in completion order); an
        exception it raises (e.g. KeyboardInterrupt) stops the batch, and the answers
        finished so far stay in the request cache.
        """
        ...
