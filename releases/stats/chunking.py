"""Cutting a sample's context into chunks of at most N tokens (ETHIC's IC unit: 512).

Tokens are counted with the spec's primary tokenizer (the `Tokenizer` protocol can
count but not decode, so chunks are cut on text boundaries, never on token ids):

1. the text is split after every newline (lines are paragraphs in Chinese e-texts;
   English hard-wrapped lines are just shorter pieces);
2. a line over the limit is split after sentence ends (。！？；… ! ? . plus closing
   quotes), and a sentence still over the limit into character windows whose exact
   counts are checked;
3. pieces are packed greedily in order while the sum of their counts stays within the
   limit; each packed chunk is then counted exactly (a BPE tokenizer may merge across
   a boundary) and halved by pieces in the rare case it is over.

Chunks concatenate back to the original text (whitespace-only chunks are dropped).
"""

from __future__ import annotations

import re

from lengthwise.tokenizers import Tokenizer

DEFAULT_CHUNK_TOKENS = 512
_AFTER_NEWLINE = re.compile(r"(?<=\n)")
_AFTER_SENTENCE = re.compile(r"(?<=[。！？；…!?.;])(?![。！？；…!?.;”’」』\"')）》])")


def _char_windows(text: str, tokenizer: Tokenizer, limit: int) -> list[str]:
    """Consecutive character windows of `text`, each at most `limit` tokens."""
    out: list[str] = []
    rest = text
    while rest:
        total = tokenizer.count(rest)
        if total <= limit:
            out.append(rest)
            break
        size = max(1, int(len(rest) * limit / total * 0.95))
        while size > 1 and tokenizer.count(rest[:size]) > limit:
            size = max(1, int(size * 0.9))
        out.append(rest[:size])
        rest = rest[size:]
    return out


def _pieces(text: str, tokenizer: Tokenizer, limit: int) -> list[tuple[str, int]]:
    """Text pieces (lines, else sentences, else windows) of at most `limit` tokens each."""
    pieces: list[tuple[str, int]] = []
    for line in _AFTER_NEWLINE.split(text):
        if not line:
            continue
        count = tokenizer.count(line)
        if count <= limit:
            pieces.append((line, count))
            continue
        for sentence in _AFTER_SENTENCE.split(line):
            if not sentence:
                continue
            count = tokenizer.count(sentence)
            if count <= limit:
                pieces.append((sentence, count))
            else:
                pieces += [
                    (w, tokenizer.count(w)) for w in _char_windows(sentence, tokenizer, limit)
                ]
    return pieces


def _emit(pieces: list[str], tokenizer: Tokenizer, limit: int, out: list[str]) -> None:
    text = "".join(pieces)
    if len(pieces) == 1 or tokenizer.count(text) <= limit:
        out.append(text)
        return
    middle = len(pieces) // 2
    _emit(pieces[:middle], tokenizer, limit, out)
    _emit(pieces[middle:], tokenizer, limit, out)


def chunk_text(
    text: str, tokenizer: Tokenizer, max_tokens: int = DEFAULT_CHUNK_TOKENS
) -> list[str]:
    """`text` cut into consecutive chunks of at most `max_tokens` tokens of `tokenizer`."""
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be positive, got {max_tokens}")
    packed: list[list[str]] = []
    current: list[str] = []
    current_count = 0
    for piece, count in _pieces(text, tokenizer, max_tokens):
        if current and current_count + count > max_tokens:
            packed.append(current)
            current, current_count = [], 0
        current.append(piece)
        current_count += count
    if current:
        packed.append(current)
    chunks: list[str] = []
    for group in packed:
        _emit(group, tokenizer, max_tokens, chunks)
    return [c for c in chunks if c.strip()]
