"""A model answer holding any Unicode line break is stored whole and never asked again.

`str.splitlines()` on generations.jsonl once made every answer with U+2028 a torn line:
the run ended incomplete and each rerun repeated the pair. Here a scripted server puts
every line break into every answer; the run must be complete, generations.jsonl must
hold each answer as sent, and a rerun must reuse all of them and send nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.runner import EvalConfig, run_eval
from lengthwise.evaluation.store import GENERATIONS
from lengthwise.jsonl import read_jsonl
from tests.evaluation.scripted_answers import Rows
from tests.fixtures.scripted_openai import Reply, ScriptedOpenAIServer, ok_body

BREAKS = ("\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
HOSTILE = "line" + "".join(f"<{b}>" for b in BREAKS) + "end"


def _hostile_answer(_number: int, body: dict[str, Any]) -> Reply:
    prompt = body["messages"][-1]["content"]
    return Reply(body=ok_body(f"Summary {len(prompt)}: {HOSTILE} the end."))


def _config(release: Path, out: Path, base_url: str) -> EvalConfig:
    return EvalConfig(
        release=str(release),
        out=out,
        tokenizer="qwen2.5",
        write_report=False,
        engine=EngineSettings(backend="openai", model="scripted-model", base_url=base_url),
    )


def test_answers_with_every_line_break_are_kept_and_not_asked_again(
    tiny_release: Path, release_rows: Rows, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    total = 2 * sum(len(rows) for rows in release_rows.values())
    with ScriptedOpenAIServer(_hostile_answer) as server:
        first = run_eval(_config(tiny_release, out, server.base_url))
        sent_first = len(server.requests)
        second = run_eval(_config(tiny_release, out, server.base_url))
        sent_second = len(server.requests) - sent_first
    answered = [line for line in read_jsonl(out / GENERATIONS) if line["outcome"] != "skipped"]
    assert answered and all(HOSTILE in line["prediction"] for line in answered)
    assert first.results["complete"] and second.results["complete"]
    assert sent_first == len(answered) <= total
    assert sent_second == 0 and second.reused == len(answered)
    assert second.results["results"] == first.results["results"]
