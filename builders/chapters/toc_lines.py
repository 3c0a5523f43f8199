"""Find the headings that are lines of an in-text table of contents.

A contents list repeats the chapter headings with (almost) no text between them;
the real chapters carry body text. A run of such empty headings is a ToC when it
holds at least three chapter headings, or two before the first chapter with a body.
The run's last entry often "owns" the text that follows the list (illustrations, a
preface: Tom Sawyer's `CHAPTER XXXV.` line), so the heading right after a run is
also a ToC line when the numbering restarts after it. Part headings at the end of
a run (`BOOK ONE` just before `CHAPTER I`) are real, not ToC lines.
"""

from __future__ import annotations

import re

from lengthwise.builders.chapters.heading_words import MAX_WRAPPED_TITLE_CHARS
from lengthwise.builders.chapters.model import Candidate
from lengthwise.builders.chapters.spans import stripped_length

TOC_ENTRY_MAX_BODY = 60  # stripped characters between two headings of a contents list
_BLANK_LINE = re.compile(r"\n[ \t\u3000\r]*\n")


def measure_bodies(text: str, candidates: list[Candidate]) -> None:
    """Set each candidate's `body_chars`: stripped text up to the next candidate, not
    counting the rest of a title wrapped onto the lines right below its heading."""
    for index, candidate in enumerate(candidates):
        stop = candidates[index + 1].start if index + 1 < len(candidates) else len(text)
        start = _after_title_tail(text, candidate, stop)
        candidate.body_chars = stripped_length(text, start, stop)


def _after_title_tail(text: str, candidate: Candidate, stop: int) -> int:
    """Where the heading's block ends when it is short enough to be one wrapped title.

    A contents entry too long for its line goes on below it (`CHAPTER IV. Mental
    Acrobatics--Attending` / `Sunday--School--The Superintendent`): those lines are the
    entry, not a chapter's body. Only lines up to the first blank line count, and only
    when heading and lines together are no longer than a title can be.
    """
    if candidate.end >= stop or text[candidate.end] != "\n":
        return candidate.end
    blank = _BLANK_LINE.search(text, candidate.end, stop)
    block_end = blank.start() if blank is not None else stop
    if block_end == candidate.end:
        return candidate.end
    title = len(candidate.heading) + stripped_length(text, candidate.end, block_end)
    return block_end if title <= MAX_WRAPPED_TITLE_CHARS else candidate.end


def find_toc_lines(candidates: list[Candidate]) -> set[int]:
    """Indexes (into `candidates`, in text order, bodies measured) of ToC lines."""
    is_entry = [c.level != "part" for c in candidates]
    first_with_body = next(
        (i for i, c in enumerate(candidates) if is_entry[i] and c.body_chars >= TOC_ENTRY_MAX_BODY),
        len(candidates),
    )
    toc: set[int] = set()
    index = 0
    while index < len(candidates):
        if candidates[index].body_chars >= TOC_ENTRY_MAX_BODY:
            index += 1
            continue
        run_end = index
        while run_end < len(candidates) and candidates[run_end].body_chars < TOC_ENTRY_MAX_BODY:
            run_end += 1
        last = run_end - 1
        while last >= index and not is_entry[last]:
            last -= 1  # a part heading ending the run heads the real chapters after it
        entries = [i for i in range(index, last + 1) if is_entry[i]]
        if len(entries) >= 3 or (len(entries) == 2 and last < first_with_body):
            toc.update(range(index, last + 1))
            tail = last + 1
            if (
                tail < len(candidates)
                and is_entry[tail]
                and _restarts_after(candidates, entries, tail)
            ):
                toc.add(tail)
        index = run_end
    return toc


def _restarts_after(candidates: list[Candidate], entries: list[int], tail: int) -> bool:
    """Whether the numbering starts again after `tail`: the list is over and the book begins."""
    first_number = next(
        (candidates[i].number for i in entries if candidates[i].number is not None), None
    )
    following = next(
        (c for c in candidates[tail + 1 :] if c.level != "part" and c.number is not None), None
    )
    if first_number is None or following is None or following.number is None:
        return False
    return following.number <= first_number
