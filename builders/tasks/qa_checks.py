"""Reading a model-written question and checking what can be checked mechanically.

- extractive: the answer must be a span of its chapter (hence of the context);
- unanswerable: neither the proposed (wrong) answer nor any key fact may occur anywhere in
  the context (a question whose answer is in the text is not unanswerable);
- yes-no: the answer must be yes or no, with a reason;
- every kind: a question, and an answer where the kind has one.

Spans are compared after NFKC, case folding and removing whitespace, which accepts an
extractive span across a line break and rejects an unanswerable question on any
near-verbatim hit (the conservative side for both). A person validates every item in
Label Studio afterwards; the gate re-runs these checks on edited items.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from lengthwise.builders.tasks.model_json import json_value
from lengthwise.task_records import DetailValue

_SPACE = re.compile(r"\s+")
_YES = frozenset({"yes", "y", "true", "是", "是的", "对"})
_NO = frozenset({"no", "n", "false", "否", "不", "不是", "没有"})


def normalized(text: str) -> str:
    return _SPACE.sub("", unicodedata.normalize("NFKC", text).casefold())


def occurs(span: str, text: str) -> bool:
    needle = normalized(span)
    return bool(needle) and needle in normalized(text)


@dataclass(frozen=True)
class DraftQuestion:
    kind: str
    question: str
    answers: list[str]  # what the release's `answers` holds for this kind
    details: dict[str, DetailValue] = field(default_factory=dict)  # kind-specific facts


def read_question(kind: str, reply: str, language: str) -> DraftQuestion | str:
    """The question in a model reply, or the reason it cannot be read."""
    value = json_value(reply, dict)
    if value is None:
        return "unreadable reply (no JSON object)"
    question = _text(value.get("question"))
    if not question:
        return "reply without a question"
    if kind == "unanswerable":
        facts = value.get("key_facts")
        key_facts = [_text(f) for f in facts if _text(f)] if isinstance(facts, list) else []
        proposed = _text(value.get("plausible_answer"))
        details: dict[str, DetailValue] = {"proposed_answer": proposed, "key_facts": key_facts}
        return DraftQuestion(kind, question, [], details)
    answer = _text(value.get("answer"))
    if not answer:
        return "reply without an answer"
    if kind == "yes-no":
        return _yes_no(question, answer, _text(value.get("reason")), language)
    return DraftQuestion(kind, question, [answer])


def _yes_no(question: str, answer: str, reason: str, language: str) -> DraftQuestion | str:
    word = answer.strip(" .。!！").casefold()
    if word not in _YES and word not in _NO:
        return "yes/no answer is neither yes nor no"
    if not reason:
        return "yes/no answer without a reason"
    verdict = "yes" if word in _YES else "no"
    label = {("zh", "yes"): "是。", ("zh", "no"): "否。", ("en", "yes"): "Yes. ",
             ("en", "no"): "No. "}[("zh" if language == "zh" else "en", verdict)]  # fmt: skip
    details: dict[str, DetailValue] = {"verdict": verdict, "reason": reason}
    return DraftQuestion("yes-no", question, [label + reason], details)


def check_question(item: DraftQuestion, chapter: str, context: str) -> str | None:
    """Why `item` fails the mechanical checks (None when it passes)."""
    if item.kind == "extractive" and not all(occurs(a, chapter) for a in item.answers):
        return "extractive answer is not a span of its chapter"
    if item.kind == "unanswerable":
        return unanswerable_problem(item, context)
    return None


def unanswerable_problem(item: DraftQuestion, context: str) -> str | None:
    if item.answers:
        return "unanswerable question with an answer"
    proposed = str(item.details.get("proposed_answer") or "")
    facts = item.details.get("key_facts")
    spans = [proposed, *(facts if isinstance(facts, list) else [])]
    spans = [str(s) for s in spans if str(s).strip()]
    if not spans:
        return "unanswerable question without a proposed answer or key facts to check"
    if any(occurs(span, context) for span in spans):
        return "unanswerable question's answer occurs in the context"
    return None


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""
