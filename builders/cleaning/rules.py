"""Cleaning rules: each one names what it removes or rewrites and counts every change.

Three kinds share one interface (`TextRule`: `name`, `description`, `languages`,
`whitespace_only`, `apply(text) -> RuleOutcome`):

* `Rule`: one compiled regex and a replacement, applied over the whole text at once.
* `BlockRule`: a function that finds spans to delete, for removals a regex alone does
  not express well (Gutenberg header/footer cuts, author-notice pseudo-chapters,
  per-line trailing whitespace).
* `LineRule` (in `line_rules`): a regex run only on candidate lines found cheaply.

Speed: a book is megabytes, and a regex that does not start with a literal makes
Python's `re` test every position (about 13 ns per character here, 11 ms for a 2.5 MB
Chinese novel). So rules carry cheap preconditions: `triggers` (literal substrings, one
of which must occur for the rule to be able to match; see `contains_any`) and `gate` (a
regex starting with a literal, or a function). Rules anchored at line starts set
`line_start` and begin their pattern with a literal ``\n``; `apply` prepends a
sentinel newline so the first line is covered (`with_sentinel`: one copy per text,
shared by every rule that needs it; a fresh multi-megabyte copy costs new memory pages).

Trigger and anchor questions share one answer sheet per text (`occurs`, and
`first_index` for anchors whose places are wanted): rules run one after another on the
same string until one changes it, so each needle is searched at most once per text
state; a changed text is a new string object and starts a fresh sheet (the slot is
matched by identity, never by content). A search is cheap where it can be: an ASCII
needle in a Chinese book is looked up in the book's ASCII part (`ascii_index`), and a
needle with a character the text lacks is rejected by one-character searches, which
run at memchr speed. A regex that starts with a literal ``\n`` scans the text about as
fast as one needle search, so block cues with such an opening search with it directly
rather than through several anchors, and line rules that look at line starts share
one scan (`line_rules.LineStartGroup`).

Every change counts: a rule reports one change per match it altered, and a match it
leaves as it was is not counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from lengthwise.builders.cleaning.ledger import Edit, apply_edits

if TYPE_CHECKING:
    from lengthwise.builders.cleaning.learned import LearnedLine

MAX_EXAMPLES = 3
EXAMPLE_CONTEXT = 20  # characters of context kept on each side of a change
EXAMPLE_MAX_CHARS = 120
_EXAMPLE_CHANGE_CHARS = 64  # the changed part of an example is shortened beyond this

Replacement = str | Callable[["re.Match[str]"], str]
Span = tuple[int, int]


@dataclass(frozen=True)
class RuleOutcome:
    """The text after one rule, how many changes it made, and up to three examples.

    `edits` are the changes as ``(start, end, replacement)`` in the input text (sorted,
    non-overlapping), for the removal ledger (see `ledger`); `totals` is (characters
    removed, characters added) when a rule knows them without listing edits. With
    neither, the cleaner books the net length change to the rule.
    """

    text: str
    count: int
    examples: list[str] = field(default_factory=list)
    edits: tuple[Edit, ...] | None = None
    totals: tuple[int, int] | None = None
    learned: tuple[LearnedLine, ...] = ()  # what a learning rule learned (for reports)


def _visible(fragment: str) -> str:
    """One-line rendering of a fragment: newlines as ⏎, tabs as ⇥."""
    return fragment.replace("\n", "⏎").replace("\t", "⇥")


def _shorten(fragment: str, limit: int) -> str:
    if len(fragment) <= limit:
        return fragment
    head = limit * 3 // 5
    return fragment[:head] + "…" + fragment[-(limit - head - 1) :]


def format_example(text: str, start: int, end: int, replacement: str = "") -> str:
    """Render a change as ``left⟦removed⟧right`` or ``left⟦old→new⟧right`` (at most ~120 chars)."""
    left = text[max(0, start - EXAMPLE_CONTEXT) : start]
    right = text[end : end + EXAMPLE_CONTEXT]
    old = _shorten(text[start:end], _EXAMPLE_CHANGE_CHARS)
    change = f"{old}→{_shorten(replacement, 24)}" if replacement else old
    rendered = f"{_visible(left)}⟦{_visible(change)}⟧{_visible(right)}"
    return _shorten(rendered, EXAMPLE_MAX_CHARS)


AsciiIndex = tuple[str, frozenset[str]]


class _TextFacts:
    """What rules have asked about one text so far: its ASCII index and needle answers."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ascii: AsciiIndex | None = _build_ascii_index(text)
        self.occurs: dict[str, bool] = {}
        self.sentinel: str | None = None


# One slot, matched by identity: hashing a multi-megabyte string for a dict key would
# cost as much as the lookups it saves. Rules run one after another on the same string
# until one of them changes it (a new string object: the slot is then rebuilt, so an
# answer never outlives the text it was computed on).
_last_facts: list[_TextFacts] = []


