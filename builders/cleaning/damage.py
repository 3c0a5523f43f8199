"""Character damage in a text: counted, never turned into punctuation.

`count_damage(text)` counts, in one pass over the few characters that can be damage:

* `private_use`: private-use code points (U+E000-U+F8FF, planes 15-16), which e-text
  sites use for characters their fonts lacked; they render as boxes or nothing.
* `replacement`: U+FFFD, what a decoder leaves for bytes it could not read.
* `mojibake_runs` / `mojibake_chars`: stretches of text decoded with the wrong
  encoding. Latin mojibake (`Ã©`, `â€™`) is what `ftfy` recognises (and the
  `common/mojibake` rule repairs); Chinese text saved as UTF-8 and read as GBK turns
  into a dense run of rare symbols (box drawing `┣`, though not the dash-like `─`;
  enclosed numbers `⒎`, kana (but not in Japanese prose, where they are a tenth of the
  text or more),
  full-width digits among ideographs, `?` and U+FFFD for lost bytes): at least
  `RUN_MIN_SIGNALS` such signals, each within `RUN_MAX_GAP` characters of the last,
  one of them not a `?`. Such runs cannot be reversed (the lost bytes are gone).
* `placeholders`: marks standing for a lost character: `□`, `■`, `〓`, and an ASCII `?` after
  an ideograph that is not a question mark: no question word (吗, 呢, 何, 谁, 怎, 岂,
  难道 …) in its clause (`飞觥限?起来`, `"点犀?"`, but not `你去那里?`). Question marks
  and `?` inside mojibake runs are not placeholders.

Another stage's audit calls this on samples; the corpus stage reports it per book.
Most books have no damage at all: a text whose characters all lie below U+2300 (Latin,
Cyrillic, general punctuation) holds none of the characters above and no ideograph, so
only Latin mojibake is looked for there; that is decided in C, without a regex scan.
"""

from __future__ import annotations

import re
import sys
from dataclasses import asdict, dataclass

import ftfy

RUN_MIN_SIGNALS = 4
RUN_MAX_GAP = 8
_CLAUSE_CHARS = 24  # how far back a question word may stand

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_PRIVATE_USE = re.compile(r"[\ue000-\uf8ff\U000f0000-\U0010fffd]")
# The characters that can be damage, as inclusive code point ranges.
CANDIDATE_RANGES: tuple[tuple[int, int], ...] = (
    (0x3F, 0x3F),  # ?
    (0x2312, 0x2312),  # ⌒
    (0x2460, 0x24FF),  # enclosed numbers and letters
    (0x2502, 0x257F),  # box drawing, but the dash-like ─ and ━
    (0x25A0, 0x25A1),  # ■ □
    (0x3013, 0x3013),  # 〓
    (0x3040, 0x30FF),  # kana
    (0xE000, 0xF8FF),  # private use
    (0xFF10, 0xFF19),  # full-width digits
    (0xFF21, 0xFF3A),  # full-width capitals
    (0xFF41, 0xFF5A),  # full-width small letters
    (0xFFFD, 0xFFFD),  # replacement character
    (0xF0000, 0x10FFFD),  # private use planes 15-16
)


def _outside_ranges_class(ranges: tuple[tuple[int, int], ...]) -> str:
    """`[^…]` naming every code point outside `ranges`: it matches exactly the characters
    inside them, and sre scans a book with it ~20% faster than with the positive class."""
    gaps: list[str] = []
    next_free = 0
    for first, last in sorted(ranges):
        if first > next_free:
            gaps.append(f"{re.escape(chr(next_free))}-{re.escape(chr(first - 1))}")
        next_free = last + 1
    if next_free <= sys.maxunicode:
        gaps.append(f"{re.escape(chr(next_free))}-{re.escape(chr(sys.maxunicode))}")
    return "[^" + "".join(gaps) + "]"


_CANDIDATES = re.compile(_outside_ranges_class(CANDIDATE_RANGES))
_PLACEHOLDERS = "□■〓"  # marks for a missing glyph (〓 is the geta mark)
_QUESTION_WORDS = re.compile(
    r"吗|嗎|呢|么|麼|乎|哉|耶|欤|歟|否|何|谁|誰|怎|甚|什|哪|那里|那裏|几|幾|岂|豈|难道|難道|"
    r"莫非|可曾|多少|安|焉|曷|孰|不成|未"
)
_CLAUSE_BREAK_CHARS = r"[。！？!?，,；;：:\n“”「」『』]"
# Greedy: matches up to and including the last clause break in its range.
_UP_TO_LAST_CLAUSE_BREAK = re.compile(r"(?s).*" + _CLAUSE_BREAK_CHARS)
# Telltales of UTF-8 read as Latin-1/Windows-1252 (`Ã©`, `Â `, `â€™`); substring
# searches, far faster than one regex over a whole book.
LATIN_MOJIBAKE_MARKERS = ("Ã", "Â", "â€")
# Every damage character but `?` and every ideograph lies at or above U+2300 (the first is
# U+2312), so below it a `?` follows no ideograph and nothing else can be damage.
_FIRST_DAMAGE_HIGH_BYTE = 0x23  # the high byte of U+2300 in UTF-16
_HIGH_BYTES_BELOW = bytes(range(_FIRST_DAMAGE_HIGH_BYTE))
_CHUNK_CHARS = 1 << 16  # decide per chunk: a Chinese book fails on its first one


