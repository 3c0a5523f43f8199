"""A row of the dataset card's corpus table, and of the manifest's corpus list."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CorpusBook:
    """A row of the card's corpus table (public fields only)."""

    book_id: str
    title: str
    language: str
    chapters: int
    raw_sha256: str
    source: str  # without local directories (schema.public_source)
    license_note: str | None
    samples: int  # released samples cut from it
