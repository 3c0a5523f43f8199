"""Drafting chapters with the configured drafter LLM, one log line per finished chapter.

All part requests go to the client's `complete_many` at once (it applies the role's
concurrency and rate limit); `on_result` fires as each request finishes, and as soon
as every part of a chapter is in, the chapter's draft is appended to the draft log.
An interruption (Ctrl-C, a crash, an exception) therefore keeps every finished
chapter, and the request cache keeps every finished call, so a rerun repeats neither.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lengthwise.annotation.drafts.jobs import ChapterJob
from lengthwise.annotation.drafts.prompts import PROMPT_VERSION, prompt_language, synopsis_request
from lengthwise.annotation.drafts.splitting import split_for_context, text_budget
from lengthwise.annotation.drafts.store import FAILED_OUTCOMES, DraftLog, DraftRecord
from lengthwise.llm.accounting import UsageLedger
from lengthwise.llm.types import ChatRequest, ChatResult, LLMClient
from lengthwise.spec import LLMRoleConfig
from lengthwise.storage import canonical_hash

# When parts of one chapter end differently, the chapter takes the worst outcome.
_SEVERITY = {"ok": 0, "length": 1, "over_length": 2, "blocked": 3, "error": 4}


def llm_drafter_key(config: LLMRoleConfig) -> str:
    """Identity of an LLM drafter: everything that changes its drafts, nothing else."""
    identity = {
        "backend": config.backend,
        "model": config.model,
        "base_url": config.base_url,
        "revision": config.revision,
        "max_tokens": config.max_tokens,
        "temperature": config.temperature,
        "seed": config.seed,
        "context_window": config.context_window,
        "prompt_versions": PROMPT_VERSION,
    }
    return f"llm:{canonical_hash(identity)[:16]}"


@dataclass
class _Plan:
    job: ChapterJob
    parts: list[str]
    results: list[ChatResult | None]


def draft_with_llm(
    jobs: Sequence[ChapterJob],
    client: LLMClient,
    config: LLMRoleConfig,
    draft_log: DraftLog,
    ledger: UsageLedger,
    on_chapter: Callable[[DraftRecord], None] | None = None,
) -> None:
    """Draft `jobs` (chapters without a finished draft) and append each to `draft_log`.

    Every answer is counted in `ledger` under the role "drafter".
    """
    drafter_key = llm_drafter_key(config)
    plans: list[_Plan] = []
    requests: list[ChatRequest] = []
    owners: list[tuple[int, int]] = []  # request index -> (plan index, part index)
    for job in jobs:
        parts = split_for_context(job.text, text_budget(config, job.language))
        plans.append(_Plan(job=job, parts=parts, results=[None] * len(parts)))
        for k, part in enumerate(parts):
            owners.append((len(plans) - 1, k))
            requests.append(
                synopsis_request(
                    part,
                    job.language,
                    config,
                    part=k + 1,
                    parts=len(parts),
                    metadata=(("chapter", job.sha256), ("book", job.book_id)),
                )
            )

    def on_result(index: int, result: ChatResult) -> None:
        # Clients call this in the caller's thread, one result at a time.
        ledger.record("drafter", config, result)
        plan_index, part_index = owners[index]
        plan = plans[plan_index]
        plan.results[part_index] = result
        if all(r is not None for r in plan.results):
            record = _record(plan, config, drafter_key)
            draft_log.append(record)
            if on_chapter is not None:
                on_chapter(record)

    if requests:
        client.complete_many(requests, on_result=on_result)


def _record(plan: _Plan, config: LLMRoleConfig, drafter_key: str) -> DraftRecord:
    results = [r for r in plan.results if r is not None]
    outcome = max((r.outcome for r in results), key=lambda o: _SEVERITY.get(o, 4))
    text = "" if outcome in FAILED_OUTCOMES else "\n".join(r.text.strip() for r in results)
    job = plan.job
    return DraftRecord(
        chapter_sha256=job.sha256,
        book_id=job.book_id,
        chapter_index=job.index,
        heading=job.heading,
        language=job.language,
        drafter="llm",
        drafter_key=drafter_key,
        model=config.model,
        base_url=config.base_url,
        revision=config.revision,
        prompt_version=PROMPT_VERSION[prompt_language(job.language)],
        outcome=outcome,
        text=text,
        parts=len(results),
        usage={
            "prompt_tokens": sum(r.usage.prompt_tokens for r in results),
            "completion_tokens": sum(r.usage.completion_tokens for r in results),
        },
        cached_parts=sum(1 for r in results if r.cached),
        error=next((r.error for r in results if r.error), None),
    )
