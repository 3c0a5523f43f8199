"""Traditional Chinese read as simplified, character for character, for matching only.

Site furniture is the same in both scripts (`最新章节` / `最新章節`, `本站网址` / `本站網址`),
but the `zh-web` rules and the site words are written in simplified characters. Rather
than writing every pattern twice, a traditional-script book is matched through a
*folded view*: each traditional character replaced by its simplified form, one
character for one, so every offset found in the view holds in the book. The book's own
characters are never changed by folding; only the spans a rule removes are.

The table comes from OpenCC's traditional-to-simplified conversion applied to single
characters (phrase-level conversions that change length are left out), built once on
first use. A book is traditional when at least 0.5% of the opening's characters are
among 25 common traditional-only forms (說, 們, 這, 來 …): 4-8% in traditional books,
none in simplified ones.
"""

from __future__ import annotations

import functools
import re

from lengthwise.builders.cleaning.ledger import apply_edits, diff_edit
from lengthwise.builders.cleaning.rules import (
    MAX_EXAMPLES,
    Rule,
    RuleOutcome,
    TextRule,
    format_example,
)

# Traditional-only forms of very common characters (说们这来时为会…): 4-8% of the text
# of the shared traditional books and of the zh classics converted to traditional, none
# of the simplified ones.
_COMMON_TRADITIONAL = "說們這來時為會對國與後過還麼裡見聽問門開頭長馬東無"
MIN_TRADITIONAL_SHARE = 0.005
_KANA = re.compile(r"[\u3040-\u30ff]")
_JAPANESE_KANA_SHARE = 0.1
_SAMPLE_CHARS = 20_000
_CJK_RANGES = ((0x3400, 0xA000), (0xF900, 0xFB00))


@functools.cache
def fold_table() -> dict[int, int]:
    """Traditional code point -> simplified code point, where OpenCC maps one to one."""
    import opencc  # imported lazily: only books with non-ASCII text need it

    chars = [chr(code) for low, high in _CJK_RANGES for code in range(low, high)]
    converted = opencc.OpenCC("t2s").convert("\n".join(chars)).split("\n")
    if len(converted) != len(chars):  # a conversion swallowed a line break: no folding
        return {}
    return {
        ord(old): ord(new)
        for old, new in zip(chars, converted, strict=True)
        if len(new) == 1 and new != old
    }


def fold(text: str) -> str:
    """`text` with traditional characters replaced by simplified ones (same length)."""
    if text.isascii() or max(text) < "\u3400":  # no CJK: no table needed (nor OpenCC)
        return text
    return text.translate(fold_table())


def is_traditional(text: str) -> bool:
    """Whether `text` is in traditional script, from its opening: counted in C with a
    few of the commonest traditional-only characters (no Python loop per character)."""
    sample = text[:_SAMPLE_CHARS]
    if not sample or sample.isascii():
        return False
    if sum(map(sample.count, _COMMON_TRADITIONAL)) < MIN_TRADITIONAL_SHARE * len(sample):
        return False
    # Japanese writes 時 來 見 無 as traditional Chinese does; its kana say it is no
    # Chinese text to fold (a tenth of Japanese prose and more, none in Chinese).
    return len(_KANA.findall(sample)) < _JAPANESE_KANA_SHARE * len(sample)


class FoldedView:
    """Runs rules on the folded view of a traditional book and applies what they remove
    to the book itself. The view is kept in step with the text between rules."""

    def __init__(self) -> None:
        self._text: str | None = None
        self._folded = ""

    def _view(self, text: str) -> str:
        if text is not self._text:
            self._text, self._folded = text, fold(text)
        return self._folded

    def apply(self, rule: TextRule, text: str) -> RuleOutcome:
        folded = self._view(text)
        outcome = rule.apply(folded, trace=True) if isinstance(rule, Rule) else rule.apply(folded)
        if not outcome.count:
            return RuleOutcome(text, 0)
        found = outcome.edits if outcome.edits is not None else diff_edit(folded, outcome.text)
        edits = tuple(found)
        changed = apply_edits(text, edits)
        # The rule's own output is the folded view of the changed book (a replacement it
        # writes is simplified already, and folds to itself).
        self._text, self._folded = changed, outcome.text
        examples = [
            format_example(text, start, end, new) for start, end, new in edits[:MAX_EXAMPLES]
        ]
        return RuleOutcome(changed, outcome.count, examples, edits=edits, learned=outcome.learned)
