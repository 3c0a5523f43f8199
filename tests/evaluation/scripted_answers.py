"""A scripted OpenAI-compatible server's answers for the tiny release (a TEST FIXTURE).

Not a test module. The answers depend on which released sample a prompt contains, so
every outcome and score of a run against it is known in advance.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.fixtures.scripted_openai import Reply, error_body, ok_body

Rows = dict[str, list[dict[str, Any]]]


def answer_for(rows: Rows) -> Callable[[int, dict[str, Any]], Reply]:
    """The script: S[0] reference, S[1] copied context, S[2] blocked, S[3] empty;
    M: the reference under IB, its first half under IE. A prompt whose context was cut
    matches no sample and gets a fixed short answer."""

    def script(_number: int, body: dict[str, Any]) -> Reply:
        prompt = body["messages"][-1]["content"]
        # Nested samples share text: the sample is the longest context found in the prompt.
        found = [
            (len(row["context"]), subset, index, row)
            for subset, subset_rows in rows.items()
            for index, row in enumerate(subset_rows)
            if row["context"] in prompt
        ]
        if not found:  # a prompt whose context was cut
            return Reply(body=ok_body("An answer to a shortened excerpt."))
        _, subset, index, row = max(found, key=lambda entry: entry[0])
        reference = str(row["summary"])
        if subset == "M":
            ie = prompt.index(row["context"]) < 20  # IE: the context comes first
            return Reply(body=ok_body(reference[: len(reference) // 2] if ie else reference))
        if index == 0:
            return Reply(body=ok_body(reference))
        if index == 1:
            return Reply(body=ok_body(row["context"][:400]))
        if index == 2:
            return Reply(
                status=400, body=error_body("The response was filtered due to the content filter")
            )
        return Reply(body=ok_body(""))

    return script


def always_reference(rows: Rows) -> Callable[[int, dict[str, Any]], Reply]:
    """A perfect model: the reference summary of the sample in the prompt."""

    def script(_number: int, body: dict[str, Any]) -> Reply:
        prompt = body["messages"][-1]["content"]
        found = [
            row for subset_rows in rows.values() for row in subset_rows if row["context"] in prompt
        ]
        best = max(found, key=lambda row: len(row["context"]))
        return Reply(body=ok_body(str(best["summary"])))

    return script
