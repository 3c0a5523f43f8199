"""The `scripted` provider with judge verdicts scripted from markers in the chunk."""

from __future__ import annotations

from collections.abc import Callable

from lengthwise.llm.scripted import ScriptedClient
from lengthwise.llm.types import ChatResult


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


class ScriptedJudge(ScriptedClient):
    """The registry's `scripted` provider answering from the prompt's markers."""

    def __init__(
        self, answer: Callable[[str], ChatResult] = marker_answer, name: str = "scripted:judge"
    ) -> None:
        super().__init__(lambda request: answer(request.messages[-1].content), name=name)
