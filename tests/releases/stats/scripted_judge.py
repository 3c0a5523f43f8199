"""An in-process `LLMClient` whose verdicts are scripted from markers in the chunk."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lengthwise.llm.types import ChatRequest, ChatResult, ResultCallback


def marker_answer(prompt: str) -> ChatResult:
    """KEY -> 1, NOISE -> 0, WEIRD -> an unparseable answer, DOWN -> a failed call."""
    passage = prompt.split("<<<", 1)[1].split(">>>", 1)[0]
    zh = "最终得分" in prompt
    final = "最终得分：{}" if zh else "Final score: {}"
    if "DOWN" in passage:
        return ChatResult(text="", outcome="error", error="connection refused")
    if "WEIRD" in passage:
        return ChatResult(text="It matters, I would say 1.", outcome="ok")
    if "KEY" in passage:
        return ChatResult(text="Needed for the plot.\n" + final.format(1), outcome="ok")
    return ChatResult(text="Filler.\n" + final.format(0), outcome="ok")


class ScriptedJudge:
    """Implements the LLMClient protocol; records every request it answers."""

    def __init__(
        self, answer: Callable[[str], ChatResult] = marker_answer, name: str = "scripted:judge"
    ) -> None:
        self._answer = answer
        self._name = name
        self.requests: list[ChatRequest] = []

    @property
    def name(self) -> str:
        return self._name

    def complete(self, request: ChatRequest) -> ChatResult:
        self.requests.append(request)
        return self._answer(request.messages[-1].content)

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        results = []
        for index, request in enumerate(requests):
            result = self.complete(request)
            if on_result is not None:
                on_result(index, result)
            results.append(result)
        return results
