"""Chapter synopses for the families that reference them (synopsis ordering, sections).

A synopsis comes from `ctx.synopses` (keyed by the chapter's sha256: the human-reviewed
one when present, else the draft). When one is missing and the build has a drafting
model (`ctx.llm`, behind the work dir's request cache), the model writes it with the
prompt below; a rebuild asks nothing again. Without a model, or when the model gives
no usable answer, the caller drops its candidate with the reason returned here.
"""

from __future__ import annotations

from collections.abc import Sequence

from lengthwise.builders.joining import render_chapter
from lengthwise.builders.tasks.base import TaskBuildContext
from lengthwise.llm.types import ChatRequest
from lengthwise.records import Chapter

NO_SYNOPSIS = "no synopsis for chapter"
MODEL_FAILED = "the model wrote no synopsis for chapter"
PROMPT_VERSION = "task-chapter-synopsis-v1"
_PROMPTS = {
    "zh": "请用一段话（不超过200字）概括下面这一章的主要情节，只写概括。\n\n{chapter}",
    "en": (
        "Summarize the main events of the following chapter in one paragraph of at most "
        "150 words. Write only the summary.\n\n{chapter}"
    ),
}


def _request(chapter: Chapter, language: str) -> ChatRequest:
    prompt = _PROMPTS.get(language, _PROMPTS["en"]).format(chapter=render_chapter(chapter))
    return ChatRequest.of(
        None,
        prompt,
        prompt_version=PROMPT_VERSION,
        max_tokens=400,
        metadata=(("chapter", chapter.sha256),),
    )


def chapter_synopses(
    ctx: TaskBuildContext, chapters: Sequence[Chapter], language: str
) -> tuple[list[str] | None, str]:
    """The synopses of `chapters` in order, or (None, reason) when one cannot be had.

    Missing ones are written by `ctx.llm` (stored into `ctx.synopses` so a chapter is
    asked for once per build).
    """
    missing = [c for c in chapters if not ctx.synopses.get(c.sha256, "").strip()]
    if missing and ctx.llm is None:
        return None, NO_SYNOPSIS
    if missing and ctx.llm is not None:
        results = ctx.llm.complete_many([_request(c, language) for c in missing])
        for chapter, result in zip(missing, results, strict=True):
            if result.outcome == "ok" and result.text.strip():
                ctx.synopses[chapter.sha256] = result.text.strip()
        if any(not ctx.synopses.get(c.sha256, "").strip() for c in missing):
            return None, MODEL_FAILED
    return [ctx.synopses[c.sha256].strip() for c in chapters], ""
