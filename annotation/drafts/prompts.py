"""The drafter's prompts (written for lengthwise), one template per language, versioned.

Decisions:
- The book title and author are NOT in the prompt: the drafter must summarise the text
  in front of it, not what it may remember of a famous book, and a synopsis must not
  contain facts that the sample's text does not (the title is not part of a sample).
- The chapter heading IS in the prompt, as the first line of the chapter text, because
  samples show it to readers and evaluated models in exactly that form.
- A chapter too long for the drafter's context window is drafted in parts (see
  `lengthwise.annotation.drafts.splitting`); each part's prompt says which part it is.
- Books in languages other than Chinese get the English prompt.

Changing a template's wording means bumping its `PROMPT_VERSION`: the version is part of
every request (and so of the request cache key) and of every stored draft.
"""

from __future__ import annotations

from lengthwise.llm.types import ChatRequest
from lengthwise.spec import LLMRoleConfig

PROMPT_VERSION = {"zh": "draft-synopsis-zh-v1", "en": "draft-synopsis-en-v1"}

# (low, high) length guidance: characters for Chinese, words for English.
WHOLE_CHAPTER_LENGTH = (150, 400)
PART_LENGTH = (80, 250)

_SYSTEM = {
    "zh": "你是一名严谨的文学编辑，负责为长篇小说的单个章节撰写忠实于原文的情节梗概。",
    "en": (
        "You are a careful literary editor who writes faithful plot synopses of single "
        "chapters of long novels."
    ),
}

_TASK = {
    "zh": {
        "whole": "请为下面这一章小说撰写一份详细的情节梗概。",
        "part": (
            "下面是一章小说的第 {part}/{parts} 部分（整章按原文顺序切分）。"
            "请只为这一部分撰写详细的情节梗概。"
        ),
    },
    "en": {
        "whole": "Write a detailed plot synopsis of the chapter below.",
        "part": (
            "Below is part {part} of {parts} of one chapter of a novel (the chapter was cut "
            "in order). Write a detailed plot synopsis of this part only."
        ),
    },
}

_RULES = {
    "zh": (
        "要求：\n"
        "1. 按原文顺序交代发生的主要事件，不遗漏关键的情节转折；\n"
        "2. 写明出场的主要人物，以及他们各自的言行和彼此关系的变化；\n"
        "3. 只写正文中发生的事情，不补充正文以外的情节或背景，不评论、不分析、不评价；\n"
        "4. 用简体中文写成连贯的叙述段落，不用标题、列表或项目符号；\n"
        "5. 篇幅约 {low}–{high} 字。"
    ),
    "en": (
        "Requirements:\n"
        "1. Relate the main events in the order in which they happen, keeping every turning "
        "point of the plot.\n"
        "2. Name the characters who appear and say what each of them does and says, and how "
        "their relations change.\n"
        "3. Report only what happens in the text: add no events or background from outside "
        "it, and give no commentary, analysis or judgement.\n"
        "4. Write continuous prose in English, with no headings, lists or bullet points.\n"
        "5. Aim for about {low}-{high} words."
    ),
}

_FRAME = {
    "zh": "【正文开始】\n{text}\n【正文结束】",
    "en": "--- chapter text ---\n{text}\n--- end of chapter text ---",
}


def prompt_language(language: str) -> str:
    """The template language used for a book language ("zh" or "en")."""
    return "zh" if language == "zh" else "en"


def synopsis_request(
    text: str,
    language: str,
    config: LLMRoleConfig,
    *,
    part: int = 1,
    parts: int = 1,
    metadata: tuple[tuple[str, str], ...] = (),
) -> ChatRequest:
    """The request drafting `text` (a chapter, or part `part` of `parts` of one)."""
    lang = prompt_language(language)
    low, high = WHOLE_CHAPTER_LENGTH if parts == 1 else PART_LENGTH
    task = _TASK[lang]["whole" if parts == 1 else "part"].format(part=part, parts=parts)
    user = "\n\n".join(
        [task, _RULES[lang].format(low=low, high=high), _FRAME[lang].format(text=text)]
    )
    return ChatRequest.of(
        _SYSTEM[lang],
        user,
        prompt_version=PROMPT_VERSION[lang],
        max_tokens=config.max_tokens,
        temperature=config.temperature,
        seed=config.seed,
        metadata=metadata,
    )


def prompt_overhead(language: str) -> str:
    """Everything a request holds besides the chapter text (for context-window budgets)."""
    lang = prompt_language(language)
    rules = _RULES[lang].format(low=WHOLE_CHAPTER_LENGTH[0], high=WHOLE_CHAPTER_LENGTH[1])
    task = _TASK[lang]["part"].format(part=99, parts=99)
    return "\n\n".join([_SYSTEM[lang], task, rules, _FRAME[lang].format(text="")])
