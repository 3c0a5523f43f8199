"""Named rule sets, their application order, and the "auto" choice.

Rule sets: `common` (whitespace, invisible characters, HTML entities), `zh`
(punctuation), `zh-web` (Chinese site noise), `gutenberg` (PG header/footer/credits),
`en` (illustrations, footnotes, underscores), `en-web` (English web-serial noise), `ja`
(Aozora Bunko markup: ruby, typists' notes, front matter and colophon; `aozora`).

Whatever sets are chosen, rules run in one fixed order: common pre-phase, user rules,
ja, gutenberg, zh-web, en, en-web, common address lines, zh, common post-phase. In zh,
`zh/ascii-quote-pairs` runs first: it and `zh/ascii-punctuation` act on disjoint
symbols, and a repaired closing quote (`’`) lets ASCII punctuation after it become full-
width. Removals thus come before punctuation rewriting, and whitespace is normalised
once, last. Within zh-web, line rules run before inline ones (a disclaimer line holds a
domain the advert rule would cut on its own) and again after an inline cut fired (what
is left of a line may now be a plea or notice line).

"auto" (decisions):
* `common`, plus the language's set (`zh`, `en` or `ja`); any other language gets
  `common` (and `gutenberg` below) only, the generic path (builders/language.py);
* `gutenberg` when the text carries Project Gutenberg markers or comes from a
  Gutenberg source;
* `zh-web` for every Chinese text, whatever its source: its rules need site words,
  domains or obfuscation marks to fire, and scraped noise turns up in "clean"
  files and datasets too;
* `en-web` for English text from URLs, or when web-serial markers (Patreon, A/N:,
  Translator:, novel-aggregator names) occur in its first 300,000 characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from lengthwise.builders.cleaning import aozora, common_rules, en_rules, gutenberg_rules, zh_rules
from lengthwise.builders.cleaning.address_lines import ADDRESS_LINE
from lengthwise.builders.cleaning.ascii_pairs import ASCII_QUOTE_PAIRS
from lengthwise.builders.cleaning.back_matter import ZH_BACK_MATTER
from lengthwise.builders.cleaning.inline_page_markers import INLINE_PAGE_MARKERS
from lengthwise.builders.cleaning.page_anchors import PAGE_ANCHORS
from lengthwise.builders.cleaning.recurring_brackets import RECURRING_BRACKETS
from lengthwise.builders.cleaning.rules import TextRule, contains_any
from lengthwise.builders.cleaning.unwrap import UNWRAP_PARAGRAPHS
from lengthwise.builders.cleaning.zh_blocks import NOTICE_BLOCK as ZH_NOTICE_BLOCK
from lengthwise.builders.cleaning.zh_footnotes import ZH_FOOTNOTES
from lengthwise.builders.cleaning.zh_notices import AUTHOR_NOTICE
from lengthwise.builders.cleaning.zh_web_rules import INLINE_RULES, LINE_RULES
from lengthwise.builders.language import base_language
from lengthwise.errors import UserError

AUTO = "auto"

RULESETS: dict[str, tuple[TextRule, ...]] = {
    "common": (*common_rules.PRE, ADDRESS_LINE, *common_rules.POST),
    "zh": (ZH_FOOTNOTES, INLINE_PAGE_MARKERS, ASCII_QUOTE_PAIRS, *zh_rules.RULES),
    "zh-web": (
        AUTHOR_NOTICE,
        ZH_NOTICE_BLOCK,
        *LINE_RULES,
        *INLINE_RULES,
        RECURRING_BRACKETS,
        ZH_BACK_MATTER,
    ),
    "gutenberg": gutenberg_rules.RULES,
    "en": (*en_rules.RULES, PAGE_ANCHORS),
    "en-web": en_rules.WEB_RULES,
    "ja": aozora.RULES,
}
KNOWN_RULESETS: tuple[str, ...] = tuple(RULESETS)

# Global application order; user rules run right after `_BEFORE_USER_RULES`.
_BEFORE_USER_RULES: tuple[TextRule, ...] = common_rules.PRE
_AFTER_USER_RULES: tuple[TextRule, ...] = (
    *aozora.RULES,  # first: its notes and ruby sit inside the lines every later rule reads
    *gutenberg_rules.RULES,
    AUTHOR_NOTICE,
    ZH_NOTICE_BLOCK,
    *LINE_RULES,
    *INLINE_RULES,
    RECURRING_BRACKETS,
    ZH_BACK_MATTER,
    ZH_FOOTNOTES,  # before the learned step: a notes heading in every chapter is theirs
    *en_rules.RULES,
    PAGE_ANCHORS,
    *en_rules.WEB_RULES,
    ADDRESS_LINE,  # after the site rules: a line they know goes under their name
    INLINE_PAGE_MARKERS,  # before the learned step: a mark can split a recurring line
    *common_rules.POST_LINES,  # (unwrapping: see common_rules)
    ASCII_QUOTE_PAIRS,
    *zh_rules.RULES,
    *common_rules.POST_PARAGRAPHS,
)

# An inline cut can leave a line that a line rule now recognises ("求推荐！" after the
# advert beside it is gone): when one of these fires, the listed rules run again.
RERUN_AFTER: dict[str, tuple[str, ...]] = {
    inline.name: tuple(rule.name for rule in LINE_RULES) for inline in INLINE_RULES
}
# Unwrapping joins what a fixed-width wrap had split: an advert, watermark or navigation
# bar cut over two or more lines matched no site rule in pieces, so the site rules run
# again on the joined text (only where unwrapping joined lines). Punctuation rules need
# no second run: they come after unwrapping (`common_rules.POST_LINES`).
RERUN_AFTER[UNWRAP_PARAGRAPHS.name] = tuple(rule.name for rule in RULESETS["zh-web"])

# The learned-boilerplate step (see `learned`) runs just before these: after every
# removal rule, before punctuation rewriting and the final whitespace normalisation.
LEARNED_STEP_BEFORE: frozenset[str] = frozenset(
    rule.name for rule in (ASCII_QUOTE_PAIRS, *zh_rules.RULES, *common_rules.POST)
)

RULES_BY_NAME: dict[str, TextRule] = {
    rule.name: rule for rules in RULESETS.values() for rule in rules
}
# Markers and bodies go together: `cleaning.footnotes = "keep"` turns all of these off.
FOOTNOTE_RULES: tuple[str, ...] = (*en_rules.EN_FOOTNOTE_RULES, ZH_FOOTNOTES.name)
# Rules matched through the folded view of a traditional-script book (script_fold.py).
FOLDED_RULES: frozenset[str] = frozenset(rule.name for rule in (*RULESETS["zh-web"], ZH_FOOTNOTES))
_RULESET_OF: dict[str, str] = {
    rule.name: name for name, rules in RULESETS.items() for rule in rules
}
if set(RULES_BY_NAME) != {r.name for r in (*_BEFORE_USER_RULES, *_AFTER_USER_RULES)}:
    raise AssertionError("every rule must sit in exactly one rule set and in the run order")

_PG_MARKER = re.compile(
    r"\*\*\*[^\S\n]*(?:START|END) OF (?:THE|THIS) PROJECT GUTENBERG"
    r"|\*END\*[^\S\n]*THE SMALL PRINT|End of (?:the )?Project Gutenberg",
    re.IGNORECASE,
)
_PG_SEARCH_CHARS = 120_000
_EN_WEB_MARKERS = (
    "Patreon", "patreon", "Ko-fi", "ko-fi", "A/N:", "T/N:", "TL Note", "TL note",
    "Translator:", "Editor:", "webnovel", "Webnovel", "novelupdates", "wuxiaworld",
    "WuxiaWorld", "royalroad", "lightnovel", "novelfull", "novelbin",
)  # fmt: skip
# Each marker holds one of these keys: one search per key rules out all its markers
# (about a third of the searches), and the few places a key occurs are checked for
# its markers there. Same answer as searching every marker.
_EN_WEB_KEYS = ("atreon", "o-fi", "/N:", "TL", "or:", "novel", "uxia", "royalroad")
_EN_WEB_MARKERS_BY_KEY = {
    key: tuple((marker, marker.index(key)) for marker in _EN_WEB_MARKERS if key in marker)
    for key in _EN_WEB_KEYS
}
if sorted(m for pairs in _EN_WEB_MARKERS_BY_KEY.values() for m, _ in pairs) != sorted(
    _EN_WEB_MARKERS
):
    raise AssertionError("every en-web marker must hold exactly one key")
_EN_WEB_SEARCH_CHARS = 300_000


def has_gutenberg_markers(text: str) -> bool:
    """True when a PG start/end marker occurs near the start or the end of `text`."""
    if not contains_any(text, ("utenberg", "UTENBERG", "SMALL PRINT")):
        return False
    head = text[:_PG_SEARCH_CHARS]
    tail = text[-_PG_SEARCH_CHARS:] if len(text) > _PG_SEARCH_CHARS else ""
    return _PG_MARKER.search(head) is not None or _PG_MARKER.search(tail) is not None


def select_rulesets(language: str, source_kind: str, text: str) -> list[str]:
    """The rule sets "auto" stands for, for a text in `language` from a `source_kind` source.

    `language` is a language code ("zh", "en", "zh-Hans", ...); `source_kind` is one of
    "files", "urls", "gutenberg", "hf". See the module docstring for the decisions.
    """
    base = base_language(language)
    chosen = {"common"}
    if base in ("zh", "en", "ja"):
        chosen.add(base)
    if source_kind == "gutenberg" or has_gutenberg_markers(text):
        chosen.add("gutenberg")
    if base == "zh":
        chosen.add("zh-web")
    if base == "en" and (source_kind == "urls" or has_en_web_markers(text)):
        chosen.add("en-web")
    return [name for name in KNOWN_RULESETS if name in chosen]


def has_en_web_markers(text: str) -> bool:
    """True when a web-serial marker occurs in the first 300,000 characters of `text`."""
    head = text[:_EN_WEB_SEARCH_CHARS]  # sliced once: a copy per search would cost more
    for key, markers in _EN_WEB_MARKERS_BY_KEY.items():
        position = head.find(key)
        while position >= 0:
            if any(
                position >= at and head.startswith(marker, position - at) for marker, at in markers
            ):
                return True
            position = head.find(key, position + 1)
    return False


def resolve_rulesets(
    requested: Sequence[str], language: str, source_kind: str, text: str
) -> list[str]:
    """Expand "auto" and check names; raises ValueError naming an unknown rule set."""
    chosen: set[str] = set()
    for name in requested:
        if name == AUTO:
            chosen.update(select_rulesets(language, source_kind, text))
        elif name in RULESETS:
            chosen.add(name)
        else:
            raise UserError(
                f"cleaning.rulesets: unknown rule set {name!r}; "
                f"known: {', '.join((AUTO, *KNOWN_RULESETS))}"
            )
    return [name for name in KNOWN_RULESETS if name in chosen]


def ordered_rules(rulesets: Iterable[str], user_rules: Sequence[TextRule] = ()) -> list[TextRule]:
    """The rules of `rulesets` in application order, with `user_rules` after the pre-phase."""
    selected = set(rulesets)
    before = [r for r in _BEFORE_USER_RULES if _RULESET_OF[r.name] in selected]
    after = [r for r in _AFTER_USER_RULES if _RULESET_OF[r.name] in selected]
    return [*before, *user_rules, *after]