def _facts(text: str) -> _TextFacts:
    if _last_facts and _last_facts[0].text is text:
        return _last_facts[0]
    facts = _TextFacts(text)
    _last_facts[:] = [facts]
    return facts


def _build_ascii_index(text: str) -> AsciiIndex | None:
    sample = text[:20_000]
    # Mostly ASCII text: direct lookups are as fast, skip the copy.
    if text.isascii() or len(sample.encode("ascii", "ignore")) * 2 > len(sample):
        return None
    part = text.encode("ascii", "ignore").decode("ascii")
    return part, frozenset(part)


def ascii_index(text: str) -> AsciiIndex | None:
    """The text's ASCII characters in order, and their set; None for mostly-ASCII text.

    In a Chinese book the ASCII part is a few percent of the text, so looking an ASCII
    needle up there is far cheaper than in the text (about 1 ms to build for 2.5 MB).
    """
    return _facts(text).ascii


def with_sentinel(text: str) -> str:
    """``"\n" + text``, made once per text for every line-start pattern that needs it.

    A fresh copy of a multi-megabyte text costs more than its bytes (new memory pages).
    """
    facts = _facts(text)
    if facts.sentinel is None:
        facts.sentinel = "\n" + text
    return facts.sentinel


def occurs(text: str, needle: str) -> bool:
    """``needle in text``, answered once per text (later rules asking again get it free)."""
    facts = _facts(text)
    known = facts.occurs.get(needle)
    if known is None:
        known = facts.occurs[needle] = _search(text, needle, facts.ascii)
    return known


def first_index(text: str, needle: str) -> int:
    """``text.find(needle)``, skipped when the needle is known or cheaply seen to be absent.

    The answer goes on the text's answer sheet, so `occurs` asks no more.
    """
    facts = _facts(text)
    if facts.occurs.get(needle) is False or not _may_occur(text, needle, facts.ascii):
        facts.occurs[needle] = False
        return -1
    position = text.find(needle)
    facts.occurs[needle] = position >= 0
    return position


def occurrences(text: str, needle: str) -> list[int]:
    """Every offset of `needle` in `text` (overlapping ones too), by `str.find`.

    Where a needle is rare (digits or symbols in a Chinese book), this is far cheaper
    than a pattern tried at every position.
    """
    positions = []
    position = text.find(needle)
    while position >= 0:
        positions.append(position)
        position = text.find(needle, position + 1)
    return positions


def _search(text: str, needle: str, index: AsciiIndex | None) -> bool:
    if index is not None and len(needle) == 1 and needle.isascii():
        return needle in index[1]  # exact: a single ASCII character found there is in the text
    return _may_occur(text, needle, index) and needle in text


def _may_occur(text: str, needle: str, index: AsciiIndex | None) -> bool:
    """False when cheap checks show `needle` is not in `text` (True: it may be)."""
    if index is not None and needle.isascii():
        # An ASCII needle missing from the ASCII part is missing from the text.
        if len(needle) == 1:
            return needle in index[1]
        if needle not in index[0]:
            return False
    # A one-character search runs at memchr speed, a longer needle several times
    # slower: a needle with a character the text lacks is rejected cheaply.
    return len(needle) == 1 or all(char in text for char in set(needle))


def contains_any(text: str, needles: tuple[str, ...]) -> bool:
    """True when one of `needles` occurs in `text` (see `occurs`)."""
    return any(occurs(text, needle) for needle in needles)


Gate = re.Pattern[str] | Callable[[str], bool]


def _may_match(triggers: tuple[str, ...], gate: Gate | None, text: str) -> bool:
    if triggers and not contains_any(text, triggers):
        return False
    if gate is None:
        return True
    return gate.search(text) is not None if isinstance(gate, re.Pattern) else gate(text)


