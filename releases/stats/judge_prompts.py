"""The information-coverage judge's prompts (zh, en) and the strict verdict parser.

The judge reads one chunk and the benchmark's task instruction, reasons, and ends
with a final line that is exactly ``Final score: 0|1`` (English prompt) or
``最终得分：0|1`` (Chinese prompt, full-width colon). The parser looks only at the last
non-empty line, stripped of surrounding whitespace, and accepts only that exact line
for the prompt's language: markdown around it, a half-width colon in Chinese, a
score of 0.5 or a verdict buried earlier in the text are *unparseable*, counted and
reported, never guessed. Bump PROMPT_VERSION whenever a template changes: it is part
of the request-cache key, so reworded prompts never reuse old verdicts.
"""

from __future__ import annotations

import re

PROMPT_VERSION = "ic-judge-v1"

# The benchmark task the chunks are judged against: summarise the whole excerpt.
TASK_INSTRUCTION = {
    "zh": "阅读这篇小说节选，写出一篇涵盖全文内容的摘要。",
    "en": "Read this excerpt of a novel and write a summary that covers the whole text.",
}

_TEMPLATES = {
    "en": (
        "You are helping to measure how much of a long text a task needs.\n\n"
        'The task, given for the whole text: "{instruction}"\n\n'
        "Below is one passage of that text (passage {number} of {total}). Decide whether "
        "this passage must be taken into account to complete the task well: 1 if leaving "
        "it out would make a good answer miss or misstate something, 0 if the task can be "
        "completed just as well without it.\n\n"
        "Passage:\n<<<\n{chunk}\n>>>\n\n"
        "First explain your reasoning briefly. Then end your answer with one final line "
        'that is exactly "Final score: 1" or "Final score: 0", with nothing after it.'
    ),
    "zh": (
        "你在帮助衡量一项任务需要用到一篇长文本中的多少内容。\n\n"
        "针对全文的任务：“{instruction}”\n\n"
        "下面是这篇文本中的一个片段（第{number}段，共{total}段）。请判断完成上述任务时是否"
        "必须考虑这个片段：如果略去它会使好的答案遗漏或说错某些内容，记为1；如果不看它也能"
        "同样好地完成任务，记为0。\n\n"
        "片段：\n<<<\n{chunk}\n>>>\n\n"
        "请先简要说明理由，最后单独一行严格写成“最终得分：1”或“最终得分：0”，其后不要再有"
        "任何内容。"
    ),
}

_FINAL_LINE = {
    "en": re.compile(r"Final score: ([01])"),
    "zh": re.compile(r"最终得分：([01])"),
}


def _language(lang: str) -> str:
    if lang not in _TEMPLATES:
        raise ValueError(f"no judge prompt for language {lang!r} (expected 'zh' or 'en')")
    return lang


def judge_prompt(chunk: str, lang: str, number: int, total: int) -> str:
    """The user message asking whether chunk `number` (1-based) of `total` is needed."""
    lang = _language(lang)
    return _TEMPLATES[lang].format(
        instruction=TASK_INSTRUCTION[lang], number=number, total=total, chunk=chunk.strip()
    )


def parse_verdict(answer: str, lang: str) -> int | None:
    """0 or 1 from the answer's last non-empty line when it is exactly the final-score
    line of `lang`'s prompt; None (unparseable) for anything else."""
    lines = [line.strip() for line in answer.splitlines() if line.strip()]
    if not lines:
        return None
    match = _FINAL_LINE[_language(lang)].fullmatch(lines[-1])
    return int(match.group(1)) if match else None
