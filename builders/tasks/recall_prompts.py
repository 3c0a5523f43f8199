"""The recall family's prompts (zh and en): names per chunk, alias groups, a repair turn.

Each template has a version that enters the request cache key, so rewording one never
reuses old answers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from lengthwise.llm.types import ChatRequest, Message

NAMES_VERSION = "recall-names-v1"
ALIASES_VERSION = "recall-aliases-v1"
REPAIR_VERSION = "recall-names-repair-v1"

_SYSTEM = {
    "zh": "你是一名细致的文学文本标注员。",
    "en": "You are a careful annotator of literary texts.",
}
_NAMES = {
    "zh": (
        "下面是一部小说中的一段文字。请列出这段文字中出现的所有人物名字（人名、称号、外号，"
        "照原文写法；同一人物的不同称呼分别列出），按首次出现的顺序。只输出一个 JSON 数组，"
        '例如 ["贾宝玉", "林黛玉"]；没有人物时输出 []。\n\n'
        "【正文开始】\n{text}\n【正文结束】"
    ),
    "en": (
        "Below is a passage from a novel. List every character name that appears in it "
        "(people and personified characters, by name or title as written, e.g. "
        '"Mr. Darcy"; list different forms of one person\'s name separately), in order of '
        "first appearance. Reply with one JSON array of strings only, e.g. "
        '["Elizabeth Bennet", "Mr. Darcy"]; reply [] when there is none.\n\n'
        "--- passage ---\n{text}\n--- end of passage ---"
    ),
}
_ALIASES = {
    "zh": (
        "以下是从同一部小说中找到的人物名字。请把指同一个人的名字归为一组。只输出一个 JSON 数组，"
        "每组是一个名字数组（照下列写法原样抄写），全名放在第一位；只列出含两个及以上名字的组，"
        "没有时输出 []。\n\n名字：{names}"
    ),
    "en": (
        "These character names were found in one novel. Group the names that refer to the "
        "same person. Reply with one JSON array only: each group is an array of names copied "
        "exactly from the list, the fullest name first; list only groups of two or more "
        "names, and reply [] when there are none.\n\nNames: {names}"
    ),
}
_REPAIR = {
    "zh": "无法把你的回答读成 JSON 数组。请只输出一个 JSON 数组，不要输出其他内容。",
    "en": "Your reply could not be read as a JSON array. Reply with the JSON array only.",
}


def _lang(language: str) -> str:
    return "zh" if language == "zh" else "en"


def names_request(text: str, language: str, max_tokens: int, meta: str) -> ChatRequest:
    lang = _lang(language)
    return ChatRequest.of(
        _SYSTEM[lang],
        _NAMES[lang].format(text=text),
        prompt_version=NAMES_VERSION,
        max_tokens=max_tokens,
        metadata=(("chunk", meta),),
    )


def repair_request(first: ChatRequest, reply: str, language: str) -> ChatRequest:
    """The same question again after an unreadable reply, asking for the array only."""
    messages = (
        *first.messages,
        Message("assistant", reply),
        Message("user", _REPAIR[_lang(language)]),
    )
    return ChatRequest(
        messages=messages,
        max_tokens=first.max_tokens,
        prompt_version=REPAIR_VERSION,
        metadata=first.metadata,
    )


def aliases_request(names: Sequence[str], language: str, max_tokens: int, meta: str) -> ChatRequest:
    lang = _lang(language)
    listed = json.dumps(list(names), ensure_ascii=False)
    return ChatRequest.of(
        _SYSTEM[lang],
        _ALIASES[lang].format(names=listed),
        prompt_version=ALIASES_VERSION,
        max_tokens=max_tokens,
        metadata=(("instance", meta),),
    )
