"""The requests an evaluation sends and the generations.jsonl line each answer becomes."""

from __future__ import annotations

from lengthwise.evaluation.generation import SKIPPED, Generation
from lengthwise.evaluation.metrics import Metric
from lengthwise.evaluation.outcomes import classify
from lengthwise.evaluation.planning import Plan, PlannedItem
from lengthwise.evaluation.run_header import PROTOCOL_VERSION
from lengthwise.llm.types import ChatRequest, ChatResult, Message
from lengthwise.storage import canonical_hash


def prompt_version(item: PlannedItem, plan: Plan) -> str:
    """What besides the messages made this prompt (the engine is keyed by `key_identity`)."""
    return canonical_hash(
        {
            "protocol": PROTOCOL_VERSION,
            "prompt": item.prompt.version(item.sample.language),
            "policy": plan.policy,
            "truncation": item.truncation.to_dict() if item.truncation else None,
        }
    )[:24]


def chat_request(
    item: PlannedItem,
    plan: Plan,
    decoding: tuple[float, float, int],  # temperature, top_p, seed
) -> ChatRequest:
    temperature, top_p, seed = decoding
    return ChatRequest(
        messages=(Message("user", item.prompt_text),),
        max_tokens=item.max_new_tokens,
        temperature=temperature,
        top_p=top_p,
        seed=seed,
        prompt_version=prompt_version(item, plan),
        metadata=(("sample", item.sample.id), ("prompt", item.prompt.id)),
    )


def prefix_cache_order(item: PlannedItem) -> tuple[str, str, int, str, str]:
    """Same template together, then by book and first chapter: prompts sharing a template
    header and a context start (nested samples) run close together for prefix caching."""
    sample = item.sample
    return (item.prompt.id, sample.book_id, sample.first_chapter, sample.subset, sample.id)


def generation_line(
    item: PlannedItem, key: str, version: str, result: ChatResult | None, metric: Metric
) -> Generation:
    """The line for one (sample, prompt): what was asked, and what came back, scored."""
    sample = item.sample
    line = Generation(
        sample_id=sample.id,
        subset=sample.subset,
        prompt_id=item.prompt.id,
        language=sample.language,
        prompt_tokens=item.prompt_tokens,
        original_prompt_tokens=item.original_tokens,
        max_new_tokens=item.max_new_tokens,
        action=item.action,
        truncation=item.truncation.to_dict() if item.truncation else None,
        request_key=key,
        prompt_version=version,
    )
    if result is None:  # skipped by the plan
        line.outcome, line.skip_reason = SKIPPED, item.skip_reason
        return line
    _add_answer(line, item, result, metric)
    return line


def _add_answer(line: Generation, item: PlannedItem, result: ChatResult, metric: Metric) -> None:
    sample = item.sample
    check = classify(
        result.text,
        result.outcome,
        context=sample.context,
        instruction=item.prompt.instruction(sample.language),
        language=sample.language,
    )
    # Failures that are facts about the request score 0; an `error` is retried, not scored;
    # without a reference summary there is nothing to score against.
    score = (
        None
        if check.outcome == "error" or sample.reference is None
        else metric(result.text, sample.reference, sample.language)
    )
    line.outcome, line.flags, line.details = check.outcome, list(check.flags), check.details
    line.backend_outcome, line.prediction, line.score = result.outcome, result.text, score
    line.usage = {
        "prompt_tokens": result.usage.prompt_tokens,
        "completion_tokens": result.usage.completion_tokens,
    }
    line.cached, line.latency_seconds = result.cached, round(result.latency_seconds, 4)
    line.error = result.error
