"""The `repeated_fragment` class: the same sentence or bracketed aside glued into the text
again and again (`…他说。夜读时光提醒您：注意休息。行者…`, `… (Visit the Reading Room for
more classics.) …`).

Cleaning learns furniture that stands on its own lines; a site or converter that glues
its advert into the running text leaves no line to learn, and a held-out probe found such
fragments, hundreds per book, unseen by every other detector. This one needs no
vocabulary: a story does not repeat one long sentence verbatim every few pages.

A fragment is a sentence inside a line (it ends with 。！？!? or a full stop before a
space, and more text follows it on its line) or a bracketed aside (（）()【】〔〕[]〖〗<>{}).
It counts when it weighs `MIN_WEIGHT` (an ideograph 2, a Latin letter 1: `asked Holmes.`
is 11 and does not), does not open with a quotation mark and, in Latin script, stands
outside speech (the line's quotation marks before it are closed), and is seen at least `[audit]
repeated_fragment_min` times and once per `PER_CHARACTERS` characters of the sample:
speech repeats (`"Thank you.`), and so do a long book's commonest sentences, a few times
each; furniture comes every few pages. The last sentence of a line never counts: a
chapter's closing formula (`未知胜负如何，且看下文分解。`) ends its line, and whole
repeated lines are `repeated_line`'s.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping

from lengthwise.builders.audit.findings import Finding
from lengthwise.builders.audit.sample_audit import AuditContext

MIN_WEIGHT = 20
PER_CHARACTERS = 20_000

# A sentence: up to its end mark (closing quotes kept), followed by more of its line.
_SENTENCE = re.compile(
    r"[^\n。！？!?]*?(?:[。！？!?]+|\.(?=[”’」』\"']?\s))[”’」』\"']?(?=[^\n]*\S)"
)
_ASIDE = re.compile(r"[（(【〔\[〖<{][^（(【〔\[〖<{）)】〕\]〗>}\n]{2,80}[）)】〕\]〗>}]")
_OPENING_QUOTES = "\"'“‘「『"
_SPEECH_OPEN = "“"
_SPEECH_CLOSE = "”"


def _has_ideographs(fragment: str) -> bool:
    return any("\u3400" <= char <= "\u9fff" for char in fragment)


def weight(fragment: str) -> int:
    """Ideographs count 2, other letters 1 (an ideograph carries a word's worth)."""
    return sum(2 if "\u3400" <= char <= "\u9fff" else 1 for char in fragment if char.isalpha())


def fragment_counts(text: str) -> Counter[str]:
    """Each candidate fragment of `text` and how often it occurs (see the module doc)."""
    counts: Counter[str] = Counter()
    for pattern in (_SENTENCE, _ASIDE):
        for match in pattern.finditer(text):
            fragment = match.group().strip()
            if (
                fragment
                and fragment[0] not in _OPENING_QUOTES
                and weight(fragment) >= MIN_WEIGHT
                # Chinese sites glue adverts inside dialogue as readily as outside it, and
                # Chinese speech repeats no long sentence: the guard is for Latin text.
                and (_has_ideographs(fragment) or not _in_speech(text, match.start()))
            ):
                counts[fragment] += 1
    return counts


def _in_speech(text: str, position: int) -> bool:
    """Whether `position` is inside quotation marks opened earlier on its line."""
    line = text[text.rfind("\n", 0, position) + 1 : position]
    if line.count('"') % 2:
        return True
    return sum(line.count(c) for c in _SPEECH_OPEN) > sum(line.count(c) for c in _SPEECH_CLOSE)


def needed(sample_length: int, minimum: int) -> int:
    return max(minimum, sample_length // PER_CHARACTERS)


def repeated_fragment_findings(
    counts: Mapping[str, int], sample_length: int, minimum: int
) -> Iterator[Finding]:
    at_least = needed(sample_length, minimum)
    for fragment, count in counts.items():
        if count >= at_least:
            yield Finding("repeated_fragment", f"⟦{fragment[:80]}⟧ ×{count}")


def find_repeated_fragments(context: AuditContext) -> Iterator[Finding]:
    counts = fragment_counts(context.text)
    return repeated_fragment_findings(
        counts, len(context.text), context.config.repeated_fragment_min
    )
