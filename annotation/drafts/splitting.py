"""Cutting a chapter that does not fit the drafter's context window into ordered parts.

The drafter's tokenizer is unknown here (it may be a remote API), so tokens are
over-estimated from characters: one token per CJK character (Qwen-class tokenizers
average about 1.2-1.4 characters per token on Chinese) and one token per three other
characters (English averages about four). Over-estimating only costs an extra part.

Parts end at paragraph boundaries where possible, then at sentence boundaries, and
as a last resort inside a sentence; they are about equal in size. Each part is drafted
on its own and the part drafts are joined in order (one line each).
"""

from __future__ import annotations

import math
import re

from lengthwise.annotation.drafts.prompts import prompt_overhead
from lengthwise.annotation.drafts.sentences import is_chinese, paragraphs, split_sentences
from lengthwise.errors import UserError
from lengthwise.spec import LLMRoleConfig

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
CHAT_TEMPLATE_TOKENS = 32  # role markers and the like around two messages
SAFETY = 0.9  # keep 10% of the window free of estimated text
MIN_TEXT_TOKENS = 64


def estimate_tokens(text: str) -> int:
    """An upper estimate of tokens for any modern BPE tokenizer (see module docstring)."""
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 3)


def text_budget(config: LLMRoleConfig, language: str) -> int | None:
    """Estimated tokens of chapter text one request may carry; None when unlimited.

    Raises ValueError naming the spec keys when the window leaves no room for text.
    """
    if config.context_window is None:
        return None
    overhead = estimate_tokens(prompt_overhead(language)) + CHAT_TEMPLATE_TOKENS
    budget = int((config.context_window - config.max_tokens - overhead) * SAFETY)
    if budget < MIN_TEXT_TOKENS:
        raise UserError(
            f"llm.drafter.context_window ({config.context_window}) leaves no room for chapter "
            f"text after llm.drafter.max_tokens ({config.max_tokens}) and the prompt "
            f"(about {overhead} tokens): raise context_window or lower max_tokens"
        )
    return budget


def split_for_context(text: str, budget: int | None) -> list[str]:
    """`text` as one part if it fits `budget` estimated tokens, else as ordered parts that do."""
    total = estimate_tokens(text)
    if budget is None or total <= budget:
        return [text]
    units = [u for paragraph in paragraphs(text) for u in _units(paragraph, budget)]
    target = math.ceil(total / math.ceil(total / budget))
    parts: list[list[str]] = [[]]
    size = 0
    for unit in units:
        cost = estimate_tokens(unit) + 1  # + the newline joining units
        if parts[-1] and (size + cost > budget or size >= target):
            parts.append([])
            size = 0
        parts[-1].append(unit)
        size += cost
    return ["\n".join(p) for p in parts if p]


def _units(paragraph: str, budget: int) -> list[str]:
    """The paragraph, or its sentences, or fixed-size pieces: whatever fits the budget."""
    if estimate_tokens(paragraph) < budget:
        return [paragraph]
    language = "zh" if is_chinese(paragraph) else "en"
    out: list[str] = []
    for sentence in split_sentences(paragraph, language):
        if estimate_tokens(sentence) < budget:
            out.append(sentence)
            continue
        # Every character counts at most one estimated token, so pieces of budget - 1
        # characters fit.
        step = budget - 1
        out += [sentence[k : k + step] for k in range(0, len(sentence), step)]
    return out
