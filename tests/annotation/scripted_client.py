"""Scripts for the `scripted` provider (lengthwise.llm.scripted) in drafting/probe tests.

For deterministic logic tests (ordering, resuming, outcome handling, probe decisions):
it answers from a Python function, with no model and no server. The real backends are
exercised end to end against `transformers serve` (tests marked slow).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from lengthwise.llm.scripted import ScriptedClient as ScriptedProvider
from lengthwise.llm.scripted import ScriptInterrupted
from lengthwise.llm.types import ChatRequest, ChatResult, Usage

_FRAMES = (
    re.compile(r"【正文开始】\n(.*)\n【正文结束】", re.S),
    re.compile(r"--- chapter text ---\n(.*)\n--- end of chapter text ---", re.S),
)


Interrupted = ScriptInterrupted  # what a killed run looks like to the drafting code


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


class ScriptedClient(ScriptedProvider):
    """The registry's `scripted` provider answering with `answer` (see module docstring).

    `order="reversed"` delivers results last first (as a concurrent client may);
    `interrupt_after=n` raises `Interrupted` once n results were delivered, like a run
    killed halfway. `calls` lists every request answered.
    """

    def __init__(
        self,
        answer: Callable[[ChatRequest], ChatResult] = echo_first_line,
        *,
        order: Literal["input", "reversed"] = "input",
        interrupt_after: int | None = None,
    ) -> None:
        super().__init__(answer, order=order, interrupt_after=interrupt_after)
