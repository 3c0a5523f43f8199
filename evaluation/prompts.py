"""Prompt templates: the instruction at the beginning (IB) or at the end (IE) of the context.

A template is text with exactly one ``{}`` where the context goes (CNNSum's
convention). Built-in IB and IE come in our own Chinese and English wording, chosen
by the sample's language. User templates come from a JSON file mapping a prompt id to
either one template (all languages) or ``{"zh": ..., "en": ...}``; CNNSum's
``prompts.json`` (``{"Prompt-IE": "...{}...", "Prompt-IB": "..."}``) works as is, and
its ids can be named with or without the ``Prompt-`` prefix (``--prompts IB,IE``).

Only the context is ever cut (see planning.py): a template is split into the text
before and after ``{}``, and those two parts are sent whole.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lengthwise.errors import UserError
from lengthwise.storage import canonical_hash

PLACEHOLDER = "{}"
Fields = tuple[tuple[str, str], ...]  # (name, value) filled into "{name}" around the context
_PREFIX = "Prompt-"

# Our own wording. "IB": instruction, then the context; "IE": context, then instruction.
# Both end with an answer cue so base models (chat template off) continue with the summary.
BUILTIN_TEMPLATES: dict[str, dict[str, str]] = {
    "IB": {
        "zh": (
            "请为下面这段小说节选写一篇摘要，概括其中的主要人物和情节发展。"
            "只输出摘要正文，不要加标题、评论或其他内容。\n\n节选：\n\n{}\n\n摘要："
        ),
        "en": (
            "Write a summary of the following excerpt from a novel, covering its main "
            "characters and how the plot develops. Output only the summary itself, with no "
            "title, commentary or anything else.\n\nExcerpt:\n\n{}\n\nSummary:"
        ),
    },
    "IE": {
        "zh": (
            "节选：\n\n{}\n\n请为上面这段小说节选写一篇摘要，概括其中的主要人物和情节发展。"
            "只输出摘要正文，不要加标题、评论或其他内容。\n\n摘要："
        ),
        "en": (
            "Excerpt:\n\n{}\n\nWrite a summary of the excerpt above from a novel, covering "
            "its main characters and how the plot develops. Output only the summary itself, "
            "with no title, commentary or anything else.\n\nSummary:"
        ),
    },
}


class PromptFileError(UserError):
    """A prompt file that cannot be used; the message names the file and key."""


@dataclass(frozen=True)
class PromptTemplate:
    """One prompt id with its text per language ("*" = any language)."""

    id: str
    texts: Mapping[str, str]
    source: str  # "builtin" or the file it came from

    def text_for(self, language: str) -> str:
        if language in self.texts:
            return self.texts[language]
        if "*" in self.texts:
            return self.texts["*"]
        raise UserError(
            f"prompt {self.id!r} ({self.source}) has no wording for language {language!r} "
            f"(it has {sorted(self.texts)})"
        )

    def parts(self, language: str, fields: Fields = ()) -> tuple[str, str]:
        """(text before the context, text after it), with `fields` ({question}, ...)
        filled in: task templates name them; summary templates have none."""
        before, _, after = self.text_for(language).partition(PLACEHOLDER)
        for name, value in fields:
            before = before.replace("{" + name + "}", value)
            after = after.replace("{" + name + "}", value)
        return before, after

    def instruction(self, language: str, fields: Fields = ()) -> str:
        """The template without its placeholder: what 'instruction repeated back' looks for."""
        before, after = self.parts(language, fields)
        return f"{before.strip()}\n{after.strip()}".strip()

    def render(self, context: str, language: str, fields: Fields = ()) -> str:
        before, after = self.parts(language, fields)
        return before + context + after

    def version(self, language: str) -> str:
        """A short hash of the exact wording used, for cache keys and the results file."""
        return canonical_hash({"id": self.id, "text": self.text_for(language)})[:16]


def _check_template(text: object, where: str) -> str:
    if not isinstance(text, str):
        raise PromptFileError(f"{where}: expected a template string, got {type(text).__name__}")
    count = text.count(PLACEHOLDER)
    if count != 1:
        raise PromptFileError(
            f"{where}: a template needs exactly one {PLACEHOLDER} for the context, found {count}"
        )
    return text


def builtin_prompts() -> dict[str, PromptTemplate]:
    return {
        name: PromptTemplate(name, dict(texts), "builtin")
        for name, texts in BUILTIN_TEMPLATES.items()
    }


def load_prompt_file(path: Path) -> dict[str, PromptTemplate]:
    """Templates from a JSON object {id: template} or {id: {language: template}}."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PromptFileError(f"{path}: prompt file not found") from None
    except json.JSONDecodeError as exc:
        raise PromptFileError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or not data:
        raise PromptFileError(f"{path}: expected a JSON object mapping prompt ids to templates")
    prompts: dict[str, PromptTemplate] = {}
    for key, value in data.items():
        where = f"{path}: key {key!r}"
        if isinstance(value, dict):
            if not value:
                raise PromptFileError(f"{where}: no languages given")
            texts = {
                str(lang): _check_template(text, f"{where}, language {lang!r}")
                for lang, text in value.items()
            }
        else:
            texts = {"*": _check_template(value, where)}
        prompts[str(key)] = PromptTemplate(str(key), texts, str(path))
    return prompts


def select_prompts(names: Sequence[str], prompt_file: Path | None = None) -> list[PromptTemplate]:
    """The templates named by `names`: from the file when given (ids with or without the
    ``Prompt-`` prefix), else the built-in IB/IE."""
    available = load_prompt_file(prompt_file) if prompt_file else builtin_prompts()
    chosen: list[PromptTemplate] = []
    for name in names:
        found = available.get(name) or available.get(_PREFIX + name)
        if found is None:
            where = str(prompt_file) if prompt_file else "the built-in prompts"
            raise UserError(f"prompt {name!r} is not in {where} (it has {sorted(available)})")
        # Results are labelled with the id the user asked for (IB, not Prompt-IB).
        chosen.append(PromptTemplate(name, found.texts, found.source))
    if len({p.id for p in chosen}) != len(chosen):
        raise UserError(f"prompt ids repeat in {list(names)}")
    return chosen
