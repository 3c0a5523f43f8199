"""`clean_text`: run the chosen rule sets over one book and account for every change.

Every change to the text is made by a named rule and counted under that name in
`CleaningResult.removed` (whitespace normalisation included), with up to three
examples each; nothing else touches the text. User rules from the spec
(`cleaning.extra_rules`) are counted as `user/<name>`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lengthwise.builders.cleaning.en_rules import FOOTNOTE_RULES
from lengthwise.builders.cleaning.rules import MAX_EXAMPLES, Rule, TextRule
from lengthwise.builders.cleaning.rulesets import (
    AUTO,
    RERUN_AFTER,
    RULES_BY_NAME,
    ordered_rules,
    resolve_rulesets,
)
from lengthwise.builders.cleaning.unwrap import UNWRAP_PARAGRAPHS
from lengthwise.builders.language import detect_language
from lengthwise.spec import CleaningConfig, ExtraRule

USER_PREFIX = "user/"


@dataclass
class CleaningResult:
    """The cleaned text and what was changed to get it.

    `removed` maps rule name -> number of changes, for rules that fired only;
    `examples` holds up to three ``left⟦removed⟧right`` / ``left⟦old→new⟧right`` snippets
    per rule; `rulesets` are the rule sets that ran (after expanding "auto").
    """

    text: str
    removed: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    rulesets: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Everything but the text, for stage reports."""
        return {"rulesets": self.rulesets, "removed": self.removed, "examples": self.examples}


def compile_user_rules(extra_rules: list[ExtraRule]) -> list[Rule]:
    """Compile `cleaning.extra_rules`; a ValueError names the rule and the regex problem."""
    compiled: list[Rule] = []
    seen: set[str] = set()
    for index, extra in enumerate(extra_rules):
        where = f"cleaning.extra_rules.{index} ({extra.name!r})"
        if not extra.name.strip():
            raise ValueError(f"cleaning.extra_rules.{index}: name must not be empty")
        if extra.name in seen:
            raise ValueError(f"{where}: duplicate rule name")
        seen.add(extra.name)
        try:
            pattern = re.compile(extra.pattern, re.MULTILINE if extra.multiline else 0)
        except re.error as error:
            raise ValueError(f"{where}: invalid regex {extra.pattern!r}: {error}") from None
        if pattern.fullmatch("") is not None:
            raise ValueError(
                f"{where}: regex {extra.pattern!r} matches the empty string; "
                "a cleaning rule must match at least one character"
            )
        try:
            pattern.sub(extra.replace, "")  # parses the template: \\9, \\g<x> errors
        except (re.error, IndexError) as error:
            raise ValueError(f"{where}: invalid replacement {extra.replace!r}: {error}") from None
        compiled.append(
            Rule(
                name=f"{USER_PREFIX}{extra.name}",
                description=f"User rule from the spec: {extra.pattern!r} -> {extra.replace!r}",
                pattern=pattern,
                # Through a function so that a match left unchanged is not counted.
                replacement=_expander(extra.replace),
            )
        )
    return compiled


def _expander(template: str) -> Callable[[re.Match[str]], str]:
    def expand(match: re.Match[str]) -> str:
        return match.expand(template)

    return expand


def _check_disabled(disabled: list[str], user_rules: list[Rule]) -> set[str]:
    known = set(RULES_BY_NAME) | {rule.name for rule in user_rules}
    for name in disabled:
        if name not in known:
            raise ValueError(
                f"cleaning.disable_rules: unknown rule {name!r}; known: {', '.join(sorted(known))}"
            )
    return set(disabled)


def _resolve_language(language: str, text: str) -> str:
    if language.strip().lower() in ("", AUTO):
        return detect_language(text)
    return language


def plan_rules(
    text: str, language: str, config: CleaningConfig, source_kind: str = "files"
) -> tuple[list[str], list[TextRule]]:
    """The rule sets and the ordered, enabled rules `clean_text` would run on `text`."""
    user_rules = compile_user_rules(config.extra_rules)
    disabled = _check_disabled(config.disable_rules, user_rules)
    if not config.fullwidth_punctuation_zh:
        disabled.add("zh/ascii-punctuation")
    if config.footnotes == "keep":
        disabled.update(FOOTNOTE_RULES)
    if not config.unwrap_paragraphs:
        disabled.add(UNWRAP_PARAGRAPHS.name)
    rulesets = resolve_rulesets(
        config.rulesets, _resolve_language(language, text), source_kind, text
    )
    rules = [r for r in ordered_rules(rulesets, user_rules) if r.name not in disabled]
    return rulesets, rules


def clean_text(
    text: str, language: str, config: CleaningConfig, source_kind: str = "files"
) -> CleaningResult:
    """Clean one book's text (LF line ends, before chapter detection).

    `language` is a code ("zh", "en", ...; "auto" detects it); `source_kind` is
    "files", "urls", "gutenberg" or "hf" and only matters for `rulesets = ["auto"]`.
    Raises ValueError for an unknown rule set or rule name and for a bad user regex.
    """
    rulesets, rules = plan_rules(text, language, config, source_kind)
    planned = {rule.name: rule for rule in rules}
    result = CleaningResult(text=text, rulesets=rulesets)
    for rule in rules:
        if _run(rule, result):
            for name in RERUN_AFTER.get(rule.name, ()):
                if name in planned:
                    _run(planned[name], result)
    return result


def _run(rule: TextRule, result: CleaningResult) -> bool:
    """Apply one rule to `result` in place, adding up its count and examples."""
    outcome = rule.apply(result.text)
    if not outcome.count:
        return False
    result.text = outcome.text
    result.removed[rule.name] = result.removed.get(rule.name, 0) + outcome.count
    examples = result.examples.setdefault(rule.name, [])
    examples.extend(outcome.examples[: MAX_EXAMPLES - len(examples)])
    return True
