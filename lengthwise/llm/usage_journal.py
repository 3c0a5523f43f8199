"""Usage of every invocation of one run (or one work directory's stage), kept on disk.

A stage's report used to count only its last invocation's calls: a run killed three
times and finished on the fourth reported a quarter of what it spent, and a rerun that
reused everything reported 0. The journal is an append-only JSONL file: one "start"
line per invocation, then one line per LLM result as it is counted (flushed at once, so
a SIGKILL loses at most the call in flight). ``summary()`` replays it into per-invocation
figures and the total over all of them, which users budget from.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lengthwise.jsonl import JsonlLog
from lengthwise.llm.types import ChatResult
from lengthwise.spec import LLMRoleConfig


class UsageJournal:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._log = JsonlLog(self.path, fsync=False)
        self.invocation = f"{dt.datetime.now(dt.UTC).strftime('%Y%m%dT%H%M%S.%fZ')}-{os.getpid()}"

    def start(self) -> None:
        """Record that an invocation began (so one that made no call still shows, as 0)."""
        started = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        self._append({"invocation": self.invocation, "event": "start", "started": started})

    def record(self, role: str, config: LLMRoleConfig, result: ChatResult) -> None:
        cost = 0.0
        if not result.cached:
            cost = (
                result.usage.prompt_tokens * config.price_per_million_input
                + result.usage.completion_tokens * config.price_per_million_output
            ) / 1_000_000
        self._append(
            {
                "invocation": self.invocation,
                "event": "result",
                "role": role,
                "model": config.model,
                "outcome": result.outcome,
                "cached": result.cached,
                "prompt_tokens": 0 if result.cached else result.usage.prompt_tokens,
                "completion_tokens": 0 if result.cached else result.usage.completion_tokens,
                "cost": cost,
                "seconds": 0.0 if result.cached else result.latency_seconds,
            }
        )

    def reset(self) -> None:
        self._log.reset()

    def _append(self, line: dict[str, Any]) -> None:
        self._log.append(line)

    def lines(self) -> list[dict[str, Any]]:
        """Every complete line (a line torn by a kill mid-write is cut off the file)."""
        return [
            value
            for _, value in self._log.read()
            if isinstance(value, dict) and "invocation" in value
        ]

    def summary(self) -> dict[str, Any]:
        """{"invocations": [per-invocation figures, oldest first], "total": figures}."""
        invocations: dict[str, dict[str, Any]] = {}
        total = _zero()
        for line in self.lines():
            entry = invocations.setdefault(
                line["invocation"], {"invocation": line["invocation"], **_zero()}
            )
            if line.get("event") == "start":
                entry["started"] = line.get("started")
                continue
            for figures in (entry, total):
                _add(figures, line)
        ordered = [_rounded(v) for v in invocations.values()]
        return {"invocations": ordered, "total": {**_rounded(total), "runs": len(ordered)}}


def _zero() -> dict[str, Any]:
    return {
        "calls": 0,
        "cache_hits": 0,
        "model_calls": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "cost": 0.0,
        "request_seconds": 0.0,
    }


def _add(figures: dict[str, Any], line: dict[str, Any]) -> None:
    figures["calls"] += 1
    if line.get("cached"):
        figures["cache_hits"] += 1
    else:
        figures["model_calls"] += 1
    figures["prompt_tokens"] += int(line.get("prompt_tokens", 0))
    figures["completion_tokens"] += int(line.get("completion_tokens", 0))
    figures["cost"] += float(line.get("cost", 0.0))
    figures["request_seconds"] += float(line.get("seconds", 0.0))


def _rounded(figures: dict[str, Any]) -> dict[str, Any]:
    return {
        **figures,
        "total_tokens": figures["prompt_tokens"] + figures["completion_tokens"],
        "cost": round(figures["cost"], 6),
        "request_seconds": round(figures["request_seconds"], 3),
    }


def total_sentence(usage: Mapping[str, Any], where: str) -> str | None:
    """The all-invocations total of a report's `usage` as one sentence (None without one)."""
    summary = usage.get("all_invocations")
    if not summary:
        return None
    total = summary["total"]
    return (
        f"Usage over all {total['runs']} runs {where}: {total['calls']} calls "
        f"({total['cache_hits']} from the request cache), {total['prompt_tokens']:,} prompt + "
        f"{total['completion_tokens']:,} completion tokens, cost {total['cost']:.4f}."
    )
