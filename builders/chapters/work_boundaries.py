"""Where the first of two works printed in one file ends.

A chapter numbering that starts again at one with no part heading is a second work
(`sequence.split_at_restarts`). Between the first work's last paragraph and the second
work's first heading stand the second's front matter: its title page, its contents list,
often a list of illustrations and a preface. Left in place, all of it would close the
first work's last chapter, and samples ending there would carry it.

The cut is made from what the file itself shows, not from a list of words:
- with the second work's contents list in between (headings that `toc_lines` dropped
  as entries of a contents list), at the list's first entry;
- without one, at the second work's first heading;
and from there back over the title-page lines just before it: short lines that do not
end a sentence (a title, `By …`, `CONTENTS`, `THE END`, `目录`), blank lines between
them. The first line that ends a sentence is the first work's, and the cut stays after it.

What is cut off leaves the chapters and is accounted as an outside span with a note
(`BETWEEN_WORKS_NOTE`), so a person sees it in the book's report.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

BETWEEN_WORKS_NOTE = "front matter of the next work in the file (its numbering starts again)"
# At most this many title-page lines are walked back over: a title page is short.
MAX_TITLE_LINES = 12
MAX_TITLE_LINE_CHARS = 80
# What ends a sentence (and so a line of the first work's prose), closing quotes included.
_SENTENCE_END = frozenset(".!?;:。！？；：…\"'”’」』")


def end_of_work(text: str, body_start: int, next_start: int, toc_starts: Sequence[int]) -> int:
    """Where the chapter whose body starts at `body_start` ends, when the heading at
    `next_start` starts the numbering again: at most `next_start` (no cut), at least
    `body_start`. `toc_starts`: sorted starts of the headings dropped as contents lines."""
    first_toc = bisect.bisect_left(toc_starts, body_start)
    anchor = next_start
    if first_toc < len(toc_starts) and toc_starts[first_toc] < next_start:
        anchor = toc_starts[first_toc]
    cut = anchor
    title_lines = 0
    line_end = anchor
    while line_end > body_start and title_lines < MAX_TITLE_LINES:
        line_start = text.rfind("\n", body_start, line_end - 1) + 1
        if line_start <= body_start:
            break  # the body's first line is the work's own
        line = text[line_start:line_end].strip()
        if line:
            if not _title_page_line(line):
                break
            cut, title_lines = line_start, title_lines + 1
        line_end = line_start
    return cut


def _title_page_line(line: str) -> bool:
    """A short line that does not end a sentence, or one in capitals (`THE END.`)."""
    if len(line) > MAX_TITLE_LINE_CHARS:
        return False
    return line[-1] not in _SENTENCE_END or line.isupper()
