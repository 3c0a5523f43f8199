"""The `ja` rule set: the markup of Aozora Bunko (青空文庫) texts, the usual Japanese e-text.

An Aozora file opens with its title and author lines and, between two rules of dashes,
the key to its marks (`【テキスト中に現れる記号について】`); it closes with the colophon of
the printed edition it was typed from (`底本：…`, the typists' and proofreaders' names,
the site's note). Inside the text it marks:

* ruby: readings in `《》` after the word they gloss (`頓狂《とんきょう》`), with `｜`
  where the glossed word starts (`福岡県｜京都郡《みやこぐん》`);
* the typists' notes in `［＃…］`: layout (`［＃７字下げ］`, `［＃ここから２字下げ］`,
  `［＃改ページ］`), headings (`一［＃「一」は中見出し］`), corrections
  (`［＃「帰って来た」は底本では「帰った来た」］`), and characters missing from the
  character set after a `※` (`※［＃「魚＋師のつくり」、第4水準2-93-37］`).

Rules, in this order:

* `ja/aozora-front-matter`: the title, author and key lines, up to the second dash rule;
* `ja/aozora-colophon`: from the last `底本：` line in the book's last part to the end;
* `ja/aozora-notes`: every note goes; a `※` with a note naming the character (a Unicode
  code point, or a JIS X 0213 plane-row-cell read through the `euc_jis_2004` codec)
  becomes that character; a line that held only notes goes whole, so a heading noted
  `［＃７字下げ］一［＃「一」は中見出し］` stays as the line `一` between its blank lines,
  which chapter detection reads as the numeral heading it is;
* `ja/aozora-ruby`: readings and `｜` go; the glossed word stays.
"""

from __future__ import annotations

import re

from lengthwise.builders.cleaning.rules import BlockRule, Rule, Span

_LANGUAGES = ("ja",)
_KEY_HEADING = "【テキスト中に現れる記号について】"
_DASH_RULE = re.compile(r"^-{20,}[ \t]*$", re.MULTILINE)
_FRONT_SEARCH_CHARS = 5_000


def _front_matter(text: str) -> list[Span]:
    """From the start to the end of the dash rule that closes the key to the marks."""
    key = text.find(_KEY_HEADING, 0, _FRONT_SEARCH_CHARS)
    if key < 0:
        return []
    opening = None
    for rule in _DASH_RULE.finditer(text, 0, _FRONT_SEARCH_CHARS):
        if rule.start() < key:
            opening = rule
        elif opening is not None:
            return [(0, rule.end())]
    return []


FRONT_MATTER = BlockRule(
    name="ja/aozora-front-matter",
    description="Aozora Bunko front matter: title and author lines and the key to the "
    "marks (【テキスト中に現れる記号について】) up to the dash rule closing it.",
    find_blocks=_front_matter,
    languages=_LANGUAGES,
    triggers=(_KEY_HEADING,),
)

# The colophon opens at a line starting `底本：` near the end (`底本の親本：`,
# `初出：`, `入力：`, `校正：` and the site's note follow it).
_COLOPHON = re.compile(r"\n[ \t\u3000]*底本[:：]")
_TAIL_SHARE = 0.1
_MIN_TAIL_CHARS = 20_000


def _colophon(text: str) -> list[Span]:
    tail = max(0, len(text) - max(int(len(text) * _TAIL_SHARE), _MIN_TAIL_CHARS))
    found = _COLOPHON.search(text, tail)
    return [] if found is None else [(found.start() + 1, len(text))]


COLOPHON = BlockRule(
    name="ja/aozora-colophon",
    description="Aozora Bunko colophon: from the `底本：` line in the book's last part "
    "(source edition, typists, proofreaders, the site's note) to the end.",
    find_blocks=_colophon,
    languages=_LANGUAGES,
    triggers=("底本",),
)

# A note may quote text holding another note (`［＃「※［＃…］」に傍点］`).
_NOTE = r"［＃(?:[^［］\n]|［＃[^［］\n]*］)*］"
_SPACE = r"[ \t\u3000]"
# A line of notes only (its leading newline goes with it), a missing character's `※`
# with its note, or a note inside a line.
_NOTES = re.compile(rf"\n{_SPACE}*(?:{_NOTE}{_SPACE}*)+(?=\n)|※(?P<gaiji>{_NOTE})|{_NOTE}")
_CODE_POINT = re.compile(r"U\+([0-9A-Fa-f]{4,6})")
_JIS_CELL = re.compile(r"([12])-(\d{1,2})-(\d{1,2})")


def gaiji(note: str) -> str | None:
    """The character a missing-character note names (`U+6318`, `第4水準2-93-37`), or None."""
    point = _CODE_POINT.search(note)
    if point is not None:
        return chr(int(point.group(1), 16))
    cell = _JIS_CELL.search(note)
    if cell is None:
        return None
    plane, row, column = (int(part) for part in cell.groups())
    if not (1 <= row <= 94 and 1 <= column <= 94):
        return None
    encoded = bytes([0xA0 + row, 0xA0 + column])
    try:
        return (b"\x8f" + encoded if plane == 2 else encoded).decode("euc_jis_2004")
    except UnicodeDecodeError:
        return None


def _replace_note(match: re.Match[str]) -> str:
    note = match.group("gaiji")
    return "" if note is None else gaiji(note) or "※"


NOTES = Rule(
    name="ja/aozora-notes",
    description="Aozora Bunko typists' notes ［＃…］: removed (a line of notes only goes "
    "whole; heading text noted as 見出し stays on its line); a ※ whose note names the "
    "character (U+XXXX or a JIS X 0213 plane-row-cell) becomes that character.",
    pattern=_NOTES,
    replacement=_replace_note,
    languages=_LANGUAGES,
    triggers=("［＃",),
    line_start=True,
)

RUBY = Rule(
    name="ja/aozora-ruby",
    description="Aozora Bunko ruby: readings in 《》 after a word and the ｜ marking where "
    "the glossed word starts go; the word stays.",
    pattern=re.compile(r"《[^《》\n]{1,40}》|｜(?=[^\n]{1,40}《)"),
    languages=_LANGUAGES,
    triggers=("《",),
)

RULES: tuple[BlockRule | Rule, ...] = (FRONT_MATTER, COLOPHON, NOTES, RUBY)
