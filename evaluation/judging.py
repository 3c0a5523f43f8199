"""The judge: verdicts on free-form answers (qa, needles), cached, with a sample for people.

When a run has a judge (`[eval.judge]`, a `LLMRoleConfig` built through the model
registry), every answer its task marks `judge: pending` is sent to it after generation:
the question, the accepted answers and the model's answer, asking for CORRECT or
INCORRECT. Requests go through the run's request cache, so a rerun asks nothing twice.
Each verdict is appended to generations.jsonl as the pair's new last line (score 1 or
0; an unreadable verdict keeps the token-F1 score and says `judge: unreadable`).

`judge_check.jsonl` holds a seeded sample (`judge_check_share`, at least one) of the
verdicts with what the judge saw, for a person to check before trusting the numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from lengthwise.evaluation.config import EvalConfig
from lengthwise.evaluation.generation import Generation
from lengthwise.evaluation.run_plan import EvalPlan
from lengthwise.evaluation.samples import EvalSample
from lengthwise.evaluation.store import GenerationStore
from lengthwise.evaluation.tasks.base import seeded_rng
from lengthwise.jsonl import write_jsonl
from lengthwise.llm.accounting import UsageLedger
from lengthwise.llm.cache import RequestCache
from lengthwise.llm.registry import make_client
from lengthwise.llm.types import ChatRequest, ChatResult

log = logging.getLogger(__name__)

JUDGE_CHECK: Final = "judge_check.jsonl"
JUDGE_VERSION: Final = "lengthwise-judge/1"
_SYSTEM: Final = (
    "You grade answers to questions about a long text. Compare the model's answer with "
    "the accepted answers: it is correct when it gives the same facts (wording may "
    "differ), incorrect when it contradicts them, misses the point or answers something "
    "else. If there are no accepted answers, the question cannot be answered from the "
    "text, and the answer is correct only if it says so. Reply with one word: CORRECT "
    "or INCORRECT."
)


def judge_request(sample: EvalSample, prediction: str, max_tokens: int) -> ChatRequest:
    accepted = "\n".join(f"- {a}" for a in sample.answers) or "(none: unanswerable)"
    user = (
        f"Question: {sample.question}\n\nAccepted answers:\n{accepted}\n\n"
        f"Model's answer:\n{prediction}\n\nVerdict (CORRECT or INCORRECT):"
    )
    return ChatRequest.of(
        _SYSTEM,
        user,
        prompt_version=JUDGE_VERSION,
        max_tokens=max_tokens,
        metadata=(("sample", sample.id),),
    )


def read_verdict(text: str) -> str:
    """'correct', 'incorrect' or 'unreadable' (INCORRECT is checked first: it contains CORRECT)."""
    upper = text.upper()
    if "INCORRECT" in upper or "错误" in text:
        return "incorrect"
    if "CORRECT" in upper or "正确" in text:
        return "correct"
    return "unreadable"


def judge_pending(
    config: EvalConfig,
    ep: EvalPlan,
    store: GenerationStore,
    cache: RequestCache,
    ledger: UsageLedger,
) -> int:
    """Judge every pending answer of this run; return how many verdicts were added."""
    judge = config.judge
    if judge is None:
        return 0
    latest = store.latest()
    pending = [
        line
        for key, line in latest.items()
        if line.judge == "pending" and ep.keys.get(key) == line.request_key
    ]
    samples = {(s.subset, s.id): s for rows in ep.release.subsets.values() for s in rows}
    added: list[Generation] = []
    if pending:
        log.info("judging %d answers with %s", len(pending), judge.model)
        client = make_client(judge, cache)
        requests = [
            judge_request(
                samples[(line.subset, line.sample_id)], line.prediction or "", judge.max_tokens
            )
            for line in pending
        ]

        def record(index: int, result: ChatResult) -> None:
            ledger.record("judge", judge, result)
            if result.outcome == "error":
                return  # stays pending: judged again on the next run
            verdict = read_verdict(result.text)
            line = pending[index]
            score = line.score if verdict == "unreadable" else float(verdict == "correct")
            judged = replace(line, judge=verdict, score=score)
            store.append(judged)
            added.append(judged)

        client.complete_many(requests, on_result=record)
    judged = [line for line in store.latest().values() if line.judge not in (None, "pending")]
    write_check_sample(config, judged, samples)
    return len(added)


def write_check_sample(
    config: EvalConfig,
    judged: Sequence[Generation],
    samples: dict[tuple[str, str], EvalSample],
) -> None:
    """A seeded share of the verdicts, with what the judge saw, for a human check."""
    if not judged:
        return
    ordered = sorted(judged, key=lambda line: line.key)
    wanted = max(1, round(config.judge_check_share * len(ordered)))
    rng = seeded_rng(config.seed, "judge-check")
    picked = sorted(rng.sample(range(len(ordered)), min(wanted, len(ordered))))
    rows = []
    for index in picked:
        line = ordered[index]
        sample = samples.get((line.subset, line.sample_id))
        rows.append(
            {
                "task": line.task,
                "subset": line.subset,
                "sample_id": line.sample_id,
                "prompt_id": line.prompt_id,
                "question": sample.question if sample else "",
                "accepted_answers": list(sample.answers) if sample else [],
                "prediction": line.prediction,
                "verdict": line.judge,
                "human_verdict": None,  # for the checker to fill
            }
        )
    write_jsonl(config.out / JUDGE_CHECK, rows)
