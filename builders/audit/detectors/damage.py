"""Damaged characters: private-use code points, U+FFFD, mojibake runs and placeholders.

The definitions are cleaning's (`builders/cleaning/damage.py`: the build report's damage
counts per book come from the same code), so the audit and the book report never disagree:
a mojibake run (text decoded with the wrong codec: dense rare symbols, kana, full-width
digits and lost-byte `?` among ideographs) is one finding; a `?` standing for a lost
character (after an ideograph, no question word in its clause) and `□`/`■`/`〓` are
placeholders.
"""

from __future__ import annotations

from collections.abc import Iterator

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext
from lengthwise.builders.cleaning.damage import damage_spans as cleaning_damage_spans

_SHOWN_RUN_CHARS = 24


def find_damage(context: AuditContext) -> Iterator[Finding]:
    for start, end, shown in damage_spans(context.text):
        yield Finding("damage", snippet(context.text, start, end, shown=shown))


def damage_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, what to show) for every damaged stretch."""
    return [(start, end, _shown(text[start:end])) for start, end, _ in cleaning_damage_spans(text)]


def _shown(found: str) -> str:
    """Private-use characters print as nothing (or a tofu box): name their code point."""
    shown = "".join(_visible(char) for char in found[:_SHOWN_RUN_CHARS])
    return shown + ("…" if len(found) > _SHOWN_RUN_CHARS else "")


def _visible(char: str) -> str:
    code = ord(char)
    private = 0xE000 <= code <= 0xF8FF or code >= 0xF0000
    return f"U+{code:04X}" if private or char == "\ufffd" else char
