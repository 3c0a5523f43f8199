"""The qa family's prompts (zh and en): one question of one kind from one chapter.

Every kind asks for one JSON object:
- abstractive:  {"question", "answer"}  (the answer in the model's own words)
- extractive:   {"question", "answer"}  (the answer copied verbatim from the chapter)
- yes-no:       {"question", "answer": "yes" | "no", "reason"}
- unanswerable: {"question", "plausible_answer", "key_facts": [...]}  (a question about
  the story that the text never answers; what a reader might wrongly answer and the
  facts an answer would need, which the validator checks are absent from the context)
"""

from __future__ import annotations

from lengthwise.llm.types import ChatRequest

PROMPT_VERSION = "qa-question-v1"

_SYSTEM = {
    "zh": "你为长文本阅读理解测试出题，只依据给出的章节。",
    "en": "You write reading-comprehension questions for long-document tests, from the "
    "given chapter only.",
}
_FRAME = {
    "zh": "下面是一部小说中的一章。\n\n【正文开始】\n{text}\n【正文结束】\n\n"
    "{ask}\n只输出一个 JSON 对象。",
    "en": "Below is one chapter of a novel.\n\n--- chapter ---\n{text}\n--- end of chapter ---"
    "\n\n{ask}\nReply with one JSON object only.",
}
_ASK = {
    ("zh", "abstractive"): (
        "请就本章情节出一道需要理解和概括才能回答的问题，并用自己的话给出答案（一两句）。"
        '格式：{"question": "...", "answer": "..."}'
    ),
    ("en", "abstractive"): (
        "Write one question about this chapter's events that needs understanding and "
        "summarising to answer, and answer it in your own words (one or two sentences). "
        'Format: {"question": "...", "answer": "..."}'
    ),
    ("zh", "extractive"): (
        "请出一道答案可以从本章原文中直接摘出的问题；答案必须是原文中逐字出现的一个短语或短句"
        '（不超过三十字）。格式：{"question": "...", "answer": "原文片段"}'
    ),
    ("en", "extractive"): (
        "Write one question whose answer is a short span copied word for word from the "
        'chapter (at most twenty words). Format: {"question": "...", "answer": "exact span"}'
    ),
    ("zh", "yes-no"): (
        "请出一道可以用“是”或“否”回答的问题，并给出答案和依据本章内容的理由。"
        '格式：{"question": "...", "answer": "yes" 或 "no", "reason": "..."}'
    ),
    ("en", "yes-no"): (
        "Write one question that can be answered yes or no, with the answer and a reason "
        'taken from the chapter. Format: {"question": "...", "answer": "yes" or "no", '
        '"reason": "..."}'
    ),
    ("zh", "unanswerable"): (
        "请出一道关于本章人物或事件、看似可以回答、但全书正文都没有给出答案的问题。"
        "同时写出读者可能给出的错误答案，以及回答它所需要、但原文没有的关键事实（短语）。"
        '格式：{"question": "...", "plausible_answer": "...", "key_facts": ["...", "..."]}'
    ),
    ("en", "unanswerable"): (
        "Write one question about this chapter's people or events that looks answerable but "
        "that the text never answers. Also give the answer a reader might wrongly guess, and "
        "the key facts (short phrases) an answer would need that the text does not contain. "
        'Format: {"question": "...", "plausible_answer": "...", "key_facts": ["...", "..."]}'
    ),
}


def question_request(
    chapter_text: str, kind: str, language: str, max_tokens: int, meta: str
) -> ChatRequest:
    lang = "zh" if language == "zh" else "en"
    user = _FRAME[lang].format(text=chapter_text, ask=_ASK[(lang, kind)])
    return ChatRequest.of(
        _SYSTEM[lang],
        user,
        prompt_version=f"{PROMPT_VERSION}:{kind}",
        max_tokens=max_tokens,
        metadata=(("item", meta),),
    )
