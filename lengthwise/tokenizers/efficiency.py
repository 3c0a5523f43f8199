"""Encoding efficiency: characters per token, per tokenizer and language (CNNSum Table 1).

Characters are the text's non-whitespace characters, for every language.
Whitespace is left out so that the ratio does not depend on line endings
(CRLF vs LF), indentation (full-width spaces in Chinese e-texts) or the word
spacing of alphabetic languages; for Chinese it is then essentially CNNSum's
"characters" (Hanzi and punctuation). Tokens are counted on the full text,
whitespace included, as a model would see it. English ratios are therefore
lower than the often-quoted "4 characters per token", which counts spaces.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lengthwise.storage import sha256_text
from lengthwise.tokenizers.counting import TokenCountCache, count_texts


@dataclass(frozen=True)
class EfficiencyRow:
    """Totals over one language's texts for one tokenizer."""

    language: str
    tokenizer_id: str
    characters: int  # non-whitespace characters
    tokens: int
    chars_per_token: float  # NaN when there are no tokens


def non_whitespace_characters(text: str) -> int:
    """Characters that are not whitespace (str.isspace: includes U+3000 and CR/LF)."""
    return sum(len(piece) for piece in text.split())


def encoding_efficiency(
    texts_by_language: Mapping[str, Sequence[str]],
    tokenizer_ids: Sequence[str],
    cache: TokenCountCache | None = None,
    workers: int = 1,
) -> list[EfficiencyRow]:
    """Characters per token for each (language, tokenizer), in input order.

    Each text is tokenized whole; characters and tokens are summed over a
    language's texts before dividing (a weighted, not a per-text, mean).
    """
    rows: list[EfficiencyRow] = []
    for language, texts in texts_by_language.items():
        pairs = [(sha256_text(text), text) for text in texts]
        counts = count_texts(pairs, tokenizer_ids, cache=cache, workers=workers)
        characters = sum(non_whitespace_characters(text) for text in texts)
        for tokenizer_id in dict.fromkeys(tokenizer_ids):
            tokens = sum(counts[tokenizer_id])
            ratio = characters / tokens if tokens else math.nan
            rows.append(EfficiencyRow(language, tokenizer_id, characters, tokens, ratio))
    return rows


def efficiency_markdown(rows: Sequence[EfficiencyRow], digits: int = 2) -> str:
    """A Markdown table: one row per tokenizer, one column per language (chars/token)."""
    languages = list(dict.fromkeys(row.language for row in rows))
    tokenizers = list(dict.fromkeys(row.tokenizer_id for row in rows))
    cells = {(row.tokenizer_id, row.language): row for row in rows}
    characters = {row.language: row.characters for row in rows}

    def cell(tokenizer_id: str, language: str) -> str:
        row = cells.get((tokenizer_id, language))
        if row is None or math.isnan(row.chars_per_token):
            return "n/a"
        return f"{row.chars_per_token:.{digits}f}"

    header = "| Tokenizer | " + " | ".join(languages) + " |"
    rule = "|---|" + "---:|" * len(languages)
    body = [
        f"| `{tokenizer_id}` | " + " | ".join(cell(tokenizer_id, lang) for lang in languages) + " |"
        for tokenizer_id in tokenizers
    ]
    sizes = ", ".join(f"{lang}: {characters[lang]:,}" for lang in languages)
    note = (
        "Characters per token (non-whitespace characters / tokens of the full text; "
        f"characters per language: {sizes})."
    )
    return "\n".join([header, rule, *body, "", note]) + "\n"
