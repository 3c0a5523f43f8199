"""Back matter: what follows the story at the end of a book, cut whole to the end.

One mechanism for every language: a *cue* in the last part of the text (the larger of
`TAIL_SHARE` of it and `MIN_TAIL_CHARS`) starts the back matter, which runs to the end of
the text. An end line (`THE END`, `FINIS`, `全书完`, `（全文完）`) is the story's own last
line and stays; what follows it goes. Any other cue is the first line of the back
matter. Nothing is cut when a chapter heading follows the cue: the story goes on (a
`番外` after `全书完`, a second part), and the rule would cut narrative.

* `en/back-matter`: after `THE END`/`FINIS`; from a printer's colophon (`Printed by …`,
  `Electrotyped …`), an `ADVERTISEMENTS` or errata/typos heading, an editor's `[End of …]`
  line, or the heading of an edition's own back matter alone on its line, as ebook
  producers other than Gutenberg add it: `Colophon`, `Uncopyright`, `Imprint`, `About
  the Author`, `About this digital edition`, `Also by …`, `Also available`, `Other
  books by …`.
* `zh-web/back-matter`: after an end line (`全书完`, `全文完`, `本书完`, `全剧终`, `（完）`,
  `全书终`, bracketed or not, with `。`/`！` after it), where download files put the site's
  closing notes (`本书由…整理上传，仅供交流…`, the author's other works), or from such a
  list heading (`作者其他作品`, `其他作品推荐`).
"""

from __future__ import annotations

import re

from lengthwise.builders.cleaning.blocks import Block, CuedBlockRule
from lengthwise.builders.cleaning.rules import HSPACE
from lengthwise.builders.cleaning.structure_lines import is_heading_line

TAIL_SHARE = 0.08
MIN_TAIL_CHARS = 30_000
_LINE_END = rf"{HSPACE}*(?=\n|\Z)"

_EN_CUE = re.compile(
    rf"\n{HSPACE}*(?:(?P<end>THE END|The End|FINIS|Finis)\.?{_LINE_END}"
    rf"|[^\n]{{0,80}}\b(?:PRINTED BY|Printed by|PRINTED AT|Printed at|Electrotyped|"
    r"ELECTROTYPED|PRESS OF|Press of)\b"
    r"|(?:ADVERTISEMENTS?|Advertisements?|Typos? fixed|TYPOS? FIXED|Typographical errors|"
    r"ERRATA|Errata)\b"
    # An editor's bracketed end line (`[End of The Adventures of Tom Sawyer by Mark Twain]`):
    # the story ended above it.
    rf"|\[(?:End|END) of [^\n\]]{{1,200}}\]{_LINE_END}"
    # Section headings ebook producers put after the text, alone on their line.
    r"|(?:Colophon|COLOPHON|Uncopyright|UNCOPYRIGHT|Imprint|IMPRINT"
    r"|(?i:about the author|about this (?:digital |electronic |e-?book )?edition|also available"
    r"|(?:also|other (?:books|titles|works)) by [^\n]{1,60}))[.:]?"
    rf"{_LINE_END})"
)
_ZH_END_WORDS = r"全书完|全文完|全书终|全文终|本书完|全剧终|全書完|全文終|全書終|本書完|完"
_ZH_CUE = re.compile(
    rf"\n{HSPACE}*(?:(?P<end>[（(【\[]?(?:{_ZH_END_WORDS})[）)】\]]?[。！!]*)"
    rf"{_LINE_END}|[（(【\[]?(?:作者其他作品|作者的其他作品|其他作品推荐|作者其他作品推荐)"
    r"[）)】\]]?[：:]?)"
)


def back_matter_blocks(text: str, cue_pattern: re.Pattern[str]) -> list[Block]:
    """The back matter `cue_pattern` finds in the last part of `text` (see the module)."""
    tail_start = max(0, len(text) - max(int(len(text) * TAIL_SHARE), MIN_TAIL_CHARS))
    tail_start = text.find("\n", tail_start) if tail_start else 0
    if tail_start < 0:
        return []
    cue = cue_pattern.search(text, tail_start)
    if cue is None:
        return []
    start = cue.start() + 1
    if cue.group("end") is not None:  # the story's own last line stays
        start = cue.end()
        while start < len(text) and text[start] in " \t\n":
            start += 1
    rest = text[start:]
    if not rest.strip():
        return []
    # A chapter heading after the cue means the story goes on: nothing is cut.
    if any(is_heading_line(line) for line in rest.split("\n")[1:]):
        return []
    return [Block(start, len(text))]


EN_BACK_MATTER = CuedBlockRule(
    name="en/back-matter",
    description="Back matter in the last part of the book: everything after a THE END line, "
    "or from a printer's colophon (Printed by …, Electrotyped …), an ADVERTISEMENTS or "
    "errata/typos-fixed heading, an editor's [End of …] line or an ebook's own back-matter "
    "heading (Colophon, Uncopyright, About the Author, About this digital edition, Also "
    "by …), to the end (not when a chapter heading follows).",
    finder=lambda text: back_matter_blocks(text, _EN_CUE),
    languages=("en",),
)

ZH_BACK_MATTER = CuedBlockRule(
    name="zh-web/back-matter",
    description="What follows the book's end line (全书完, 全文完, （完）…) in the last part "
    "of the text, or an 作者其他作品 list there, to the end (not when a chapter heading "
    "follows): download files' closing notes and lists.",
    finder=lambda text: back_matter_blocks(text, _ZH_CUE),
    languages=("zh",),
)
