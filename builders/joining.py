"""How chapters are joined into sample text, and exact token counts of joined runs.

A sample's text is its chapters rendered (heading line, then body) and joined with a
blank line. For regex-pretokenized BPE tokenizers (tiktoken encodings, Qwen) and
`chars`, a token count is additive across a point where a new pretoken must start.
Every pretoken pattern of those tokenizers that can contain a newline ends at
whitespace, so the first non-whitespace character after a newline always starts a
new pretoken. Hence, for a run of chapters f..l:

    count(joined) = sum(count(render(c_i) + SEPARATOR) for i in f..l-1) + count(render(c_l))

where each term is counted once per chapter and cached. Rendered chapters carry no
leading or trailing whitespace and every heading starts with a non-space character, so
each chapter after a separator starts a new pretoken. Other tokenizers (hf:, sp:,
deepseek) give no such guarantee: their samples are recounted in full. The build's
tests check the identity against full recounts on real books.
"""

from __future__ import annotations

from lengthwise.records import Book, Chapter
from lengthwise.tokenizers.ids import parse_tokenizer_id

CHAPTER_SEPARATOR = "\n\n"
_ADDITIVE_KINDS = frozenset({"tiktoken", "qwen", "chars"})


def render_chapter(chapter: Chapter) -> str:
    """A chapter as samples show it: the heading line as printed, then the body."""
    body = chapter.text.lstrip("\r\n").rstrip()
    heading = chapter.heading.strip()
    return f"{heading}\n{body}" if heading else body.lstrip()


def sample_text(book: Book, first: int, last: int) -> str:
    return CHAPTER_SEPARATOR.join(render_chapter(c) for c in book.chapters[first : last + 1])


def last_pretoken_start(rendered: str) -> int:
    """Where the rendered chapter's last line starts a new pretoken.

    The first non-whitespace character after a newline always starts a new pretoken (see
    the module docstring), so the text splits there with additive counts; 0 when the
    chapter is a single line.
    """
    newline = rendered.rfind("\n")
    if newline < 0:
        return 0
    cut = newline + 1
    while cut < len(rendered) and rendered[cut].isspace():
        cut += 1
    return cut if cut < len(rendered) else 0


# Characters that are punctuation, symbols or spaces in every Unicode version and so can
# never be part of a letter or number pretoken (no letters, digits, combining marks).
_NON_WORD = frozenset(
    " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
    "。，、；：？！“”‘’（）《》〈〉「」『』【】〔〕…—–～·・﹏\u3000"
)
_MAX_NON_WORD_TAIL = 32


def _is_word_end(char: str) -> bool:
    """An ASCII letter or digit, or a CJK ideograph: a letter or number pretoken ends here."""
    return (char.isascii() and char.isalnum()) or "\u4e00" <= char <= "\u9fff"


def word_end_start(rendered: str) -> int:
    """Where a short run of punctuation after the chapter's last word starts, or -1.

    In every additive tokenizer's pretoken pattern, a letter or number pretoken ends at
    the first character that is not a letter, number or combining mark, and no pretoken
    reaches back over it: so the position after the last word character is a pretoken
    boundary whatever follows (the separator included). Only provable cases are used:
    the run after that word must be made of `_NON_WORD` characters (no newline, no
    mark) and be short; otherwise -1.
    """
    position = len(rendered)
    floor = max(0, position - _MAX_NON_WORD_TAIL)
    while position > floor and rendered[position - 1] in _NON_WORD:
        position -= 1
    if position > 0 and _is_word_end(rendered[position - 1]):
        return position
    return -1


def followed_tail(rendered: str) -> str:
    """The part of a rendered chapter whose count changes when the separator follows it.

    count(rendered + SEPARATOR) == count(rendered) - count(tail) + count(tail + SEPARATOR)
    for tokenizers that join exactly: the corpus stage counts only the short tail twice,
    not the whole chapter. The tail starts after the last word when that is provably a
    pretoken boundary (`word_end_start`: usually one to three punctuation marks), else
    at the last line (`last_pretoken_start`).
    """
    start = word_end_start(rendered)
    return rendered[start if start >= 0 else last_pretoken_start(rendered) :]


def joins_exactly(tokenizer_id: str) -> bool:
    """Whether run counts follow from per-chapter counts (see module docstring)."""
    return parse_tokenizer_id(tokenizer_id).kind in _ADDITIVE_KINDS


def run_tokens(book: Book, first: int, last: int, tokenizer_id: str) -> int:
    """Exact count of `sample_text(book, first, last)` for a tokenizer that joins exactly."""
    chapters = book.chapters
    head = sum(chapters[i].token_counts_followed[tokenizer_id] for i in range(first, last))
    return head + chapters[last].token_counts[tokenizer_id]
