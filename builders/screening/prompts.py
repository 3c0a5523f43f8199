"""The contamination probe's prompts (written for lengthwise), versioned per language.

The prompt asks for a plain summary of one chapter and names neither the book nor its
author: a model that names them anyway, or tells events and people the chapter does not
contain, shows that it knows the book from its training data. The chapter heading stays
(it is part of the text every sample shows). A chapter longer than the probe model's
context window is cut at a paragraph boundary; the evidence checks then use exactly the
text the model saw.
"""

from __future__ import annotations

import math
import re

from lengthwise.errors import UserError
from lengthwise.llm.types import ChatRequest
from lengthwise.spec import LLMRoleConfig

PROBE_PROMPT_VERSION = {"zh": "probe-summary-zh-v1", "en": "probe-summary-en-v1"}

_TEMPLATE = {
    "zh": (
        "请用简体中文概括下面这一章小说的内容，约 100–200 字。\n\n"
        "【正文开始】\n{text}\n【正文结束】"
    ),
    "en": (
        "Summarise the following chapter of a novel in about 100-150 words.\n\n"
        "--- chapter text ---\n{text}\n--- end of chapter text ---"
    ),
}
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
# Same over-estimate as the drafter's splitting: 1 token per CJK character, 1 per 3 others.
_TEMPLATE_TOKENS = 96


def _estimate_tokens(text: str) -> int:
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 3)


def fit_to_context(text: str, config: LLMRoleConfig) -> str:
    """`text`, cut at a paragraph (or, failing that, any) boundary to fit the context window."""
    if config.context_window is None:
        return text
    budget = int((config.context_window - config.max_tokens - _TEMPLATE_TOKENS) * 0.9)
    if budget < 32:
        raise UserError(
            f"llm.probe.context_window ({config.context_window}) leaves no room for chapter "
            f"text after llm.probe.max_tokens ({config.max_tokens})"
        )
    if _estimate_tokens(text) <= budget:
        return text
    kept: list[str] = []
    used = 0
    for line in text.split("\n"):
        cost = _estimate_tokens(line) + 1
        if used + cost > budget:
            if not kept:  # a first paragraph over budget: cut inside it
                kept.append(line[: max(1, budget - 1)])
            break
        kept.append(line)
        used += cost
    return "\n".join(kept)


def probe_request(text: str, language: str, config: LLMRoleConfig) -> ChatRequest:
    lang = "zh" if language == "zh" else "en"
    return ChatRequest.of(
        None,
        _TEMPLATE[lang].format(text=text),
        prompt_version=PROBE_PROMPT_VERSION[lang],
        max_tokens=config.max_tokens,
        temperature=config.temperature,
        seed=config.seed,
    )