@dataclass(frozen=True)
class DamageCounts:
    """Counts of damaged characters in a text (see the module docstring)."""

    private_use: int = 0
    replacement: int = 0
    mojibake_runs: int = 0
    mojibake_chars: int = 0
    placeholders: int = 0

    @property
    def total(self) -> int:
        """Damaged characters in all: private use, U+FFFD, mojibake and placeholders."""
        return self.private_use + self.replacement + self.mojibake_chars + self.placeholders

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def _is_han(char: str) -> bool:
    return _HAN.match(char) is not None


def is_placeholder_question_mark(text: str, index: int) -> bool:
    """True when the ASCII `?` at `index` stands for a lost character in Chinese text."""
    first = index
    while first and text[first - 1] == "?":
        first -= 1
    if not first or not _is_han(text[first - 1]):
        return False
    # A question only if asked: a question word (吗, 何, 谁, 那里 …) in its clause, which
    # starts after the last clause break of the `_CLAUSE_CHARS` characters before the `?`s.
    window_start = max(0, first - _CLAUSE_CHARS)
    up_to_break = _UP_TO_LAST_CLAUSE_BREAK.match(text, window_start, first)
    clause_start = window_start if up_to_break is None else up_to_break.end()
    return _QUESTION_WORDS.search(text, clause_start, first) is None


def _mojibake_runs(text: str, signals: list[int]) -> tuple[list[tuple[int, int]], int]:
    """Runs of densely packed signals: (first, last) index pairs, and their characters."""
    runs: list[tuple[int, int]] = []
    group: list[int] = []
    for position in [*signals, -1]:
        if group and (position < 0 or position - group[-1] > RUN_MAX_GAP):
            if len(group) >= RUN_MIN_SIGNALS and any(text[i] != "?" for i in group):
                runs.append((group[0], group[-1]))
            group = []
        if position >= 0:
            group.append(position)
    return runs, sum(last - first + 1 for first, last in runs)


def _has_latin_marker(text: str) -> bool:
    # Single-character searches first: `"â€" in text` is many times slower than `"€" in text`.
    return any(
        all(char in text for char in marker) and marker in text for marker in LATIN_MOJIBAKE_MARKERS
    )


def _below_u2300(text: str) -> bool:
    """Whether every character of `text` lies below U+2300, decided in C: the high byte
    of each UTF-16 code unit (surrogates included) is below 0x23."""
    if text.isascii():
        return True
    for start in range(0, len(text), _CHUNK_CHARS):
        high_bytes = text[start : start + _CHUNK_CHARS].encode("utf-16-be", "surrogatepass")[0::2]
        if high_bytes.translate(None, _HIGH_BYTES_BELOW):
            return False
    return True


def _latin_mojibake_lines(text: str) -> tuple[int, int]:
    """Lines `ftfy` would re-decode, and their changed characters."""
    if not _has_latin_marker(text):
        return 0, 0
    lines = chars = 0
    for line in text.split("\n"):
        if any(marker in line for marker in LATIN_MOJIBAKE_MARKERS):
            fixed = ftfy.fix_encoding(line)
            if fixed != line:
                lines += 1
                chars += max(1, len(line) - len(fixed))
    return lines, chars


@dataclass(frozen=True)
class _Scan:
    """What one pass finds: candidate positions, placeholder `?`s and mojibake runs."""

    positions: list[int]
    placeholder_marks: set[int]
    runs: list[tuple[int, int]]  # (first, last) inclusive
    run_chars: int


