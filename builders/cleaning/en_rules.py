"""The `en` and `en-web` rule sets.

`en` (Gutenberg-style plain text):
* whole blocks (see `en_blocks`): illustrations up to their closing bracket (a chapter
  heading inside kept), copyright/disclaimer notices, footnote sections and
  paragraphs, back matter after the story;
* `[Footnote 1: …]` bodies and `[1]` / `[A]` markers glued to a word: editorial.
  Bracketed stage directions (`[Applausive titter.]`) are story and never match.
* `_italics_`: PG marks emphasis with underscores; the words stay, the marks go
  (they are markup, and tokenizers spend tokens on them).

`en-web` (English web serials, translations): translator/editor credit lines,
author/translator note lines, support pleas (Patreon, Ko-fi, Discord) and
aggregator adverts naming a domain.
"""

from __future__ import annotations

import re

from lengthwise.builders.cleaning.back_matter import EN_BACK_MATTER
from lengthwise.builders.cleaning.blocks import CuedBlockRule
from lengthwise.builders.cleaning.en_blocks import (
    FOOTNOTE_BLOCK,
    ILLUSTRATION,
    NOTICE_BLOCK,
    TRANSCRIBER_NOTE,
)
from lengthwise.builders.cleaning.line_rules import LineRule
from lengthwise.builders.cleaning.rules import HSPACE, BlockRule, Rule
from lengthwise.builders.cleaning.symbol_footnotes import SUPERSCRIPT_MARKER, SYMBOL_FOOTNOTE
from lengthwise.builders.cleaning.unmarked_footnotes import UNMARKED_FOOTNOTE

_EN = ("en",)

FOOTNOTE_TEXT = Rule(
    name="en/footnote-text",
    description="Footnote bodies in PG's [Footnote 1: …] form (whole lines when alone).",
    pattern=re.compile(
        rf"\n(?:{HSPACE}*\n)*{HSPACE}*\[Footnote(?:{HSPACE}+[0-9A-Za-z*]{{1,4}})?:[^\]\[]{{0,3000}}\]"
        rf"{HSPACE}*(?=\n|\Z)"
        rf"|\[Footnote(?:{HSPACE}+[0-9A-Za-z*]{{1,4}})?:[^\]\[]{{0,3000}}\]"
    ),
    languages=_EN,
    triggers=("[Footnote",),
    line_start=True,
)

FOOTNOTE_MARKER = Rule(
    name="en/footnote-marker",
    description="Footnote markers glued to a word or punctuation: word[1], word.[12], word[A].",
    # Starts with the literal `[` (fast scan); the look-behind wants a word or punctuation.
    pattern=re.compile(r"\[(?<=[\w.,;:!?'\"’”)]\[)(?:\d{1,3}|[A-Z]|\*{1,3})\]"),
    languages=_EN,
    triggers=("[",),
)

UNDERSCORE_EMPHASIS = Rule(
    name="en/underscore-emphasis",
    description="PG emphasis underscores: _word_ / _a few words_ keep the words, lose the "
    "underscores (within one paragraph).",
    pattern=re.compile(
        r"_(?<![\w_]_)(?=[^\s_])((?:[^_\n]|\n(?![^\S\n]*\n)){1,300}?)(?<=[^\s_])_(?![\w_])"
    ),
    replacement=r"\1",
    languages=_EN,
    triggers=("_",),
)

RULES: tuple[Rule | BlockRule | CuedBlockRule, ...] = (
    TRANSCRIBER_NOTE,
    ILLUSTRATION,
    NOTICE_BLOCK,
    FOOTNOTE_BLOCK,
    FOOTNOTE_TEXT,
    FOOTNOTE_MARKER,
    # Before the paired notes go: it learns their layout from them.
    UNMARKED_FOOTNOTE,
    SYMBOL_FOOTNOTE,
    SUPERSCRIPT_MARKER,
    UNDERSCORE_EMPHASIS,
    EN_BACK_MATTER,
)
# Markers and bodies go together: `cleaning.footnotes = "keep"` turns all of these off
# (with the Chinese ones: `rulesets.FOOTNOTE_RULES`).
EN_FOOTNOTE_RULES: tuple[str, ...] = (
    FOOTNOTE_BLOCK.name,
    FOOTNOTE_TEXT.name,
    FOOTNOTE_MARKER.name,
    UNMARKED_FOOTNOTE.name,
    SYMBOL_FOOTNOTE.name,
    SUPERSCRIPT_MARKER.name,
)

# --- en-web -------------------------------------------------------------------------


def _whole_line(content: str) -> re.Pattern[str]:
    return re.compile(rf"^{HSPACE}*(?:{content}){HSPACE}*$")


CREDIT_LINE = LineRule(
    name="en-web/credit-line",
    description="Short translator/editor credit lines (Translator: …, Editor: …, TL: …, "
    "ED: …, Proofreader: …, Translated by …).",
    pattern=_whole_line(
        r"(?:Translators?|Editors?|Proofreaders?|TL|ED|PR|TLC|Translated by|Edited by|"
        r"Proofread by)[:：]?[^\S\n]+.{1,60}"
    ),
    anchors=("Translat", "Edit", "Proofread", "TL", "ED", "PR"),
    languages=_EN,
)

AUTHOR_NOTE = LineRule(
    name="en-web/author-note",
    description="Author or translator note lines: A/N: …, AN: …, Author's Note: …, T/N: …, "
    "TL Note: ….",
    pattern=_whole_line(
        r"[(\[]?(?:A/N|AN|Author['’]?s? [Nn]ote|T/N|TN|TL [Nn]ote|Translator['’]?s? [Nn]ote)"
        r"[:：].{0,1500}"
    ),
    anchors=("A/N", "AN:", "AN：", "ote", "T/N", "TN:"),
    languages=_EN,
)

SUPPORT_PLEA = LineRule(
    name="en-web/support-plea",
    description="Short lines asking readers to support, join or check out Patreon, Ko-fi or "
    "Discord.",
    pattern=_whole_line(
        r"(?=.{0,200}(?:[Pp]atreon|[Kk]o-?fi|Discord))"
        r"(?=.{0,200}(?i:support|join|check out|become a|donat|link|advance chapters|"
        r"chapters ahead|tier)).{1,240}"
    ),
    anchors=("atreon", "o-fi", "o-Fi", "Kofi", "kofi", "Discord"),
    languages=_EN,
)

_DOMAIN = (
    r"[A-Za-z0-9-]{2,40}(?:\.[A-Za-z0-9-]{2,40})*\.(?:com|net|org|site|co|io|info|me|xyz|us)\b"
)
AGGREGATOR_ADVERT = LineRule(
    name="en-web/site-advert",
    description="Short lines advertising an aggregator by domain (Read the latest chapters at "
    "novelsite.com, This chapter is updated by …, Find authorized novels in Webnovel …).",
    pattern=_whole_line(
        rf"(?=.{{0,200}}{_DOMAIN})(?=.{{0,200}}(?i:read|visit|updated?|source|novel|"
        r"chapters?|find|follow|content|experience)).{1,240}"
    ),
    anchors=(".com", ".net", ".org", ".site", ".co", ".io", ".info", ".me", ".xyz", ".us"),
    languages=_EN,
)

WEB_RULES: tuple[LineRule, ...] = (CREDIT_LINE, AUTHOR_NOTE, SUPPORT_PLEA, AGGREGATOR_ADVERT)
