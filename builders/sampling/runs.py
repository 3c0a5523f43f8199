"""Chapter runs: contiguous chapter ranges of one book, the unit every sample is cut from.

Token counts here are *sums of per-chapter counts* under the primary tokenizer. The text a
sample finally carries joins its chapters (e.g. with "\\n\\n"), and a tokenizer may merge or
split tokens at each joint, so the exact count of the joined text can differ from the sum by
a few tokens per joint. Windowing works on the sums (cheap, no re-tokenising); the build step
recounts the joined text, stores that count, and re-checks the interval (a run whose exact
count falls outside [lower, upper] is dropped there, with a reason).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from typing_extensions import TypedDict


class RunJson(TypedDict):
    """A chapter run as the build report lists it."""

    id: str
    book_id: str
    first_chapter: int
    last_chapter: int
    tokens: int
    parent_id: str | None
    parent_subset: str | None


class DroppedRunJson(RunJson):
    """A run the build dropped or refused, with the reason."""

    reason: str


def run_id(book_id: str, first: int, last: int) -> str:
    """Stable id of a chapter run, e.g. ``hongloumeng:0012-0015`` (0-based, inclusive)."""
    return f"{book_id}:{first:04d}-{last:04d}"


@dataclass(frozen=True)
class BookLengths:
    """One book's chapter token lengths (primary tokenizer), in reading order.

    ``breaks``: chapter positions no window may reach across, i.e. a window holding chapter
    ``b`` never holds chapter ``b - 1`` (gaps in the printed numbering, see number_gaps).
    """

    book_id: str
    chapter_tokens: Sequence[int]
    breaks: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.book_id:
            raise ValueError("BookLengths: book_id must not be empty")
        for index, value in enumerate(self.chapter_tokens):
            # bool is an int subclass; a True here is a bug upstream, not a length.
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(
                    f"book {self.book_id!r}: chapter {index}: token count must be a "
                    f"non-negative integer, got {value!r}"
                )


@dataclass(frozen=True)
class ChapterRun:
    """Chapters ``first..last`` (0-based, inclusive) of one book.

    ``tokens`` is the sum of the chapters' token counts (see the module note on joining).
    In nested sampling, ``parent_id``/``parent_subset`` name the innermost run of a longer
    subset that contains this one (None when it lies outside every longer run).
    """

    book_id: str
    first: int
    last: int
    tokens: int
    parent_id: str | None = None
    parent_subset: str | None = None

    @property
    def id(self) -> str:
        return run_id(self.book_id, self.first, self.last)

    @property
    def chapters(self) -> int:
        return self.last - self.first + 1

    def to_dict(self) -> RunJson:
        return {
            "id": self.id,
            "book_id": self.book_id,
            "first_chapter": self.first,
            "last_chapter": self.last,
            "tokens": self.tokens,
            "parent_id": self.parent_id,
            "parent_subset": self.parent_subset,
        }

    def dropped(self, reason: str) -> DroppedRunJson:
        """The report entry of this run, left out for `reason`."""
        return {**self.to_dict(), "reason": reason}
