"""`clean_text`: run the chosen rule sets over one book and account for every change.

Every change to the text is made by a named rule and counted under that name in
`CleaningResult.removed` (whitespace normalisation included), with up to three
examples each; nothing else touches the text. User rules from the spec
(`cleaning.extra_rules`) are counted as `user/<name>`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from lengthwise.builders.cleaning.glued_fragments import GLUED_FRAGMENT
from lengthwise.builders.cleaning.learned import LEARNED_RULES, LearnedLine, learn_and_find
from lengthwise.builders.cleaning.ledger import (
    Edit,
    Removal,
    apply_edits,
    diff_edit,
    edit_totals,
    net_totals,
    removals,
)
from lengthwise.builders.cleaning.residue import RESIDUE_RULES, residue_edits
from lengthwise.builders.cleaning.rules import (
    MAX_EXAMPLES,
    Rule,
    RuleOutcome,
    TextRule,
    format_example,
)
from lengthwise.builders.cleaning.rulesets import (
    AUTO,
    FOLDED_RULES,
    FOOTNOTE_RULES,
    LEARNED_STEP_BEFORE,
    RERUN_AFTER,
    RULES_BY_NAME,
    ordered_rules,
    resolve_rulesets,
)
from lengthwise.builders.cleaning.script_fold import FoldedView, is_traditional
from lengthwise.builders.cleaning.unwrap import UNWRAP_PARAGRAPHS
from lengthwise.builders.cleaning.watermarks import DISGUISED_WATERMARK
from lengthwise.builders.language import detect_language
from lengthwise.errors import UserError
from lengthwise.spec import CleaningConfig, ExtraRule

USER_PREFIX = "user/"


@dataclass
class CleaningResult:
    """The cleaned text and what was changed to get it.

    `removed` maps rule name -> number of changes, for rules that fired only;
    `examples` holds up to three ``left⟦removed⟧right`` / ``left⟦old→new⟧right`` snippets
    per rule; `rulesets` are the rule sets that ran (after expanding "auto").
    `chars_removed` / `chars_added` map rule name -> characters it removed / inserted
    (always kept: ``len(raw) - len(text) == sum(chars_removed) - sum(chars_added)``);
    `ledger` lists every removed or replaced span (only with ``trace=True``; see
    `ledger.replay`); `learned` is the boilerplate learned from this book and corpus.
    """

    text: str
    removed: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    rulesets: list[str] = field(default_factory=list)
    chars_removed: dict[str, int] = field(default_factory=dict)
    chars_added: dict[str, int] = field(default_factory=dict)
    ledger: list[Removal] = field(default_factory=list)
    learned: list[LearnedLine] = field(default_factory=list)
    trace: bool = False
    steps: int = 0  # rule applications so far (numbers ledger steps)

    def to_dict(self) -> dict[str, Any]:
        """Everything but the text and the ledger, for stage reports."""
        return {
            "rulesets": self.rulesets,
            "removed": self.removed,
            "examples": self.examples,
            "chars_removed": self.chars_removed,
            "chars_added": self.chars_added,
            "learned": [line.to_json() for line in self.learned],
        }

    def record(self, name: str, before: str, outcome: RuleOutcome) -> None:
        """Book one rule's outcome on `before` (counts, examples, characters, ledger)."""
        self.text = outcome.text
        self.removed[name] = self.removed.get(name, 0) + outcome.count
        examples = self.examples.setdefault(name, [])
        examples.extend(outcome.examples[: MAX_EXAMPLES - len(examples)])
        if outcome.edits is not None:
            removed, added = edit_totals(outcome.edits)
        else:
            removed, added = outcome.totals or net_totals(before, outcome.text)
        self._add_chars(name, removed, added)
        self.learned += outcome.learned
        if self.trace:
            edits = outcome.edits if outcome.edits is not None else diff_edit(before, outcome.text)
            self.ledger += removals(name, self.steps, before, edits)
        self.steps += 1

    def record_named(self, named: list[tuple[str, Edit]]) -> None:
        """Apply edits made under several rule names at once, as one ledger step."""
        if not named:
            return
        before = self.text
        for name, (start, end, replacement) in named:
            self.removed[name] = self.removed.get(name, 0) + 1
            examples = self.examples.setdefault(name, [])
            if len(examples) < MAX_EXAMPLES:
                examples.append(format_example(before, start, end, replacement))
            self._add_chars(name, end - start, len(replacement))
            if self.trace:
                self.ledger += removals(name, self.steps, before, [(start, end, replacement)])
        self.text = apply_edits(before, [edit for _, edit in named])
        self.steps += 1

    def _add_chars(self, name: str, removed: int, added: int) -> None:
        self.chars_removed[name] = self.chars_removed.get(name, 0) + removed
        if added:
            self.chars_added[name] = self.chars_added.get(name, 0) + added


