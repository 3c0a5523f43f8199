"""`common/mojibake`: re-decode lines that `ftfy` recognises as mojibake (`Ã©` → `é`).

Only lines holding one of mojibake's telltale sequences (`Ã`, `Â`, `â€`) are looked at,
so clean books cost one substring search per marker. `ftfy.fix_encoding` changes a
line only when its badness heuristic says the line reads better re-decoded, so a
French `Â` in a correct text stays. One change is counted per repaired line. Damage
no library can repair (GBK mojibake with lost bytes, `?`/`□` placeholders, private-use
characters) is left in place and counted by `damage.count_damage` instead.
"""

from __future__ import annotations

import re

import ftfy

from lengthwise.builders.cleaning.damage import LATIN_MOJIBAKE_MARKERS
from lengthwise.builders.cleaning.line_rules import LineRule


def _repair(match: re.Match[str]) -> str:
    return ftfy.fix_encoding(match.group())


MOJIBAKE = LineRule(
    name="common/mojibake",
    description="Lines ftfy recognises as mojibake (UTF-8 read as Latin-1/Windows-1252: "
    "Ã©, â€™ …) are re-decoded; one change per repaired line.",
    pattern=re.compile(r"^.+$"),
    replacement=_repair,
    anchors=LATIN_MOJIBAKE_MARKERS,
)
