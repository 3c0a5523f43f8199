"""The removal ledger: every character the cleaner removes or rewrites, by rule.

Always kept (cheap): characters removed and added per rule
(`CleaningResult.chars_removed` / `chars_added`), so that for any cleaning

    len(raw) - len(cleaned) == sum(chars_removed.values()) - sum(chars_added.values())

Kept on request (`clean_text(..., trace=True)`; off in builds, for memory): the ledger
itself, one `Removal` per removed or replaced span, in application order. `replay(raw,
ledger)` rebuilds the cleaned text from the raw one, which is how tests prove that the
ledger accounts for every change.

Rules report their changes as `Edit`s, ``(start, end, replacement)`` in the text they
were given, sorted and non-overlapping (`RuleOutcome.edits`). A rule kind that does not
(edits None) is still accounted for: its net length change is booked to it, and in
trace mode the changed region is found by comparing the texts before and after.

Other cleaning modules (block rules, unwrapping, damage counting) plug in by returning
`RuleOutcome(text, count, examples, edits=...)` from their `apply`; nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Edit = tuple[int, int, str]  # (start, end, replacement) in the text a rule was given


@dataclass(frozen=True)
class Removal:
    """One removed (`replacement` "") or replaced span.

    `step` numbers the rule applications in order; `start` is the span's offset in the
    text as it was just before that step.
    """

    rule: str
    step: int
    start: int
    text: str
    replacement: str = ""


def edit_totals(edits: Iterable[Edit]) -> tuple[int, int]:
    """(characters removed, characters added) by `edits`."""
    removed = added = 0
    for start, end, replacement in edits:
        removed += end - start
        added += len(replacement)
    return removed, added


def net_totals(before: str, after: str) -> tuple[int, int]:
    """(removed, added) when only the two texts are known: the net change."""
    net = len(before) - len(after)
    return (net, 0) if net >= 0 else (0, -net)


def diff_edit(before: str, after: str) -> list[Edit]:
    """One edit covering the changed region (common prefix and suffix kept); O(n)."""
    if before == after:
        return []
    low, high = 0, min(len(before), len(after))
    while low < high:  # binary search on the common prefix length, compared in C
        middle = (low + high + 1) // 2
        if before[:middle] == after[:middle]:
            low = middle
        else:
            high = middle - 1
    prefix = low
    low, high = 0, min(len(before), len(after)) - prefix
    while low < high:
        middle = (low + high + 1) // 2
        if before[len(before) - middle :] == after[len(after) - middle :]:
            low = middle
        else:
            high = middle - 1
    suffix = low
    return [(prefix, len(before) - suffix, after[prefix : len(after) - suffix])]


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """`text` with sorted, non-overlapping `edits` applied."""
    # Deleting only a head and/or a tail is one slice: no piece list, no second copy
    # of a long text (a fresh multi-megabyte string costs page faults, not just bytes).
    keep_start, keep_end, inner = 0, len(text), list(edits)
    if inner and inner[0][0] == 0 and not inner[0][2]:
        keep_start = inner.pop(0)[1]
    if inner and inner[-1][1] == len(text) and not inner[-1][2]:
        keep_end = inner.pop()[0]
    if not inner:
        return text[keep_start:keep_end]
    pieces: list[str] = []
    last = 0
    for start, end, replacement in edits:
        pieces.append(text[last:start])
        pieces.append(replacement)
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def removals(rule: str, step: int, text: str, edits: Iterable[Edit]) -> list[Removal]:
    """Ledger entries for `edits` made by `rule` at `step` on `text`."""
    return [Removal(rule, step, s, text[s:e], r) for s, e, r in edits]


def replay(raw: str, ledger: Sequence[Removal]) -> str:
    """Apply the ledger to the raw text, step by step; equals the cleaned text.

    Raises ValueError when an entry's text is not what the raw text holds at its place
    (the ledger does not describe this text).
    """
    text = raw
    index = 0
    while index < len(ledger):
        step = ledger[index].step
        group: list[Removal] = []
        while index < len(ledger) and ledger[index].step == step:
            group.append(ledger[index])
            index += 1
        group.sort(key=lambda removal: removal.start)
        for removal in group:
            found = text[removal.start : removal.start + len(removal.text)]
            if found != removal.text:
                raise ValueError(
                    f"ledger step {step} ({removal.rule}) expected {removal.text!r} "
                    f"at {removal.start}, found {found!r}"
                )
        text = apply_edits(text, [(r.start, r.start + len(r.text), r.replacement) for r in group])
    return text
