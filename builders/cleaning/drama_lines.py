"""Lines that belong to a play's structure: speaker labels and stage directions.

A play repeats its speakers' names hundreds of times (`ALGERNON.`, `- Mascarille -`,
`1 Citizen.`) and its directions dozens (`[Exit.]`, `(Aside.)`): recurring, short, not
prose-shaped, exactly what learned boilerplate looks for. They are the text, never
furniture (a speech merged into the previous speaker's when its label went), so
`learned` never takes them:

* a stage direction: a Latin-script line wholly inside `[…]` or `(…)` whose inside
  ends a sentence (`[Exit.]`, `[Enter Romeo.]`, `(Aside!)`). A site's boxed furniture
  ends no sentence (`[Page 12]`, `〖当前第1/2页〗`).
* a speaker label: a name-shaped line (up to four capitalised words or a number and
  words, `Lady Bracknell.`, `Du Croisy`, `1 Citizen.`, in a frame of `-`, `_`, `*` or
  none), in a book with a cast: three or more such lines recurring and trading turns,
  three different ones in a good share of any run of eight labels (a dialogue). A
  running head recurs too, but alone or beside one other (the book's title on the
  left-hand page, the chapter's on the right).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from lengthwise.builders.cleaning.line_signatures import BookLines
from lengthwise.builders.cleaning.structure_lines import is_heading_line

_DIRECTION = re.compile(r"[\[(][^\[\]()]*[A-Za-z][^\[\]()]*[.!?][\])]")
# A name: capitalised words (particles such as `de`, `of` inside), or a number then words.
_NAME_WORD = r"(?:[A-Z][A-Za-z'’À-ÿ-]*\.?|[A-Z][A-Za-z'’À-ÿ-]*|(?:de|du|la|le|of|the|von|van|y)\b)"
_NAME = re.compile(
    rf"[-_*\s]*(?:[0-9]{{1,2}}\s+)?[A-Z][A-Za-z'’À-ÿ-]*\.?(?:\s+{_NAME_WORD}){{0,3}}[.:]?[-_*\s]*"
)
_MAX_NAME_CHARS = 32
_MIN_CAST = 3  # distinct recurring labels
_WINDOW = 8  # consecutive label occurrences looked at together
_MIN_DIALOGUE_SHARE = 0.2  # of windows holding three labels or more
_MAX_ADJACENT_SHARE = 0.2  # of labels right after another label


def is_stage_direction(line: str) -> bool:
    """A line wholly in brackets or parentheses whose inside ends a sentence."""
    return _DIRECTION.fullmatch(line.strip()) is not None


def is_name_line(line: str) -> bool:
    """A line shaped like a speaker's name (see the module docstring)."""
    stripped = line.strip()
    return (
        2 <= len(stripped) <= _MAX_NAME_CHARS
        and sum(c.isalpha() for c in stripped) >= 2
        and _NAME.fullmatch(stripped) is not None
    )


def is_speaker_label(line: str) -> bool:
    """A name-shaped line that is no heading (`1 Citizen.`, `ALGERNON.`, `- Du Croisy -`):
    never a page header printing its chapter's heading again, whatever chapter
    detection made of it."""
    return is_name_line(line) and not is_heading_line(line)


def play_lines(book: BookLines, sigs: Collection[str]) -> set[str]:
    """The signatures among `sigs` that are stage directions, or speaker labels of a
    book with a cast (see the module docstring): never learned as boilerplate."""
    directions = {sig for sig in sigs if is_stage_direction(sig)}
    names = {sig for sig in sigs if sig not in directions and is_name_line(sig)}
    if len(names) < _MIN_CAST or not _trade_turns(book, names):
        return directions
    return directions | names


def _trade_turns(book: BookLines, names: set[str]) -> bool:
    """Whether the labels alternate as speakers do: three or more different ones in
    `_MIN_DIALOGUE_SHARE` of the runs of `_WINDOW` consecutive labels, each label
    mostly followed by a speech rather than by another label (a site's navigation lines,
    `Previous` / `Contents` / `Next`, come as a block)."""
    folded = book.folded
    order: list[str] = []
    next_is_label = 0
    previous_was_label = False
    for line in book.stripped:
        if not line:
            continue
        is_label = folded.get(line, line) in names
        if is_label:
            order.append(folded.get(line, line))
        next_is_label += is_label and previous_was_label
        previous_was_label = is_label
    if len(order) < _WINDOW or next_is_label > _MAX_ADJACENT_SHARE * len(order):
        return False
    windows = len(order) - _WINDOW + 1
    dialogue = sum(1 for i in range(windows) if len(set(order[i : i + _WINDOW])) >= _MIN_CAST)
    return dialogue >= _MIN_DIALOGUE_SHARE * windows
