"""What an inline cut leaves behind, removed where the cut was made.

When a rule cuts an advert or URL out of a line (any rule that removes non-whitespace
from inside a line: site adverts, watermarks, user rules, ...), the cleaner calls
`residue_edits` with the cut points in the new text. Only those few places are looked
at, so this costs nothing on a clean book. Counted under:

* `residue/empty-brackets`: brackets the cut emptied (`（）` `【】` `()` `[]` `《》` ...);
* `residue/bare-site`: where the cut text held a web address, a site name or domain
  fragment touching the cut point, left when only part of an advert was cut
  (`顶点小说网`, `xxx.com`, `www.`): a run of at most 10 characters that ends in a site
  word or holds a dot between letters;
* `residue/credit-label`: a short label ending in a colon that starts its line, whose
  value the cut removed, with nothing after it on the line (`本书来自：`); labels ending
  in a verb of speech (`他笑道：`) are dialogue and stay.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.line_signatures import has_web_mark

EMPTY_BRACKETS = "residue/empty-brackets"
BARE_SITE = "residue/bare-site"
CREDIT_LABEL = "residue/credit-label"
RESIDUE_RULES = (EMPTY_BRACKETS, BARE_SITE, CREDIT_LABEL)

_PAIRS = {
    "（": "）", "(": ")", "【": "】", "[": "]", "《": "》", "「": "」", "〈": "〉",
    "{": "}", "〔": "〕", "『": "』", "<": ">", "〖": "〗",
}  # fmt: skip
_SPACE = " \t\u3000"
_SITE_LEFT = re.compile(
    r"(?:[\w.\-]{0,10}?(?:小说网|中文网|文学网|书屋|书阁|小说|文学|网站|网)"
    r"|[A-Za-z0-9\-]*(?:[A-Za-z]\.[A-Za-z]|www\.?)[A-Za-z0-9.\-/]*)$",
    re.IGNORECASE,
)
_SITE_RIGHT = re.compile(r"^[A-Za-z0-9\-]*(?:\.[A-Za-z]{2,}|www)[A-Za-z0-9.\-/]*", re.IGNORECASE)
_WORD_CHARS = re.compile(r"[\w.\-]+$")
_SPEECH_END = frozenset("道曰说說云问問笑叫喊骂罵吟念答")
_MAX_LABEL = 12


def residue_edits(text: str, cuts: Iterable[tuple[int, str]]) -> list[tuple[str, Edit]]:
    """Named deletions of cut residue in `text`.

    `cuts` are (offset in `text` where a cut was made, the text that was cut). A bare
    site name is looked for only where the cut text held a web address.
    """
    edits: list[tuple[str, Edit]] = []
    for point, removed in sorted(set(cuts)):
        edit = _empty_brackets(text, point)
        if edit is None and has_web_mark(removed):
            edit = _bare_site(text, point)
        edit = edit or _label(text, point)
        if edit is not None:
            edits.append(edit)
    edits.sort(key=lambda named: named[1][0])
    kept: list[tuple[str, Edit]] = []
    for named in edits:
        if not kept or named[1][0] >= kept[-1][1][1]:
            kept.append(named)
    return kept


def _empty_brackets(text: str, point: int) -> tuple[str, Edit] | None:
    left = point
    while left > 0 and text[left - 1] in _SPACE:
        left -= 1
    right = point
    while right < len(text) and text[right] in _SPACE:
        right += 1
    if left == 0 or right >= len(text):
        return None
    if _PAIRS.get(text[left - 1]) == text[right]:
        return EMPTY_BRACKETS, (left - 1, right + 1, "")
    return None


def _bare_site(text: str, point: int) -> tuple[str, Edit] | None:
    line_start = text.rfind("\n", 0, point) + 1
    before = text[max(line_start, point - 24) : point]
    run = _WORD_CHARS.search(before)
    if run is not None and len(run.group()) <= 10:
        site = _SITE_LEFT.search(run.group())
        if site is not None and site.group() == run.group():
            return BARE_SITE, (point - len(run.group()), point, "")
    line_end = text.find("\n", point)
    after = text[point : min(point + 40, len(text) if line_end < 0 else line_end)]
    site = _SITE_RIGHT.match(after)
    if site is not None and site.group():
        return BARE_SITE, (point, point + len(site.group()), "")
    return None


def _label(text: str, point: int) -> tuple[str, Edit] | None:
    line_start = text.rfind("\n", 0, point) + 1
    line_end = text.find("\n", point)
    line_end = len(text) if line_end < 0 else line_end
    label = text[line_start:point].strip()
    if text[point:line_end].strip() or not label or len(label) > _MAX_LABEL:
        return None
    if label[-1] not in "：:" or len(label) < 2 or label[-2] in _SPEECH_END:
        return None
    if any(char in label for char in '，。！？,!?“”"「」'):
        return None
    return CREDIT_LABEL, (line_start, line_end, "")
