"""The `zh` rule set: punctuation normalisation for Chinese text.

Decisions (see the report in the package docstring):
* `．` (U+FF0E) after a Chinese character or closing quote is a sentence end in
  scraped texts (红楼梦 uses it ~20k times) and becomes `。`; between digits or
  Latin letters (`３．１４`) it is left alone.
* ASCII `, ; : ! . ?` after a Chinese character (or a closing quote/bracket) and
  before Chinese text, a quote, or the line end become full-width. Scraped texts
  also use ASCII `?` for a character the encoder lost (`飞觥限?起来`, `"点犀?"`), so a
  `?` squeezed between two ideographs, or after one with no question word in its
  clause, is left alone (see `damage.is_placeholder_question_mark`): it is not a
  question mark, and `count_damage` counts it.
* Dots next to other dots (`．．．`, `．……`, `...`, `。。。`) are an ellipsis or a run
  and are never rewritten.
* ASCII parentheses become full-width only as a pair around text with Chinese in it.
* Straight double quotes `"` are left alone: opening/closing cannot be told apart
  reliably in texts that mix them with curly quotes.
"""

from __future__ import annotations

import re

from lengthwise.builders.cleaning.damage import is_placeholder_question_mark
from lengthwise.builders.cleaning.line_rules import LineRule
from lengthwise.builders.cleaning.rules import Rule

# Ideographs (CJK unified, extension A, compatibility).
HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# What may stand before sentence punctuation: an ideograph or a closing quote/bracket.
_BEFORE = rf"[{HAN}”’」』）》〉】〕\")]"
# What may follow: an ideograph, CJK punctuation, a quote, or whitespace/line end.
# Dot-like marks: next to one of these, a dot is part of an ellipsis or a run.
_DOTS = r"[．.。…・‥]"
_AFTER = rf"(?=[{HAN}\u3000-\u303f\uff00-\uffef“”‘’\"'\s]|\Z)"

FULLWIDTH_PERIOD = Rule(
    name="zh/fullwidth-period",
    description="The full-width full stop `．` used as a sentence end after Chinese text "
    "becomes `。`.",
    # Starts with the literal `．` (fast scan); the look-behind checks what precedes it.
    # Never inside a run of dots (`．．．`, `．……`, `。．．`): an ellipsis stays as written.
    pattern=re.compile(rf"．(?<={_BEFORE}．)(?!{_DOTS})"),
    replacement="。",
    languages=("zh",),
    triggers=("．",),
)

_ASCII_TO_FULLWIDTH = str.maketrans(",;:!?.()", "，；：！？。（）")


def _to_fullwidth(match: re.Match[str]) -> str:
    found = match.group()
    if found == "?" and is_placeholder_question_mark(match.string, match.start()):
        return found  # a lost character, not a question: left as it is (and counted as damage)
    if found[0] != "(":
        return found.translate(_ASCII_TO_FULLWIDTH)
    # Only the parentheses themselves; punctuation inside is judged on its own context.
    inner = _PUNCTUATION.sub(_to_fullwidth, found[1:-1])
    return f"（{inner}）"


_PUNCTUATION = re.compile(
    # One character class first, so `re` can skip ahead fast; then the context per mark.
    r"[(,;:!.?]"
    r"(?:"
    # A parenthesised stretch of one line with an ideograph in it.
    rf"(?<=\()(?=[^()\n]{{0,60}}?[{HAN}])[^()\n]{{1,60}}\)"
    # , ; : ! after Chinese text.
    rf"|(?<={_BEFORE}[,;:!]){_AFTER}"
    # `.` likewise, but not inside `...` runs.
    rf"|(?<={_BEFORE}\.)(?!{_DOTS}){_AFTER}"
    # ? after Chinese text, unless another ideograph follows directly.
    rf"|(?<={_BEFORE}\?)(?![{HAN}]){_AFTER}"
    r")"
)

ASCII_PUNCTUATION = LineRule(
    name="zh/ascii-punctuation",
    description="ASCII , ; : ! ? . and () next to Chinese text become full-width "
    "(，；：！？。（）); a ? between two ideographs (a lost-character mark) is kept. "
    "Off when cleaning.fullwidth_punctuation_zh is false.",
    pattern=_PUNCTUATION,
    replacement=_to_fullwidth,
    anchors=tuple("(,;:!.?"),
    languages=("zh",),
)

RULES: tuple[Rule | LineRule, ...] = (FULLWIDTH_PERIOD, ASCII_PUNCTUATION)
