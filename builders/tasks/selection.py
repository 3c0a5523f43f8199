"""The stage's own checks on what a family built: an independent recount of every context
with the primary tokenizer, the interval, and a seeded choice of at most `count`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from lengthwise.reports import StageReport
from lengthwise.storage import canonical_hash
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import TaskLength
from lengthwise.tokenizers import get_tokenizer


def recount(texts: Sequence[str], tokenizer_id: str) -> list[int]:
    """Fresh counts (no count cache, no per-chapter sums): the tokenizer on each text."""
    return get_tokenizer(tokenizer_id).count_many(list(texts))


def checked_instances(
    instances: Sequence[TaskInstance],
    length: TaskLength,
    tokenizer_id: str,
    drops: StageReport,
) -> list[TaskInstance]:
    """Instances whose recount equals the builder's count and lies in both the instance's
    interval and the length's; each other one is dropped with its reason."""
    counts = recount([i.context for i in instances], tokenizer_id)
    kept = []
    for instance, tokens in zip(instances, counts, strict=True):
        reason = _problem(instance, tokens, length)
        if reason is not None:
            drops.drop(reason, f"{instance.id} ({tokens} tokens)")
            continue
        kept.append(replace(instance, tokens=tokens, tokenizer=tokenizer_id))
    return kept


def _problem(instance: TaskInstance, tokens: int, length: TaskLength) -> str | None:
    if instance.length != length.name:
        return f"built for length {instance.length!r}, not {length.name!r}"
    if not instance.lower <= tokens <= instance.upper:
        return "recount outside the instance's [lower, upper]"
    # Fill instances (needles' fill series) fill a share of the window: only a ceiling.
    below = instance.fill is None and instance.lower < length.lower
    if below or instance.upper > length.upper:
        return "instance interval outside the length's [lower, upper]"
    if tokens != instance.tokens:
        return "recount differs from the builder's count"
    return None


def choose(
    instances: Sequence[TaskInstance],
    count: int,
    seed: int,
    task: str,
    length: str,
    drops: StageReport,
) -> list[TaskInstance]:
    """At most `count` instances, a seeded choice kept in build order; the rest dropped."""
    if len(instances) <= count:
        return list(instances)
    rng = random.Random(canonical_hash([seed, task, length]))
    chosen = set(rng.sample(range(len(instances)), count))
    for index, instance in enumerate(instances):
        if index not in chosen:
            drops.drop("more instances than the length's count", instance.id)
    return [instance for index, instance in enumerate(instances) if index in chosen]
