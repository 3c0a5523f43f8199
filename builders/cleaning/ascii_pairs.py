"""ASCII stand-ins for CJK paired punctuation, learned per book (`zh/ascii-quote-pairs`).

Some sites re-encode CJK quotes and title brackets as ASCII symbols their pipeline
could handle: the shared 红楼梦 writes inner quotes as `` `西厢-`琵琶- `` (‘西厢’‘琵琶’)
and closes a title bracket with ASCII ``>>`` (`《西厢记>>`). Which symbols a site
picked differs per site, so nothing here names them: the pair is learned from the
book's own statistics.

What is learned (decisions):
* Candidate tokens are runs of one or two equal ASCII symbols from `CANDIDATES` that
  touch CJK text. Excluded: `, ; : ! . ? ( )` (`zh/ascii-punctuation` converts those,
  so the two rules never act on the same symbol) and `"` (straight double quotes are
  left alone: see `zh_rules`).
* An (opener, closer) pair of *different* tokens is learned when the opener, wherever
  it touches CJK text, is closed by the closer (the next candidate token, on the same
  line, within `WINDOW` characters) at least `MIN_CONSISTENCY` of the time, and at
  least `MIN_SHORT_SPANS` of those spans enclose only 1-`SHORT_SPAN` ideographs (a
  quoted word, the strongest evidence). Symmetric pairs (`|…|`, `-…-`) are never
  learned: a separator (`首页|原创书库|`) looks the same. Matched ASCII brackets
  (`[…]`, `{…}`, `<…>`) are brackets in their own right, not stand-ins, and are not
  learned either.
* Mixed form: an ASCII lookalike of a CJK title bracket (``>>`` for 》, ``>`` for 〉,
  ``<<`` for 《, ``<`` for 〈) standing where the real opener/closer beside it needs
  its partner (`《西厢记>>`) is learned when it does so at least `MIN_MIXED` times and
  in `MIN_CONSISTENCY` of its uses touching CJK text; the shape plus the partner make
  the evidence, so fewer uses are needed.

What is changed (decision: repair, not only flag). The symbols are damage of one
character each (the site's substitution), and the pair is already in the text: the
rule restores the punctuation the text has, it invents none. Each learned opener that
touches CJK text becomes the CJK opener, even when its closer was lost (`名`群芳髓。”`
-> `名‘群芳髓。”`: the lone ` is still a quote mark in this book); a closer changes only
where it closes a learned opener (`-` is a dash elsewhere). The CJK pair is the
book's own inner quote: ‘’ (the inner quote of simplified Chinese, which 红楼梦 also
uses 64 times itself), or 『』 when the book's outer quotes are 「」. ‘’ is the neutral
choice between a quoted word and a title (`西厢` is a play): the symbols do not tell
them apart. ``<<…>>`` pairs become 《》. Every replaced symbol is one counted change.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from lengthwise.builders.cleaning.learned import LearnedLine
from lengthwise.builders.cleaning.ledger import Edit, apply_edits
from lengthwise.builders.cleaning.rules import (
    MAX_EXAMPLES,
    OutcomeRule,
    RuleOutcome,
    ascii_index,
    format_example,
)

NAME = "zh/ascii-quote-pairs"
CANDIDATES = "`~^|-<>[]{}'_*#+=/\\@$%&"
WINDOW = 200  # characters from an opener to its closer, on one line
SHORT_SPAN = 12  # ideographs in a "quoted word" span
MIN_SHORT_SPANS = 10
MIN_CONSISTENCY = 0.75
MIN_MIXED = 3
_BRACKETS = {("[", "]"), ("{", "}"), ("<", ">")}
_LOOKALIKE_CLOSERS = {">>": ("《", "》"), ">": ("〈", "〉")}
_LOOKALIKE_OPENERS = {"<<": ("《", "》"), "<": ("〈", "〉")}
_RUNS = {symbol: re.compile(re.escape(symbol) + "+") for symbol in CANDIDATES}
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
# A character of CJK text: ideographs, CJK and full-width punctuation, curly quotes
# (the residual-noise audit's `ascii_symbol` class uses the same class of characters).
CJK_TEXT_CHAR = re.compile(
    r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef“”‘’—…]"
)


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    symbol: str  # the run of one or two equal symbols


@dataclass(frozen=True)
class LearnedPair:
    """A learned stand-in: ASCII opener/closer (either may be a real CJK bracket)."""

    opener: str
    closer: str
    cjk_open: str
    cjk_close: str
    why: str


def cjk_tokens(text: str) -> list[Token]:
    """Runs of 1-2 equal candidate symbols touching CJK text (C-level scans)."""
    index = ascii_index(text)
    if index is None:
        return []
    tokens = []
    for start, end in _symbol_runs(text, index[1].intersection(CANDIDATES)):
        if end - start > 2:
            continue
        if _is_cjk(text, start - 1) or _is_cjk(text, end):
            tokens.append(Token(start, end, text[start:end]))
    return tokens


def _symbol_runs(text: str, symbols: frozenset[str]) -> list[tuple[int, int]]:
    """(start, end) of every maximal run of one symbol of `symbols`, in text order.

    Only symbols the text holds are searched, each with `str.find` (much faster than
    a character-class scan of a CJK book, where the symbols are a few hundred).
    """
    runs = []
    for symbol in symbols:
        run = _RUNS[symbol]
        position = text.find(symbol)
        while position >= 0:
            match = run.match(text, position)  # always matches: the symbol is there
            end = position + 1 if match is None else match.end()
            runs.append((position, end))
            position = text.find(symbol, end)
    runs.sort()
    return runs


def _is_cjk(text: str, at: int) -> bool:
    return 0 <= at < len(text) and CJK_TEXT_CHAR.match(text, at) is not None


def _closer_of(text: str, tokens: list[Token], i: int) -> Token | None:
    """The token closing tokens[i]: the next token, on its line, within WINDOW, not equal."""
    if i + 1 >= len(tokens):
        return None
    opener, nxt = tokens[i], tokens[i + 1]
    if nxt.symbol == opener.symbol or nxt.start - opener.end > WINDOW:
        return None
    if "\n" in text[opener.end : nxt.start]:
        return None
    return nxt


def _inner_quote(text: str) -> tuple[str, str]:
    return ("『", "』") if text.count("「") > text.count("“") else ("‘", "’")


def _count_spans(
    text: str, tokens: list[Token]
) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]]]:
    """Per (opener, closer): spans closed, and those around 1-SHORT_SPAN ideographs only."""
    closed: Counter[tuple[str, str]] = Counter()
    short: Counter[tuple[str, str]] = Counter()
    for i, token in enumerate(tokens):
        closing = _closer_of(text, tokens, i)
        if closing is None or (token.symbol, closing.symbol) in _BRACKETS:
            continue
        key = (token.symbol, closing.symbol)
        closed[key] += 1
        inner = text[token.end : closing.start]
        if len(inner) <= SHORT_SPAN and _HAN.fullmatch(inner):
            short[key] += 1
    return closed, short


def learn_pairs(text: str, tokens: list[Token]) -> list[LearnedPair]:
    """The ASCII-ASCII pairs this book uses for CJK quotes (see the module docstring)."""
    uses: Counter[str] = Counter(token.symbol for token in tokens)
    closed, short = _count_spans(text, tokens)
    learned: list[LearnedPair] = []
    inner_open, inner_close = _inner_quote(text)
    for (opener, closer), count in closed.most_common():
        share = count / uses[opener]
        if short[(opener, closer)] < MIN_SHORT_SPANS or share < MIN_CONSISTENCY:
            continue
        # One role per symbol: a closer followed by the next opener (`好-`了-) must not
        # make a second, reversed pair.
        if any({opener, closer} & {pair.opener, pair.closer} for pair in learned):
            continue
        both_lookalike = opener in _LOOKALIKE_OPENERS and closer in _LOOKALIKE_CLOSERS
        cjk = ("《", "》") if both_lookalike else (inner_open, inner_close)
        why = (
            f"{opener} closed by {closer} in {count} of its {uses[opener]} uses by CJK text "
            f"({share:.0%}), {short[(opener, closer)]} around a word of 1-{SHORT_SPAN} ideographs"
        )
        learned.append(LearnedPair(opener, closer, *cjk, why))
    return learned


def _mixed_edits(text: str, tokens: list[Token]) -> Iterator[tuple[str, Edit]]:
    """(lookalike, edit) for each lookalike standing in for the partner of a real bracket."""
    for token in tokens:
        if token.symbol in _LOOKALIKE_CLOSERS:
            real_open, real_close = _LOOKALIKE_CLOSERS[token.symbol]
            line_start = max(text.rfind("\n", 0, token.start) + 1, token.start - WINDOW)
            before = text[line_start : token.start]
            if before.rfind(real_open) > before.rfind(real_close):
                yield token.symbol, (token.start, token.end, real_close)
        elif token.symbol in _LOOKALIKE_OPENERS:
            real_open, real_close = _LOOKALIKE_OPENERS[token.symbol]
            after = text[token.end : token.end + WINDOW].split("\n", 1)[0]
            at_close = after.find(real_close)
            if at_close >= 0 and not 0 <= after.find(real_open) < at_close:
                yield token.symbol, (token.start, token.end, real_open)


def learn_mixed(text: str, tokens: list[Token]) -> list[tuple[LearnedPair, list[Edit]]]:
    """Lookalike brackets beside a real partner (`《西厢记>>`), with their edits."""
    uses: Counter[str] = Counter(token.symbol for token in tokens)
    found: dict[str, list[Edit]] = {}
    for symbol, edit in _mixed_edits(text, tokens):
        found.setdefault(symbol, []).append(edit)
    learned: list[tuple[LearnedPair, list[Edit]]] = []
    for symbol, edits in found.items():
        share = len(edits) / uses[symbol]
        if len(edits) < MIN_MIXED or share < MIN_CONSISTENCY:
            continue
        if symbol in _LOOKALIKE_CLOSERS:
            real_open, real_close = _LOOKALIKE_CLOSERS[symbol]
            opener, closer = real_open, symbol
        else:
            real_open, real_close = _LOOKALIKE_OPENERS[symbol]
            opener, closer = symbol, real_close
        why = (
            f"{symbol} pairs with a real {real_open}…{real_close} in {len(edits)} of its "
            f"{uses[symbol]} uses by CJK text ({share:.0%})"
        )
        learned.append((LearnedPair(opener, closer, real_open, real_close, why), edits))
    return learned


@dataclass
class _Repairs:
    """Edits under each learned pair, and one example per repaired span."""

    edits: list[Edit]
    per_pair: Counter[LearnedPair]
    examples: list[str]

    def add(self, text: str, pair: LearnedPair, edits: list[Edit]) -> None:
        self.edits += edits
        self.per_pair[pair] += len(edits)
        if len(self.examples) < MAX_EXAMPLES:
            start, end = edits[0][0], edits[-1][1]
            repaired = apply_edits(
                text[start:end], [(s - start, e - start, r) for s, e, r in edits]
            )
            self.examples.append(format_example(text, start, end, repaired))


def _repair_pairs(
    text: str, tokens: list[Token], pairs: list[LearnedPair], repairs: _Repairs
) -> None:
    """Each learned opener, and the closer that closes it, become the CJK pair."""
    by_opener = {pair.opener: pair for pair in pairs}
    closing: set[int] = set()
    for i, token in enumerate(tokens):
        pair = by_opener.get(token.symbol)
        if pair is None or i in closing:
            continue
        edits = [(token.start, token.end, pair.cjk_open)]
        closer = _closer_of(text, tokens, i)
        if closer is not None and closer.symbol == pair.closer:
            closing.add(i + 1)
            edits.append((closer.start, closer.end, pair.cjk_close))
        repairs.add(text, pair, edits)


def repair_ascii_pairs(text: str) -> RuleOutcome:
    """Learn this book's ASCII quote pairs and replace them (see the module docstring)."""
    tokens = cjk_tokens(text)
    if not tokens:
        return RuleOutcome(text, 0)
    pairs = learn_pairs(text, tokens)
    repairs = _Repairs([], Counter(), [])
    _repair_pairs(text, tokens, pairs, repairs)
    taken = {start for start, _, _ in repairs.edits}
    mixed = learn_mixed(text, tokens)
    for pair, edits in mixed:
        for edit in edits:
            if edit[0] not in taken:
                repairs.add(text, pair, [edit])
    if not repairs.edits:
        return RuleOutcome(text, 0)
    all_edits = tuple(sorted(repairs.edits))
    learned = tuple(
        LearnedLine(NAME, f"{p.opener}…{p.closer} → {p.cjk_open}…{p.cjk_close}",
                    repairs.per_pair[p], "book", p.why)
        for p in (*pairs, *(pair for pair, _ in mixed))
        if repairs.per_pair[p]
    )  # fmt: skip
    return RuleOutcome(
        apply_edits(text, all_edits),
        len(all_edits),
        repairs.examples,
        edits=all_edits,
        learned=learned,
    )


ASCII_QUOTE_PAIRS = OutcomeRule(
    name=NAME,
    description=(
        "ASCII symbol pairs a site put in place of CJK quotes or title brackets, learned "
        "per book (`西厢-` -> ‘西厢’, `《西厢记>>` -> 《西厢记》); one change per symbol."
    ),
    change=repair_ascii_pairs,
    languages=("zh",),
)
