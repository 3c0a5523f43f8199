"""The requests an evaluation sends and the generations.jsonl line each answer becomes."""

from __future__ import annotations

from lengthwise.evaluation.generation import SKIPPED, Generation
from lengthwise.evaluation.outcomes import classify
from lengthwise.evaluation.planning import Plan, PlannedItem
from lengthwise.evaluation.run_header import PROTOCOL_VERSION
from lengthwise.evaluation.tasks.base import EvalTask
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
    item: PlannedItem, key: str, version: str, result: ChatResult | None, task: EvalTask
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
        task=sample.task,
        family=sample.family,
        length=sample.length_name,
        depth=sample.depth,
        fill=sample.fill,
    )
    if result is None:  # skipped by the plan
        line.outcome, line.skip_reason = SKIPPED, item.skip_reason
        return line
    _add_answer(line, item, result, task)
    return line


def _add_answer(line: Generation, item: PlannedItem, result: ChatResult, task: EvalTask) -> None:
    sample = item.sample
    check = classify(
        result.text,
        result.outcome,
        context=sample.context,
        instruction=item.prompt.instruction(sample.language, sample.prompt_fields),
        language=sample.language,
    )
    line.outcome, line.flags, line.details = check.outcome, list(check.flags), check.details
    line.backend_outcome, line.prediction = result.outcome, result.text
    # Failures that are facts about the request score 0; an `error` is retried, not scored;
    # without a reference there is nothing to score against (the task says None).
    if check.outcome != "error":
        answer = task.score(result.text, sample)
        line.score = answer.score
        line.readable, line.copied_example = answer.readable, answer.copied_example
        line.metrics, line.parsed = dict(answer.metrics), list(answer.parsed) or None
        line.judge = "pending" if answer.needs_judge else None
    line.usage = {
        "prompt_tokens": result.usage.prompt_tokens,
        "completion_tokens": result.usage.completion_tokens,
    }
    line.cached, line.latency_seconds = result.cached, round(result.latency_seconds, 4)
    line.error = result.error
