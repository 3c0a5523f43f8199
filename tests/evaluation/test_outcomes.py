"""Outcome detectors on hand-written answers."""

from __future__ import annotations

from lengthwise.evaluation.outcomes import classify, context_overlap

EN_CONTEXT = (
    "Ada walked to the old library before dawn. She found a letter hidden in a book about "
    "tides, and the letter named Bram as the keeper of the harbour light. Bram denied it at "
    "first, but Celia had seen him at the lighthouse every night for a month. By the end of "
    "the chapter the three of them agreed to watch the north road together."
)
EN_SUMMARY = (
    "Ada discovers a letter in the library naming Bram as keeper of the harbour light; Celia "
    "confirms his nightly visits, and the three decide to keep watch on the north road."
)
ZH_CONTEXT = (
    "清晨，林青独自来到城北的旧书院，在一本讲潮汐的书里发现了一封信。信上说守灯人是老周。"
    "老周起初不肯承认，可是阿梅一个月来每晚都在灯塔下看见他。到了傍晚，三人约定一起守住北边的路。"
)
ZH_SUMMARY = "林青在书院发现一封信，指出老周是守灯人；阿梅证实此事，三人决定一起守住北路。"
INSTRUCTION_EN = (
    "Write a summary of the following excerpt from a novel, covering its main characters and "
    "how the plot develops. Output only the summary itself.\nSummary:"
)


def _check(text: str, language: str = "en", backend: str = "ok") -> tuple[str, tuple[str, ...]]:
    context = EN_CONTEXT if language == "en" else ZH_CONTEXT
    result = classify(text, backend, context=context, instruction=INSTRUCTION_EN, language=language)
    return result.outcome, result.flags


def test_real_summaries_are_ok() -> None:
    assert _check(EN_SUMMARY)[0] == "ok"
    assert _check(ZH_SUMMARY, "zh")[0] == "ok"


def test_empty_and_punctuation_only_answers() -> None:
    assert _check("")[0] == "empty"
    assert _check(" \n\n ")[0] == "empty"
    assert _check("……。。", "zh")[0] == "empty"


def test_looping_answers_are_degenerate() -> None:
    assert _check("the light the light " * 20)[0] == "degenerate"
    assert _check("老周是守灯人。" * 15, "zh")[0] == "degenerate"
    # A sound start that ends in a loop is caught by the second-half check.
    looping_tail = EN_SUMMARY + " and then" * 40
    assert _check(looping_tail)[0] == "degenerate"


def test_copying_the_context_is_not_summarising() -> None:
    copied = EN_CONTEXT[:300]
    assert context_overlap(copied, EN_CONTEXT, "en") > 0.9
    assert _check(copied)[0] == "copied_context"
    assert _check(ZH_CONTEXT[:80], "zh")[0] == "copied_context"
    assert context_overlap(EN_SUMMARY, EN_CONTEXT, "en") < 0.3


def test_instruction_repeated_back() -> None:
    outcome, _ = _check(INSTRUCTION_EN + " Ada and Bram.")
    assert outcome == "instruction_repeated"


def test_backend_outcomes_pass_through_and_length_is_flagged() -> None:
    assert _check("", backend="blocked")[0] == "blocked"
    assert _check("", backend="over_length")[0] == "over_length"
    assert _check("", backend="error")[0] == "error"
    outcome, flags = _check(EN_SUMMARY, backend="length")
    assert outcome == "ok" and "hit_max_tokens" in flags
    both = _check((EN_CONTEXT[:120] + " ") * 6)
    assert both[0] == "copied_context" and "degenerate" in both[1]
