"""The spec's [screening] section, read defensively until the spec model defines it.

Expected keys (defaults in brackets): `exclude_flagged` [false]: leave books the probe
flagged out of sampling; `chapters_per_book` [3]: chapters the probe summarises per book.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lengthwise.spec import Spec

DEFAULT_CHAPTERS_PER_BOOK = 3


@dataclass(frozen=True)
class ScreeningSettings:
    exclude_flagged: bool = False
    chapters_per_book: int = DEFAULT_CHAPTERS_PER_BOOK


def screening_settings(spec: Spec) -> ScreeningSettings:
    section: Any = getattr(spec, "screening", None)
    if section is None:
        return ScreeningSettings()
    return ScreeningSettings(
        exclude_flagged=bool(getattr(section, "exclude_flagged", False)),
        chapters_per_book=int(getattr(section, "chapters_per_book", DEFAULT_CHAPTERS_PER_BOOK)),
    )
