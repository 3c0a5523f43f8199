"""Cutting a context into chunks of at most N tokens at paragraph, then sentence, boundaries.

Counts are exact in the primary tokenizer (`ctx.count_tokens`). Paragraphs (lines) are
packed greedily by their own counts; a paragraph longer than N is cut into sentences
after end punctuation (and closing quotes), and a sentence longer than N into equal
pieces of characters; no character but line-edge whitespace is ever lost. Every packed
chunk is then recounted, and one that a tokenizer merged past N at a joint is halved
until it fits, so no chunk ever exceeds N.
"""

from __future__ import annotations

import itertools
import math
import re

from lengthwise.builders.tasks.base import CountTokens

JOINT = "\n"
# A sentence ends after a run of end marks plus closing quotes (zh), or after . ! ? plus
# closing quotes before whitespace (en).
_SENTENCE_END = re.compile(r"[。！？!?；;…]+[”’」』\"')）]*|[.!?]+[\"'”’)]*(?=\s)")


def split_into_chunks(text: str, max_tokens: int, count_tokens: CountTokens) -> list[str]:
    """`text` as consecutive chunks of at most `max_tokens` tokens each (empty lines dropped)."""
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be positive, got {max_tokens}")
    lines = [line.rstrip() for line in text.split("\n") if line.strip()]
    units = _units(lines, max_tokens, count_tokens)
    groups = _pack(units, count_tokens(units), max_tokens)
    return _fitted(groups, max_tokens, count_tokens)


def _units(pieces: list[str], max_tokens: int, count_tokens: CountTokens) -> list[str]:
    """Pieces that each fit alone: paragraphs, else their sentences, else character cuts."""
    out: list[str] = []
    for piece, tokens in zip(pieces, count_tokens(pieces), strict=True):
        if tokens <= max_tokens:
            out.append(piece)
            continue
        parts = _sentences(piece)
        if len(parts) <= 1:
            step = max(1, math.floor(len(piece) * max_tokens / tokens * 0.9))
            parts = [piece[k : k + step] for k in range(0, len(piece), step)]
        out += _units(parts, max_tokens, count_tokens)
    return out


def _sentences(paragraph: str) -> list[str]:
    cuts = [m.end() for m in _SENTENCE_END.finditer(paragraph)]
    bounds = [0, *cuts, len(paragraph)]
    pieces = [paragraph[a:b] for a, b in itertools.pairwise(bounds)]
    return [p for p in pieces if p.strip()]


def _pack(units: list[str], counts: list[int], max_tokens: int) -> list[list[str]]:
    groups: list[list[str]] = [[]]
    size = 0
    for unit, tokens in zip(units, counts, strict=True):
        if groups[-1] and size + tokens + 1 > max_tokens:
            groups.append([])
            size = 0
        groups[-1].append(unit)
        size += tokens + 1  # + the joint
    return [g for g in groups if g]


def _fitted(groups: list[list[str]], max_tokens: int, count_tokens: CountTokens) -> list[str]:
    """Each group joined; a joined group over the limit is halved until it fits (a single
    unit always fits: `_units` made it so)."""
    texts = [JOINT.join(g) for g in groups]
    out: list[str] = []
    for group, text, tokens in zip(groups, texts, count_tokens(texts), strict=True):
        if tokens <= max_tokens or len(group) == 1:
            out.append(text)
        else:
            half = len(group) // 2
            out += _fitted([group[:half], group[half:]], max_tokens, count_tokens)
    return out
