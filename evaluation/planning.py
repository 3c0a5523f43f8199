"""The plan made before any generation: every prompt counted, and the length policy resolved.

Budget of a prompt = context window - max new tokens of its subset. A prompt over the
budget is handled by the policy:

- ``extrapolate``: kept whole (the model is run past its window; vLLM gets a
  max_model_len large enough, plus rope/YaRN overrides when given);
- ``truncate-middle``: the middle of the *context* is cut until the prompt fits. The
  instruction (the template around ``{}``) is never cut; the kept head and tail of the
  context are joined directly, as LongBench does, and the item records how many tokens
  were cut and at which characters;
- ``skip``: the item is excluded from generation and counted.

The plan is stored in results.json, so a reader sees exactly what each model was given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from lengthwise.errors import UserError
from lengthwise.evaluation.counting import PromptCounter
from lengthwise.evaluation.json_types import JsonObject
from lengthwise.evaluation.prompts import PromptTemplate
from lengthwise.evaluation.samples import EvalSample

Policy = Literal["extrapolate", "truncate-middle", "skip"]
POLICIES: Final = ("extrapolate", "truncate-middle", "skip")
Action = Literal["keep", "truncated", "extrapolated", "skipped"]

# CNNSum's generation limits: 400 new tokens for L/XL, 500 for 2XL/3XL.
DEFAULT_MAX_NEW_TOKENS: Final = {"L": 400, "XL": 400, "2XL": 500, "3XL": 500}
FALLBACK_MAX_NEW_TOKENS: Final = 400
_FIT_ATTEMPTS: Final = 8


@dataclass(frozen=True)
class Truncation:
    cut_tokens: int  # prompt tokens before the cut minus after it
    # The character span removed from the context (position, from_char, to_char,
    # context_chars) and the token halves kept (head_tokens, tail_tokens).
    where: dict[str, str | int]

    def to_dict(self) -> JsonObject:
        return {"cut_tokens": self.cut_tokens, "where": dict(self.where)}


@dataclass
class _PlanGroup:
    """One subset and prompt of the plan, as results.json shows it."""

    max_new_tokens: int
    planned: int = 0
    actions: dict[str, int] = field(default_factory=dict)
    max_prompt_tokens: int = 0
    tokens_cut: int = 0

    def add(self, item: PlannedItem) -> None:
        self.planned += 1
        self.actions[item.action] = self.actions.get(item.action, 0) + 1
        self.max_prompt_tokens = max(self.max_prompt_tokens, item.prompt_tokens)
        if item.truncation is not None:
            self.tokens_cut += item.truncation.cut_tokens

    def to_json(self) -> JsonObject:
        return {
            "planned": self.planned,
            "actions": dict(sorted(self.actions.items())),
            "max_prompt_tokens": self.max_prompt_tokens,
            "tokens_cut": self.tokens_cut,
            "max_new_tokens": self.max_new_tokens,
        }


@dataclass(frozen=True)
class PlannedItem:
    sample: EvalSample
    prompt: PromptTemplate
    prompt_text: str  # what is sent (after any cut)
    prompt_tokens: int  # counted after any cut
    original_tokens: int  # counted before any cut
    max_new_tokens: int
    action: Action
    truncation: Truncation | None = None
    skip_reason: str | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.sample.subset, self.sample.id, self.prompt.id)


@dataclass
class Plan:
    policy: Policy
    context_window: int | None
    window_source: str  # "--context-window", "model config", "unknown"
    counter: str
    chat_template_applied: bool
    max_new_tokens: dict[str, int]
    items: list[PlannedItem] = field(default_factory=list)

    @property
    def runnable(self) -> list[PlannedItem]:
        return [item for item in self.items if item.action != "skipped"]

    def required_model_len(self) -> int:
        """Smallest engine max_model_len that holds every runnable prompt and its answer."""
        return max((i.prompt_tokens + i.max_new_tokens for i in self.runnable), default=0)

    def to_dict(self) -> JsonObject:
        """The resolved plan for results.json: settings and per subset/prompt counts."""
        groups: dict[str, dict[str, _PlanGroup]] = {}
        for item in self.items:
            by_prompt = groups.setdefault(item.sample.subset, {})
            by_prompt.setdefault(item.prompt.id, _PlanGroup(item.max_new_tokens)).add(item)
        return {
            "policy": self.policy,
            "context_window": self.context_window,
            "context_window_source": self.window_source,
            "tokenizer": self.counter,
            "chat_template_applied": self.chat_template_applied,
            "max_new_tokens": dict(self.max_new_tokens),
            "required_model_len": self.required_model_len(),
            "subsets": {s: {p: g.to_json() for p, g in by.items()} for s, by in groups.items()},
        }


def parse_max_new_tokens(text: str | None) -> dict[str, int]:
    """'L=400,XL=400' -> {'L': 400, 'XL': 400}; clear errors for anything else."""
    if not text:
        return {}
    limits: dict[str, int] = {}
    for part in text.split(","):
        name, equals, value = part.strip().partition("=")
        if not equals or not name.strip() or not value.strip().isdigit() or int(value) <= 0:
            raise UserError(
                f"--max-new-tokens-per-subset: {part.strip()!r} is not SUBSET=N with N > 0 "
                "(e.g. L=400,2XL=500)"
            )
        limits[name.strip()] = int(value)
    return limits


def max_new_tokens_for(subset: str, overrides: Mapping[str, int], default: int | None) -> int:
    if subset in overrides:
        return overrides[subset]
    if default is not None:
        return default
    return DEFAULT_MAX_NEW_TOKENS.get(subset, FALLBACK_MAX_NEW_TOKENS)


def truncate_middle(
    sample: EvalSample,
    prompt: PromptTemplate,
    counter: PromptCounter,
    budget: int,
    original_tokens: int | None = None,
) -> tuple[str, int, Truncation] | None:
    """The prompt with the middle of its context cut to fit `budget` tokens, its token
    count and the cut; None when even an empty context does not fit."""
    language, fields = sample.language, sample.prompt_fields
    original = original_tokens
    if original is None:
        original = counter.count_prompt(prompt.render(sample.context, language, fields))
    overhead = counter.count_prompt(prompt.render("", language, fields))
    if overhead > budget:
        return None
    context = sample.context
    keep = min(counter.count_text(context), budget - overhead)
    for _ in range(_FIT_ATTEMPTS):
        head = keep // 2
        tail = keep - head
        head_end, tail_start = counter.cut_points(context, head, tail)
        text = prompt.render(context[:head_end] + context[tail_start:], language, fields)
        tokens = counter.count_prompt(text)
        if tokens <= budget:
            where: dict[str, str | int] = {
                "position": "middle of the context",
                "from_char": head_end,
                "to_char": tail_start,
                "context_chars": len(context),
                "head_tokens": head,
                "tail_tokens": tail,
            }
            return text, tokens, Truncation(original - tokens, where)
        # Tokens merge differently at the joint: shrink by the overshoot and retry.
        keep = max(0, keep - (tokens - budget))
    return None


def make_plan(
    samples: Mapping[str, Sequence[EvalSample]],
    prompts: Sequence[PromptTemplate] | Mapping[str, Sequence[PromptTemplate]],
    counter: PromptCounter,
    *,
    policy: Policy,
    context_window: int | None,
    window_source: str,
    max_new_tokens: Mapping[str, int],
) -> Plan:
    """Count every (sample, prompt) and resolve `policy` against the window; `prompts`
    is one list for every subset, or a list per subset (each task has its templates)."""
    if policy not in POLICIES:
        raise UserError(f"unknown policy {policy!r} (expected one of {', '.join(POLICIES)})")
    plan = Plan(
        policy=policy,
        context_window=context_window,
        window_source=window_source,
        counter=counter.id,
        chat_template_applied=counter.chat_template_applied,
        max_new_tokens={subset: max_new_tokens[subset] for subset in samples},
    )
    for subset, rows in samples.items():
        limit = max_new_tokens[subset]
        budget = None if context_window is None else context_window - limit
        if budget is not None and budget <= 0:
            raise UserError(
                f"subset {subset}: {limit} new tokens leave no room in a {context_window}-token "
                "window; lower --max-new-tokens-per-subset or raise --context-window"
            )
        for prompt in prompts[subset] if isinstance(prompts, Mapping) else prompts:
            for sample in rows:
                plan.items.append(_plan_item(sample, prompt, counter, policy, budget, limit))
    return plan


def _plan_item(
    sample: EvalSample,
    prompt: PromptTemplate,
    counter: PromptCounter,
    policy: Policy,
    budget: int | None,
    limit: int,
) -> PlannedItem:
    text = prompt.render(sample.context, sample.language, sample.prompt_fields)
    tokens = counter.count_prompt(text)
    if budget is None or tokens <= budget:
        return PlannedItem(sample, prompt, text, tokens, tokens, limit, "keep")
    if policy == "extrapolate":
        return PlannedItem(sample, prompt, text, tokens, tokens, limit, "extrapolated")
    reason = f"prompt has {tokens} tokens; the budget is {budget} (window - {limit} new tokens)"
    if policy == "truncate-middle":
        fitted = truncate_middle(sample, prompt, counter, budget, tokens)
        if fitted is not None:
            cut_text, cut_tokens, truncation = fitted
            return PlannedItem(
                sample, prompt, cut_text, cut_tokens, tokens, limit, "truncated", truncation
            )
        reason += "; the instruction alone does not fit"
    return PlannedItem(sample, prompt, "", tokens, tokens, limit, "skipped", skip_reason=reason)
