"""Damaged characters: private-use code points, U+FFFD, and placeholders inside Chinese.

A `?` between two ideographs stands for a character a converter could not encode (a
real question mark in Chinese is full-width and ends a clause); `□`/`■`/`〓` next to an
ideograph are the e-text conventions for a missing glyph.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext

_HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
DAMAGE = re.compile(
    r"[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd\ufffd]"
    rf"|(?<=[{_HAN}])\?+(?=[{_HAN}])"
    rf"|(?<=[{_HAN}])[□■〓]+|[□■〓]+(?=[{_HAN}])"
)


def find_damage(context: AuditContext) -> Iterator[Finding]:
    for start, end, shown in damage_spans(context.text):
        yield Finding("damage", snippet(context.text, start, end, shown=shown))


def damage_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, what to show) for every damaged stretch."""
    return [
        (m.start(), m.end(), "".join(_visible(ch) for ch in m.group()))
        for m in DAMAGE.finditer(text)
    ]


def _visible(char: str) -> str:
    """Private-use characters print as nothing (or a tofu box): name their code point."""
    return char if char in "?□■〓" else f"U+{ord(char):04X}"
