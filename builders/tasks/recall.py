"""ETHIC recall: every character name in the context, labelled by the drafting model.

For each sample-like chapter run inside the length (context_runs.py), the context is
cut into chunks of at most `chunk_tokens` tokens at paragraph/sentence boundaries
(chunking.py); the model lists the character names of every chunk (a JSON array; an
unreadable reply gets one repair request, then the instance is dropped, counted);
the names are merged without duplicates and the model's alias groups merge the
names of one person (recall_names.py). `answers`: one canonical name per person.

`details`: chunks, chunk_tokens, names_labelled (distinct spellings before alias
merging), aliases (one JSON array per person with aliases, canonical name first),
unreadable_replies (first replies that needed a repair), alias_reply_readable,
ignored_alias_names, checked_chunks, first_chapter, last_chapter.

Every chunk's labels go to WORK/tasks/<task>/chunk_labels.jsonl; a seeded share
(`human_check_share`, at least one chunk per length) is marked `check` and sent to
Label Studio by `lengthwise annotate tasks push`; the release gate admits the task
only when every marked chunk has been checked (annotation/task_checks/gate.py).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace

from lengthwise.builders.sampling.selection import stable_seed
from lengthwise.builders.tasks.base import TaskBuildContext, register_family
from lengthwise.builders.tasks.chunking import split_into_chunks
from lengthwise.builders.tasks.context_runs import ContextRun, context_runs
from lengthwise.builders.tasks.drafting import InstanceIds, drafting_model
from lengthwise.builders.tasks.model_json import json_value, string_list
from lengthwise.builders.tasks.recall_names import (
    PersonNames,
    group_people,
    merge_names,
    parse_alias_groups,
)
from lengthwise.builders.tasks.recall_prompts import aliases_request, names_request, repair_request
from lengthwise.llm.types import ChatRequest, LLMClient
from lengthwise.store import WorkStore
from lengthwise.task_checks import ChunkLabels
from lengthwise.task_records import TaskInstance
from lengthwise.task_spec import RecallTask, TaskLength

NAMES_REPLY_TOKENS = 1024
ALIASES_REPLY_TOKENS = 2048


@dataclass(frozen=True)
class _Chunked:
    id: str
    run: ContextRun
    chunks: list[str]


@dataclass(frozen=True)
class _Reply:
    names: list[str] | None  # None: unusable
    attempts: int
    failure: str = ""  # why unusable
    unreadable_first: bool = False


@register_family("recall")
def build_recall(ctx: TaskBuildContext, length: TaskLength) -> list[TaskInstance]:
    task = ctx.task
    if not isinstance(task, RecallTask):
        raise TypeError(f"task {task.name!r} is not a recall task")
    client = drafting_model(ctx)
    ids = InstanceIds(task.name, length.name)
    plans = [
        _Chunked(
            ids.next(run.book.id),
            run,
            split_into_chunks(run.text, task.chunk_tokens, ctx.count_tokens),
        )
        for run in context_runs(ctx, length)
    ]
    replies = _label_chunks(client, plans)
    kept = [plan for plan in plans if _usable(ctx, length, plan, replies[plan.id])]
    people = _people(client, kept, replies)
    unread = [key for key, (_, readable) in people.items() if not readable]
    if unread:
        ctx.drops.warn(f"{task.name} {length.name}: alias reply unreadable for {len(unread)} "
                       f"instances (names kept unmerged), e.g. {unread[0]}")  # fmt: skip
    labels = _chunk_labels(ctx, task, length, kept, replies)
    _store_labels(ctx, task.name, length.name, labels)
    _warn_unreadable(ctx, length, plans, replies)
    checked = {plan.id: sum(1 for c in labels if c.instance_id == plan.id and c.check)
               for plan in kept}  # fmt: skip
    return [
        _instance(ctx, task, length, plan, replies[plan.id], people[plan.id], checked[plan.id])
        for plan in kept
    ]


def _label_chunks(client: LLMClient, plans: list[_Chunked]) -> dict[str, list[_Reply]]:
    """Per instance, per chunk: the names, after one repair request for unreadable replies."""
    keys = [(plan, k) for plan in plans for k in range(len(plan.chunks))]
    requests = [
        names_request(plan.chunks[k], plan.run.book.language, NAMES_REPLY_TOKENS, f"{plan.id}#{k}")
        for plan, k in keys
    ]
    results = client.complete_many(requests)
    parsed = [string_list(json_value(r.text)) if r.outcome == "ok" else None for r in results]
    retry = [i for i, names in enumerate(parsed) if names is None and results[i].outcome == "ok"]
    repairs = client.complete_many(
        [repair_request(requests[i], results[i].text, keys[i][0].run.book.language) for i in retry]
    )
    replies = [
        _Reply(names, 1) if names is not None else _Reply(None, 1, f"model outcome {r.outcome}")
        for names, r in zip(parsed, results, strict=True)
    ]
    for i, repaired in zip(retry, repairs, strict=True):
        names = string_list(json_value(repaired.text)) if repaired.outcome == "ok" else None
        failure = "" if names is not None else "unreadable reply after a repair request"
        replies[i] = _Reply(names, 2, failure, unreadable_first=True)
    by_plan: dict[str, list[_Reply]] = {plan.id: [] for plan in plans}
    for (plan, _), reply in zip(keys, replies, strict=True):
        by_plan[plan.id].append(reply)
    return by_plan


def _usable(
    ctx: TaskBuildContext, length: TaskLength, plan: _Chunked, replies: list[_Reply]
) -> bool:
    """An instance needs every chunk's names: its answers would miss people otherwise."""
    failure = next((r.failure for r in replies if r.names is None), None)
    if failure is None:
        return True
    ctx.drops.drop(f"{length.name}: chunk labels incomplete ({failure})", example=plan.id)
    return False


