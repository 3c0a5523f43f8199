"""Auditable cleaning: named, counted rules that strip site noise, PG boilerplate and
normalise whitespace and punctuation before chapter detection.

Public API: `clean_text`, `CleaningResult`, `count_damage`, `DamageCounts`,
`select_rulesets`, `plan_rules`, `RULESETS`, `RULES_BY_NAME`, and the rule kinds `Rule`,
`BlockRule`, `LineRule` with `RuleOutcome`.
"""

from lengthwise.builders.cleaning.cleaner import CleaningResult, clean_text, plan_rules
from lengthwise.builders.cleaning.damage import DamageCounts, count_damage
from lengthwise.builders.cleaning.line_rules import LineRule
from lengthwise.builders.cleaning.rules import BlockRule, Rule, RuleOutcome, TextRule
from lengthwise.builders.cleaning.rulesets import (
    KNOWN_RULESETS,
    RULES_BY_NAME,
    RULESETS,
    select_rulesets,
)

__all__ = [
    "KNOWN_RULESETS",
    "RULESETS",
    "RULES_BY_NAME",
    "BlockRule",
    "CleaningResult",
    "DamageCounts",
    "LineRule",
    "Rule",
    "RuleOutcome",
    "TextRule",
    "clean_text",
    "count_damage",
    "plan_rules",
    "select_rulesets",
]