@dataclass(frozen=True)
class Rule:
    """A regex substitution. Every match must change the text (it is counted as one change).

    `replacement` is a `re` template string (``\\1`` allowed) or a function of the match.
    `languages` lists the languages the rule is written for (empty: any); it is shown in
    rule listings, while rule sets decide where a rule runs.
    """

    name: str
    description: str
    pattern: re.Pattern[str]
    replacement: Replacement = ""
    languages: tuple[str, ...] = ()
    triggers: tuple[str, ...] = ()
    gate: Gate | None = None
    line_start: bool = False
    whitespace_only: bool = False

    def apply(self, text: str, trace: bool = False) -> RuleOutcome:
        """Apply the rule to `text`; unchanged text and a zero count when it does not fire.

        Edits are listed when `trace` is set or cheap to list (function replacements);
        a literal template reports only its totals, which `subn` gives for free.
        """
        if not _may_match(self.triggers, self.gate, text):
            return RuleOutcome(text, 0)
        work = with_sentinel(text) if self.line_start else text
        template = None if callable(self.replacement) else self.replacement
        if template is not None and not trace and "\\" not in template:
            return self._substitute_literal(text, work, template)
        function = self.replacement if callable(self.replacement) else _expander(template or "")
        new, count, examples, edits = self._substitute_with_function(work, function)
        if count == 0:
            return RuleOutcome(text, 0)
        return RuleOutcome(self._unsentinel(new), count, examples, edits=self._shift(edits))

    def _substitute_literal(self, text: str, work: str, template: str) -> RuleOutcome:
        examples: list[str] = []
        for match in self.pattern.finditer(work):
            examples.append(_example(work, match, template))
            if len(examples) == MAX_EXAMPLES:
                break
        if not examples:
            return RuleOutcome(text, 0)
        new, count = self.pattern.subn(template, work)
        added = count * len(template)
        totals = (len(work) - len(new) + added, added)
        return RuleOutcome(self._unsentinel(new), count, examples, totals=totals)

    def _unsentinel(self, new: str) -> str:
        if not self.line_start:
            return new
        # The sentinel is the first char, or the char after a removed first line.
        if new and new[0] != "\n":
            raise AssertionError(f"rule {self.name}: line pattern swallowed a line end")
        return new[1:]

    def _shift(self, edits: list[Edit]) -> tuple[Edit, ...]:
        """Edits in `work` coordinates -> in the text's (the sentinel newline dropped)."""
        if not self.line_start:
            return tuple(edits)
        shifted = []
        for start, end, replacement in edits:
            if start == 0:  # the match took the sentinel; its replacement starts with it
                shifted.append((0, end - 1, replacement[1:]))
            else:
                shifted.append((start - 1, end - 1, replacement))
        return tuple(shifted)

    def _substitute_with_function(
        self, work: str, function: Callable[[re.Match[str]], str]
    ) -> tuple[str, int, list[str], list[Edit]]:
        examples: list[str] = []
        edits: list[Edit] = []
        for match in self.pattern.finditer(work):
            result = function(match)
            if result != match.group():
                edits.append((match.start(), match.end(), result))
                if len(examples) < MAX_EXAMPLES:
                    examples.append(_example(work, match, result))
        if not edits:
            return work, 0, [], []
        return apply_edits(work, edits), len(edits), examples, edits


def _expander(template: str) -> Callable[[re.Match[str]], str]:
    def expand(match: re.Match[str]) -> str:
        return match.expand(template)

    return expand


def _example(work: str, match: re.Match[str], replacement: str) -> str:
    start, end = match.span()
    matched = match.group()
    if not replacement:
        # Line rules also take the blank lines above a line: show the line itself.
        content_start = start + len(matched) - len(matched.lstrip())
        start = content_start if content_start < end else start
    elif matched[:1] == "\n" == replacement[:1]:
        start, replacement = start + 1, replacement[1:]
    return format_example(work, start, end, replacement)


@dataclass(frozen=True)
class BlockRule:
    """A removal of whole spans found by a function (`find_blocks(text) -> spans`).

    Each span returned counts as one removal; overlapping spans are merged.
    """

    name: str
    description: str
    find_blocks: Callable[[str], Iterable[Span]]
    languages: tuple[str, ...] = ()
    triggers: tuple[str, ...] = ()
    gate: Gate | None = None
    whitespace_only: bool = False

    def apply(self, text: str) -> RuleOutcome:
        """Remove every block the finder reports; count one per block."""
        if not _may_match(self.triggers, self.gate, text):
            return RuleOutcome(text, 0)
        spans = _merge(span for span in self.find_blocks(text) if span[1] > span[0])
        if not spans:
            return RuleOutcome(text, 0)
        return edited_outcome(text, [(start, end, "") for start, end in spans])


def edited_outcome(
    text: str, edits: Sequence[Edit], learned: tuple[LearnedLine, ...] = ()
) -> RuleOutcome:
    """The outcome of sorted, non-overlapping `edits` on `text`: one change per edit,
    the first `MAX_EXAMPLES` shown."""
    if not edits:
        return RuleOutcome(text, 0)
    examples = [format_example(text, *edit) for edit in edits[:MAX_EXAMPLES]]
    return RuleOutcome(
        apply_edits(text, edits), len(edits), examples, edits=tuple(edits), learned=learned
    )


@dataclass(frozen=True)
class OutcomeRule:
    """A rule whose function does all the work and reports its own outcome.

    For rules that learn from the book before changing it (quote pairs, page marks,
    recurring notes, broken paragraphs): `change(text)` returns the `RuleOutcome` with
    its edits, examples and what was learned.
    """

    name: str
    description: str
    change: Callable[[str], RuleOutcome]
    languages: tuple[str, ...] = ()
    whitespace_only: bool = False

    def apply(self, text: str) -> RuleOutcome:
        """Run `change` on `text`."""
        return self.change(text)


def _merge(spans: Iterable[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


# Horizontal whitespace (no newline), for patterns.
HSPACE = r"[^\S\n]"


class TextRule(Protocol):
    """What the cleaner needs of any rule kind (Rule, BlockRule, LineRule)."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def languages(self) -> tuple[str, ...]: ...

    @property
    def whitespace_only(self) -> bool: ...

    def apply(self, text: str) -> RuleOutcome: ...