def _scan(text: str) -> _Scan:
    positions = [match.start() for match in _CANDIDATES.finditer(text)]
    placeholder_marks = {
        i for i in positions if text[i] == "?" and is_placeholder_question_mark(text, i)
    }
    # Rare symbols only count as damage in text with ideographs around them.
    signals = [i for i in positions if text[i] != "?" or i in placeholder_marks]
    # Placeholder marks are a transcriber's marks for a missing character, not decoding damage.
    garbled = [i for i in signals if text[i] not in _PLACEHOLDERS and _near_han(text, i)]
    if garbled and _is_kana_prose(text, garbled):
        garbled = [i for i in garbled if not _KANA_FIRST <= ord(text[i]) <= _KANA_LAST]
    runs, run_chars = _mojibake_runs(text, garbled)
    return _Scan(positions, placeholder_marks, runs, run_chars)


_KANA_FIRST, _KANA_LAST = 0x3040, 0x30FF
# Japanese prose is a third or more kana; in a Chinese book kana come only with mojibake,
# in its runs. Where kana are this share of the text they are the language, not damage.
_KANA_PROSE_SHARE = 0.1


def _is_kana_prose(text: str, signals: list[int]) -> bool:
    kana = sum(1 for i in signals if _KANA_FIRST <= ord(text[i]) <= _KANA_LAST)
    return kana >= _KANA_PROSE_SHARE * len(text)


def _kind(text: str, index: int, scan: _Scan, in_run: _RunLookup) -> str | None:
    """The damage class of the candidate at `index`, or None (inside a run, or no damage)."""
    char = text[index]
    if _PRIVATE_USE.match(char):
        return "private_use"
    if char == "\ufffd":
        return "replacement"
    if in_run(index):
        return None
    if char in _PLACEHOLDERS or index in scan.placeholder_marks:
        return "placeholder"
    return None


def count_damage(text: str) -> DamageCounts:
    """Count the damaged characters of `text` (any language, any length)."""
    if _below_u2300(text):  # no damage character, no ideograph (module docstring)
        latin_runs, latin_chars = _latin_mojibake_lines(text)
        return DamageCounts(mojibake_runs=latin_runs, mojibake_chars=latin_chars)
    return _count_scanned(text)


def _count_scanned(text: str) -> DamageCounts:
    """`count_damage` by a scan of every candidate character (the general path)."""
    scan = _scan(text)
    in_run = _RunLookup(scan.runs)
    counts = {"private_use": 0, "replacement": 0, "placeholder": 0}
    for index in scan.positions:
        kind = _kind(text, index, scan, in_run)
        if kind is not None:
            counts[kind] += 1
    latin_runs, latin_chars = _latin_mojibake_lines(text)
    return DamageCounts(
        private_use=counts["private_use"],
        replacement=counts["replacement"],
        mojibake_runs=len(scan.runs) + latin_runs,
        mojibake_chars=scan.run_chars + latin_chars,
        placeholders=counts["placeholder"],
    )


def damage_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, class) of every damaged stretch, by `count_damage`'s definitions.

    A mojibake run is one span (private-use characters and U+FFFD inside it included);
    neighbouring damaged characters of one class merge (`??`, `□□`). The residual-noise
    audit reports these, so the build report and the audit never disagree on what damage is.
    """
    scan = _scan(text)
    in_run = _RunLookup(scan.runs)
    spans = [(first, last + 1, "mojibake") for first, last in scan.runs]
    runs = _RunLookup(scan.runs)
    for index in scan.positions:
        if runs(index):
            continue
        kind = _kind(text, index, scan, in_run)
        if kind is None:
            continue
        if spans and spans[-1][1] == index and spans[-1][2] == kind:
            spans[-1] = (spans[-1][0], index + 1, kind)
        else:
            spans.append((index, index + 1, kind))
    spans += _latin_mojibake_spans(text)
    return sorted(spans)


def _latin_mojibake_spans(text: str) -> list[tuple[int, int, str]]:
    """Lines `ftfy` would re-decode, as spans."""
    if not _has_latin_marker(text):
        return []
    spans: list[tuple[int, int, str]] = []
    offset = 0
    for line in text.split("\n"):
        marked = any(marker in line for marker in LATIN_MOJIBAKE_MARKERS)
        if marked and ftfy.fix_encoding(line) != line:
            spans.append((offset, offset + len(line), "mojibake"))
        offset += len(line) + 1
    return spans


def _near_han(text: str, index: int) -> bool:
    window = text[max(0, index - 3) : index + 4]
    return _HAN.search(window) is not None


class _RunLookup:
    """`lookup(index)`: is `index` inside one of the (sorted) runs? Indices come in order."""

    def __init__(self, runs: list[tuple[int, int]]) -> None:
        self.runs = runs
        self.position = 0

    def __call__(self, index: int) -> bool:
        while self.position < len(self.runs) and self.runs[self.position][1] < index:
            self.position += 1
        return self.position < len(self.runs) and self.runs[self.position][0] <= index
