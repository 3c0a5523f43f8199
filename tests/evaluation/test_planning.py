"""The plan: budgets, truncate-middle (context only), skip, extrapolate, max new tokens."""

from __future__ import annotations

import pytest

from lengthwise.evaluation.counting import RegistryCounter
from lengthwise.evaluation.planning import (
    make_plan,
    max_new_tokens_for,
    parse_max_new_tokens,
    truncate_middle,
)
from lengthwise.evaluation.prompts import PromptTemplate, builtin_prompts
from lengthwise.evaluation.samples import EvalSample


class CharCounter:
    """A TEST DOUBLE counter: one token per character, plus 5 for a chat template."""

    id = "chars-test"
    chat_template_applied = True

    def count_prompt(self, prompt: str) -> int:
        return len(prompt) + 5

    def count_text(self, text: str) -> int:
        return len(text)

    def cut_points(self, text: str, head_tokens: int, tail_tokens: int) -> tuple[int, int]:
        return head_tokens, len(text) - tail_tokens


PROMPT = PromptTemplate("IE", {"*": "Text:\n{}\nSummarise the text above.\nSummary:"}, "test")
OVERHEAD = len(PROMPT.render("", "en")) + 5


def _sample(length: int, sample_id: str = "s1", subset: str = "L") -> EvalSample:
    context = "".join(chr(ord("a") + i % 26) for i in range(length))
    return EvalSample(sample_id, subset, "en", context, "ref", 1000)


def test_prompts_that_fit_are_kept_whole() -> None:
    sample = _sample(100)
    plan = make_plan(
        {"L": [sample]},
        [PROMPT],
        CharCounter(),
        policy="truncate-middle",
        context_window=100 + OVERHEAD + 10,
        window_source="test",
        max_new_tokens={"L": 10},
    )
    (item,) = plan.items
    assert item.action == "keep" and item.truncation is None
    assert item.prompt_tokens == 100 + OVERHEAD
    assert item.prompt_text == PROMPT.render(sample.context, "en")


def test_truncate_middle_cuts_only_the_middle_of_the_context() -> None:
    sample = _sample(1000)
    window, new = 400, 50
    plan = make_plan(
        {"L": [sample]},
        [PROMPT],
        CharCounter(),
        policy="truncate-middle",
        context_window=window,
        window_source="test",
        max_new_tokens={"L": new},
    )
    (item,) = plan.items
    assert item.action == "truncated" and item.truncation is not None
    assert item.prompt_tokens <= window - new
    # The instruction is whole, the context keeps its start and its end.
    before, after = PROMPT.parts("en")
    assert item.prompt_text.startswith(before) and item.prompt_text.endswith(after)
    kept = item.prompt_text[len(before) : len(item.prompt_text) - len(after)]
    where = item.truncation.where
    head, tail = sample.context[: where["from_char"]], sample.context[where["to_char"] :]
    assert kept == head + tail
    assert kept.startswith(sample.context[:100]) and kept.endswith(sample.context[-100:])
    assert abs(len(head) - len(tail)) <= 1
    assert item.truncation.cut_tokens == item.original_tokens - item.prompt_tokens
    assert item.truncation.cut_tokens == 1000 - len(kept)
    summary = plan.to_dict()["subsets"]["L"]["IE"]
    assert summary["actions"] == {"truncated": 1}
    assert summary["tokens_cut"] == item.truncation.cut_tokens


def test_an_instruction_longer_than_the_budget_is_skipped_not_cut() -> None:
    item = make_plan(
        {"L": [_sample(500)]},
        [PROMPT],
        CharCounter(),
        policy="truncate-middle",
        context_window=OVERHEAD + 20,
        window_source="test",
        max_new_tokens={"L": 30},
    ).items[0]
    assert item.action == "skipped"
    assert item.skip_reason is not None and "instruction alone" in item.skip_reason


def test_skip_policy_excludes_and_counts() -> None:
    samples = {"L": [_sample(100, "short"), _sample(900, "long"), _sample(950, "longer")]}
    plan = make_plan(
        samples,
        list(builtin_prompts().values()),
        CharCounter(),
        policy="skip",
        context_window=600,
        window_source="test",
        max_new_tokens={"L": 100},
    )
    assert [i.sample.id for i in plan.runnable] == ["short", "short"]
    groups = plan.to_dict()["subsets"]["L"]
    assert groups["IB"]["actions"] == {"keep": 1, "skipped": 2}
    assert groups["IE"]["actions"] == {"keep": 1, "skipped": 2}


def test_extrapolate_keeps_everything_and_sizes_the_engine() -> None:
    plan = make_plan(
        {"XL": [_sample(2000)]},
        [PROMPT],
        CharCounter(),
        policy="extrapolate",
        context_window=1000,
        window_source="test",
        max_new_tokens={"XL": 400},
    )
    (item,) = plan.items
    assert item.action == "extrapolated" and item.prompt_text.count("a") > 70
    assert plan.required_model_len() == 2000 + OVERHEAD + 400


def test_unknown_window_keeps_everything() -> None:
    plan = make_plan(
        {"L": [_sample(5000)]},
        [PROMPT],
        CharCounter(),
        policy="skip",
        context_window=None,
        window_source="unknown",
        max_new_tokens={"L": 400},
    )
    assert plan.items[0].action == "keep"


def test_max_new_tokens_defaults_and_overrides() -> None:
    assert [max_new_tokens_for(s, {}, None) for s in ("L", "XL", "2XL", "3XL", "S")] == [
        400,
        400,
        500,
        500,
        400,
    ]
    overrides = parse_max_new_tokens("L=300, 3XL=800")
    assert overrides == {"L": 300, "3XL": 800}
    assert max_new_tokens_for("L", overrides, 64) == 300
    assert max_new_tokens_for("XL", overrides, 64) == 64
    for bad in ("L", "L=", "L=0", "L=abc", "=4"):
        with pytest.raises(ValueError, match="SUBSET=N"):
            parse_max_new_tokens(bad)
    with pytest.raises(ValueError, match="leave no room"):
        make_plan(
            {"L": [_sample(10)]},
            [PROMPT],
            CharCounter(),
            policy="skip",
            context_window=100,
            window_source="test",
            max_new_tokens={"L": 100},
        )


def test_truncation_with_a_registry_tokenizer_fits_exactly() -> None:
    counter = RegistryCounter("qwen2.5", chat_template=True)
    text = "满纸荒唐言，一把辛酸泪。都云作者痴，谁解其中味？" * 40
    sample = EvalSample("zh1", "L", "zh", text, "ref", 1000)
    ib = builtin_prompts()["IB"]
    budget = 150
    fitted = truncate_middle(sample, ib, counter, budget)
    assert fitted is not None
    prompt_text, tokens, truncation = fitted
    assert tokens == counter.count_prompt(prompt_text) <= budget
    assert tokens >= budget - 6  # close to the budget, not far below it
    before, after = ib.parts("zh")
    assert prompt_text.startswith(before) and prompt_text.endswith(after)
    assert truncation.cut_tokens == counter.count_prompt(ib.render(text, "zh")) - tokens
