"""The `scripted` provider: answers from a Python function, for tests and dry runs.

Like inspect_ai's mock model, it stands in for any provider in logic tests (ordering,
resuming, outcome handling, decisions) with no model and no server, and goes through
the same registry and request cache as real providers. `order="reversed"` delivers a
batch last first (as a concurrent provider may); `interrupt_after=n` raises
`ScriptInterrupted` once n answers were delivered, like a run killed halfway.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from lengthwise.llm.types import ChatRequest, ChatResult, ResultCallback
from lengthwise.spec import LLMRoleConfig

Script = Callable[[ChatRequest], ChatResult]


class ScriptInterrupted(Exception):
    """What a killed run looks like to the calling code."""


def echo_last_message(request: ChatRequest) -> ChatResult:
    """The default script: an "ok" answer repeating the last message's first line."""
    first = request.messages[-1].content.split("\n", 1)[0]
    return ChatResult(text=first, outcome="ok", model="scripted")


class ScriptedClient:
    """An `LLMClient` answering with `script`; `calls` lists every request it answered."""

    def __init__(
        self,
        script: Script = echo_last_message,
        *,
        name: str = "scripted",
        order: Literal["input", "reversed"] = "input",
        interrupt_after: int | None = None,
    ) -> None:
        self.script = script
        self._name = name
        self.order = order
        self.interrupt_after = interrupt_after
        self.calls: list[ChatRequest] = []

    @property
    def name(self) -> str:
        return self._name

    @property
    def requests(self) -> list[ChatRequest]:
        return self.calls

    def complete(self, request: ChatRequest) -> ChatResult:
        self.calls.append(request)
        return self.script(request)

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        indices = list(range(len(requests)))
        if self.order == "reversed":
            indices.reverse()
        results: dict[int, ChatResult] = {}
        for index in indices:
            if self.interrupt_after is not None and len(results) >= self.interrupt_after:
                raise ScriptInterrupted(f"stopped after {len(results)} results")
            results[index] = self.complete(requests[index])
            if on_result is not None:
                on_result(index, results[index])
        return [results[i] for i in range(len(requests))]


def build(config: LLMRoleConfig, **options: Any) -> ScriptedClient:
    """The registry's `scripted` provider (options: script, name, order, interrupt_after)."""
    options.setdefault("name", f"scripted:{config.model}")
    return ScriptedClient(**options)
