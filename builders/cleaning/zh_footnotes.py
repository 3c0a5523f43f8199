"""`zh/footnotes`: an annotated edition's notes and the markers that refer to them.

Chinese editions converted from annotated print or ebooks end chapters with a notes
section (`注释：`, `【注释】`, `注：`, `校注` on a line of its own, then entries opening
with a marker: `〔1〕`, `［1］`, `[1]`, `【1】`, `①`) and mark the annotated words in the
text with the same markers glued to them (`司马〔1〕`, `官名①，`). Both go, as a pair:
the section from its heading to the next chapter heading (or `MAX_SECTION_CHARS`), and
every marker glued to an ideograph or punctuation elsewhere, only in a book that has
such a section (a lone `[1]` in a story without notes is left). `cleaning.footnotes =
"keep"` keeps both. A notes section without a heading is not recognised.
"""

from __future__ import annotations

import re
import unicodedata

from lengthwise.builders.cleaning.blocks import BlockCue, find_blocks
from lengthwise.builders.cleaning.rules import HSPACE, BlockRule, Span

MAX_SECTION_CHARS = 20_000
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
_MARK = rf"(?:〔\d{{1,3}}〕|［\d{{1,3}}］|\[\d{{1,3}}\]|【\d{{1,3}}】|[{_CIRCLED}])"
_HEADING = r"(?:【注释?】|〔注释?〕|［注释?］|\[注释?\]|注释|注解|校注|注)"
_NOTE_SECTION = BlockCue(
    opening=re.compile(rf"\n{HSPACE}*{_HEADING}[：:]?{HSPACE}*\n(?:{HSPACE}*\n)*{HSPACE}*{_MARK}"),
    end="to-end",  # every end stops at the next heading: the chapter's notes only
    max_chars=MAX_SECTION_CHARS,
    anchors=("注",),
)
# The marker first (its first characters are a small set the engine scans for), what
# stands before it checked apart.
_MARKER = re.compile(_MARK)
_ENTRY = re.compile(rf"^{HSPACE}*(?P<mark>{_MARK})", re.MULTILINE)  # a note's own marker


def _glued(text: str, start: int) -> bool:
    """Right after an ideograph or a punctuation mark (any: `．`, `"` in web texts)."""
    if start == 0:
        return False
    before = text[start - 1]
    return "\u4e00" <= before <= "\u9fff" or unicodedata.category(before).startswith("P")


def zh_footnotes(text: str) -> list[Span]:
    """The notes sections and, when there are any, the markers glued in the text."""
    sections = [(block.start, block.end) for block in find_blocks(text, _NOTE_SECTION)]
    if not sections:
        return []
    # Only markers the notes use (`〔1〕`, `〔2〕`): a stray `④` in damaged text stays.
    entries = {
        match.group("mark")
        for start, end in sections
        for match in _ENTRY.finditer(text, start, end)
    }
    markers = []
    position = 0
    for match in _MARKER.finditer(text):
        while position < len(sections) and sections[position][1] <= match.start():
            position += 1
        inside = position < len(sections) and sections[position][0] <= match.start()
        if not inside and match.group() in entries and _glued(text, match.start()):
            markers.append(match.span())
    return sorted([*sections, *markers])


ZH_FOOTNOTES = BlockRule(
    name="zh/footnotes",
    description="An annotated edition's notes: a 注释/注/校注 section whose entries open "
    "with 〔1〕, [1], 【1】 or ①, to the next chapter heading, and the same markers glued "
    "to the text, removed together (only in a book with such a section).",
    find_blocks=zh_footnotes,
    languages=("zh",),
    triggers=("注",),
)
