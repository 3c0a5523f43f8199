"""Questions about single chapters, written by the drafting model (needles over chapters).

One request per chapter: one question answered by that chapter alone and its short
answer, as JSON. Replies the parser cannot read are dropped with a reason; every call
goes through the work dir's request cache, so the lengths of one task share questions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from lengthwise.builders.tasks.needle_documents import Document, NeedleQuestion
from lengthwise.llm.types import ChatRequest, LLMClient
from lengthwise.reports import StageReport
from lengthwise.spec import LLMRoleConfig

PROMPT_VERSION = "needles-question/1"

_SYSTEM = {
    "zh": "你为阅读理解测试出题。只输出一个 JSON 对象。",
    "en": "You write reading-comprehension test questions. Output one JSON object only.",
}
_USER = {
    "zh": (
        "阅读下面这一章，写一个只凭这一章就能回答、且答案明确的问题，并给出简短答案"
        "（一句话以内，尽量用原文的词）。不要问章节编号或标题。\n"
        '只输出：{{"question": "...", "answer": "..."}}\n\n'
        "【章节开始】\n{text}\n【章节结束】"
    ),
    "en": (
        "Read the chapter below. Write one question that this chapter alone answers, with "
        "an unambiguous short answer (one sentence at most, in the chapter's own words). "
        "Do not ask about chapter numbers or titles.\n"
        'Output only: {{"question": "...", "answer": "..."}}\n\n'
        "--- chapter ---\n{text}\n--- end of chapter ---"
    ),
}
_OBJECT = re.compile(r"\{.*\}", re.S)


def question_request(document: Document, config: LLMRoleConfig) -> ChatRequest:
    language = "zh" if document.language == "zh" else "en"
    return ChatRequest.of(
        _SYSTEM[language],
        _USER[language].format(text=document.text),
        prompt_version=PROMPT_VERSION,
        max_tokens=config.max_tokens,
        temperature=config.temperature,
        seed=config.seed,
        metadata=(("chapter", document.id),),
    )


def parse_question(text: str) -> tuple[str, str] | None:
    """(question, answer) from the model's reply, None when it holds no such JSON object."""
    match = _OBJECT.search(text)
    if match is None:
        return None
    try:
        data = json.loads(match.group(0))
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    question, answer = data.get("question"), data.get("answer")
    if not (isinstance(question, str) and isinstance(answer, str)):
        return None
    if not (question.strip() and answer.strip()):
        return None
    return question.strip(), answer.strip()


def chapter_questions(
    documents: Sequence[Document],
    llm: LLMClient,
    config: LLMRoleConfig,
    drops: StageReport,
) -> list[NeedleQuestion]:
    """One question per document (in order), for those whose reply parses."""
    requests = [question_request(d, config) for d in documents]
    results = llm.complete_many(requests)
    questions = []
    for document, result in zip(documents, results, strict=True):
        parsed = parse_question(result.text) if result.outcome == "ok" else None
        if parsed is None:
            reason = "model's question unreadable" if result.outcome == "ok" else result.outcome
            drops.drop(f"question not written: {reason}", document.name)
            continue
        question, answer = parsed
        questions.append(NeedleQuestion(question, [answer], document, document.id))
    return questions