def compile_user_rules(extra_rules: list[ExtraRule]) -> list[Rule]:
    """Compile `cleaning.extra_rules`; a ValueError names the rule and the regex problem."""
    compiled: list[Rule] = []
    seen: set[str] = set()
    for index, extra in enumerate(extra_rules):
        where = f"cleaning.extra_rules.{index} ({extra.name!r})"
        if not extra.name.strip():
            raise UserError(f"cleaning.extra_rules.{index}: name must not be empty")
        if extra.name in seen:
            raise UserError(f"{where}: duplicate rule name")
        seen.add(extra.name)
        try:
            pattern = re.compile(extra.pattern, re.MULTILINE if extra.multiline else 0)
        except re.error as error:
            raise UserError(f"{where}: invalid regex {extra.pattern!r}: {error}") from None
        if pattern.fullmatch("") is not None:
            raise UserError(
                f"{where}: regex {extra.pattern!r} matches the empty string; "
                "a cleaning rule must match at least one character"
            )
        try:
            pattern.sub(extra.replace, "")  # parses the template: \\9, \\g<x> errors
        except (re.error, IndexError) as error:
            raise UserError(f"{where}: invalid replacement {extra.replace!r}: {error}") from None
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
    known |= {*LEARNED_RULES, *RESIDUE_RULES}
    for name in disabled:
        if name not in known:
            raise UserError(
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
    if not config.learned_boilerplate:
        disabled.update((GLUED_FRAGMENT.name, DISGUISED_WATERMARK.name))
    rulesets = resolve_rulesets(
        config.rulesets, _resolve_language(language, text), source_kind, text
    )
    rules = [r for r in ordered_rules(rulesets, user_rules) if r.name not in disabled]
    return rulesets, rules


def clean_text(
    text: str,
    language: str,
    config: CleaningConfig,
    source_kind: str = "files",
    *,
    trace: bool = False,
    corpus_lines: Collection[str] = (),
) -> CleaningResult:
    """Clean one book's text (LF line ends, before chapter detection).

    `language` is a code ("zh", "en", ...; "auto" detects it); `source_kind` is
    "files", "urls", "gutenberg" or "hf" and only matters for `rulesets = ["auto"]`.
    `trace` keeps the removal ledger (`CleaningResult.ledger`); `corpus_lines` are line
    signatures learned as boilerplate across the corpus (`corpus_boilerplate`).
    Raises ValueError for an unknown rule set or rule name and for a bad user regex.
    """
    language = _resolve_language(language, text)
    rulesets, rules = plan_rules(text, language, config, source_kind)
    disabled = set(config.disable_rules)
    planned = {rule.name: rule for rule in rules}
    result = CleaningResult(text=text, rulesets=rulesets, trace=trace)
    # Site rules are written in simplified characters; a traditional book is matched
    # through a folded view (script_fold.py).
    folded = FoldedView() if language.startswith("zh") and is_traditional(text) else None
    learned_at = next(
        (i for i, rule in enumerate(rules) if rule.name in LEARNED_STEP_BEFORE), len(rules)
    )
    for index, rule in enumerate([*rules, None]):
        if index == learned_at and config.learned_boilerplate:
            _learned_step(result, language, config, corpus_lines, disabled)
        if rule is None:
            break
        if _run(rule, result, disabled, folded):
            for name in RERUN_AFTER.get(rule.name, ()):
                if name in planned:
                    _run(planned[name], result, disabled, folded)
    return result


def _learned_step(
    result: CleaningResult,
    language: str,
    config: CleaningConfig,
    corpus_lines: Collection[str],
    disabled: set[str],
) -> None:
    step = learn_and_find(result.text, language, config, corpus_lines)
    result.record_named([(name, edit) for name, edit in step.edits if name not in disabled])
    # Rules that ran before this step may have learned lines of their own: keep them.
    result.learned += [line for line in step.learned if line.rule not in disabled]


def _run(
    rule: TextRule, result: CleaningResult, disabled: set[str], folded: FoldedView | None
) -> bool:
    """Apply one rule to `result` in place, then remove what its cuts left behind."""
    before = result.text
    if folded is not None and rule.name in FOLDED_RULES:
        outcome = folded.apply(rule, before)
    elif result.trace and isinstance(rule, Rule):
        outcome = rule.apply(before, trace=True)
    else:
        outcome = rule.apply(before)
    if not outcome.count:
        return False
    result.record(rule.name, before, outcome)
    if not rule.whitespace_only and outcome.edits:
        residue = residue_edits(result.text, _cut_points(before, outcome.edits))
        result.record_named([(name, edit) for name, edit in residue if name not in disabled])
    return True


def _cut_points(before: str, edits: Iterable[Edit]) -> list[tuple[int, str]]:
    """(offset in the new text, cut text) of each cut made inside a line."""
    cuts: list[tuple[int, str]] = []
    delta = 0
    for start, end, replacement in edits:
        cut = before[start:end]
        if len(replacement) < len(cut) and "\n" not in cut and cut.strip():
            cuts.append((start + delta + len(replacement), cut))
        delta += len(replacement) - (end - start)
    return cuts
