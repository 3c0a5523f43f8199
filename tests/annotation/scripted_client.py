"""A scripted in-process LLM client: a test double of `lengthwise.llm.types.LLMClient`.

For deterministic logic tests (ordering, resuming, outcome handling, probe decisions):
it answers from a Python function, with no model and no server. The real backends are
exercised end to end against `transformers serve` (tests marked slow).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lengthwise.llm.types import ChatRequest, ChatResult, ResultCallback, Usage

_FRAMES = (
    re.compile(r"【正文开始】\n(.*)\n【正文结束】", re.S),
    re.compile(r"--- chapter text ---\n(.*)\n--- end of chapter text ---", re.S),
)


class Interrupted(Exception):
    """What a killed run looks like to the drafting code."""


def chapter_text(request: ChatRequest) -> str:
    """The chapter text (or part) framed in a drafting or probe prompt."""
    content = request.messages[-1].content
    for frame in _FRAMES:
        match = frame.search(content)
        if match:
            return match.group(1)
    raise AssertionError(f"no chapter text in prompt: {content[:200]!r}")


def echo_first_line(request: ChatRequest) -> ChatResult:
    """An "ok" answer naming the first line of the text it was given (the heading)."""
    first = chapter_text(request).split("\n", 1)[0]
    return ChatResult(
        text=f"Synopsis of [{first}]",
        outcome="ok",
        usage=Usage(prompt_tokens=len(request.messages[-1].content), completion_tokens=7),
        model="scripted-model",
    )


class ScriptedClient:
    """Test double for LLMClient (see module docstring).

    `answer` maps a request to its result; `order="reversed"` delivers results last first
    (as a concurrent client may); `interrupt_after=n` raises `Interrupted` once n results
    were delivered, like a run killed halfway. `calls` lists every request answered.
    """

    def __init__(
        self,
        answer: Callable[[ChatRequest], ChatResult] = echo_first_line,
        *,
        order: str = "input",
        interrupt_after: int | None = None,
    ) -> None:
        self.answer = answer
        self.order = order
        self.interrupt_after = interrupt_after
        self.calls: list[ChatRequest] = []

    @property
    def name(self) -> str:
        return "scripted"

    def complete(self, request: ChatRequest) -> ChatResult:
        self.calls.append(request)
        return self.answer(request)

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        indices = list(range(len(requests)))
        if self.order == "reversed":
            indices.reverse()
        results: dict[int, ChatResult] = {}
        for index in indices:
            if self.interrupt_after is not None and len(results) >= self.interrupt_after:
                raise Interrupted(f"stopped after {len(results)} results")
            results[index] = self.complete(requests[index])
            if on_result is not None:
                on_result(index, results[index])
        return [results[i] for i in range(len(requests))]