def _people(
    client: LLMClient, plans: list[_Chunked], replies: dict[str, list[_Reply]]
) -> dict[str, tuple[PersonNames, bool]]:
    """Per instance: the merged names grouped by person, and whether the alias reply read."""
    merged = {p.id: merge_names(r.names or [] for r in replies[p.id]) for p in plans}
    asking = [p for p in plans if len(merged[p.id]) >= 2]
    requests: list[ChatRequest] = [
        aliases_request(merged[p.id], p.run.book.language, ALIASES_REPLY_TOKENS, p.id)
        for p in asking
    ]
    results = {p.id: r for p, r in zip(asking, client.complete_many(requests), strict=True)}
    out: dict[str, tuple[PersonNames, bool]] = {}
    for plan in plans:
        result = results.get(plan.id)
        groups = parse_alias_groups(json_value(result.text)) if result is not None else []
        readable = groups is not None and (result is None or result.outcome == "ok")
        out[plan.id] = (group_people(merged[plan.id], groups or []), readable)
    return out


def _chunk_labels(
    ctx: TaskBuildContext,
    task: RecallTask,
    length: TaskLength,
    plans: list[_Chunked],
    replies: dict[str, list[_Reply]],
) -> list[ChunkLabels]:
    labels = [
        ChunkLabels(
            id=f"{plan.id}#{k:04d}",
            instance_id=plan.id,
            task=task.name,
            length=length.name,
            language=plan.run.book.language,
            chunk=k,
            text=text,
            names=merge_names([reply.names or []]),
            tokens=tokens,
            attempts=reply.attempts,
        )
        for plan in plans
        for k, (text, reply, tokens) in enumerate(
            zip(plan.chunks, replies[plan.id], ctx.count_tokens(plan.chunks), strict=True)
        )
    ]
    wanted = math.ceil(task.human_check_share * len(labels)) if task.human_check_share else 0
    order = sorted(labels, key=lambda c: stable_seed(ctx.seed, c.id))
    sampled = {c.id for c in order[:wanted]}
    return [replace(c, check=c.id in sampled) for c in labels]


def _store_labels(ctx: TaskBuildContext, task: str, length: str, labels: list[ChunkLabels]) -> None:
    """This length's rows replace its old ones; other lengths' rows stay."""
    store = WorkStore(ctx.work)
    others = [c for c in store.chunk_labels(task) if c.length != length]
    store.write_chunk_labels(task, [*others, *labels])


def _warn_unreadable(
    ctx: TaskBuildContext,
    length: TaskLength,
    plans: list[_Chunked],
    replies: dict[str, list[_Reply]],
) -> None:
    every = [r for plan in plans for r in replies[plan.id]]
    unreadable = sum(1 for r in every if r.unreadable_first)
    if unreadable:
        repaired = sum(1 for r in every if r.unreadable_first and r.names is not None)
        ctx.drops.warn(
            f"{ctx.task.name} {length.name}: {unreadable} of {len(every)} chunk replies were "
            f"unreadable; {repaired} read after a repair request"
        )


def _instance(
    ctx: TaskBuildContext,
    task: RecallTask,
    length: TaskLength,
    plan: _Chunked,
    replies: list[_Reply],
    people: tuple[PersonNames, bool],
    checked: int,
) -> TaskInstance:
    names, alias_readable = people
    run = plan.run
    return TaskInstance(
        id=plan.id,
        task=task.name,
        family="recall",
        length=length.name,
        language=run.book.language,
        book_id=run.book.id,
        context=run.text,
        question="",
        answers=names.canonical,
        tokens=run.tokens,
        tokenizer=ctx.tokenizer,
        target=length.target,
        lower=length.lower,
        upper=length.upper,
        source_ids=run.source_ids,
        details={
            "chunks": len(plan.chunks),
            "chunk_tokens": task.chunk_tokens,
            "names_labelled": sum(len(group) for group in names.people),
            "aliases": [json.dumps(g, ensure_ascii=False) for g in names.alias_groups],
            "unreadable_replies": sum(1 for r in replies if r.unreadable_first),
            "alias_reply_readable": alias_readable,
            "ignored_alias_names": names.ignored_alias_names,
            "checked_chunks": checked,
            "first_chapter": run.first,
            "last_chapter": run.last,
        },
    )
