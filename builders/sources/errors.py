"""Errors and failure records shared by every source reader.

A reader never lets one bad file or page stop a build: it yields a
`SourceFailure` (what, why, and a short stable reason key for the stage report)
and goes on. `SourceError` and `FetchError` are the exceptions readers raise
internally and turn into failures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# Short, stable keys under which the stage report counts dropped inputs.
ReasonKey = Literal[
    "missing-path",
    "symlink-loop",
    "broken-symlink",
    "no-files",
    "unreadable-folder",
    "unsupported-extension",
    "unsupported-content-type",
    "unreadable-file",
    "empty-file",
    "binary-file",
    "bad-epub",
    "fetch-failed",
    "robots-disallowed",
    "not-found",
    "too-large",
    "hf-load-failed",
    "hf-missing-column",
    "empty-text",
    "not-text",
]


class SourceError(Exception):
    """Raw bytes that cannot become text; the message names the file and says why."""

    def __init__(self, name: str, reason: str, key: ReasonKey = "unreadable-file") -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason
        self.key: ReasonKey = key


class FetchError(Exception):
    """A URL could not be fetched; `reason` says why in words a builder can act on."""

    def __init__(self, url: str, reason: str, key: ReasonKey = "fetch-failed") -> None:
        super().__init__(f"{url}: {reason}")
        self.url = url
        self.reason = reason
        self.key: ReasonKey = key


@dataclass
class SourceFailure:
    """One input that produced no document: `source` names it, `reason` explains it."""

    source: str
    reason: str
    key: ReasonKey = "unreadable-file"

    @classmethod
    def from_error(cls, error: SourceError | FetchError) -> SourceFailure:
        source = error.name if isinstance(error, SourceError) else error.url
        return cls(source=source, reason=error.reason, key=error.key)
