"""Boilerplate learned from the book (and the corpus) itself, not from site lists.

A line is furniture when its signature (see `line_signatures`) recurs and it does not
read like narrative. Decisions, per signature, on the book after the rule sets ran:

* `learned/page-marker`: holds a folded number, at most 8 letters besides it, recurs at
  least `min_repeats` times, and its number varies (distinct forms >= half the count):
  `- 12 -`, `[Page 34]`, `第12页`, `{123}`, wherever they sit; except a letterless line
  spaced and placed like chapter numbers (chapter_numbers.py), left for chapter detection.
  A bare number alone on its line is a heading candidate and goes only when placed like
  page numbers (`reads_as_page_numbers`).
* `learned/heading-marker`: a one-word line (up to 6 letters) that is, in most of its
  occurrences, the last line before a chapter heading (`正文`, `目录`, `VIP章节` on a line of their
  own), and a prefix that precedes a heading on its line in many chapters
  (`正文 第一章 …`, zh only): removed so that it does not end the previous chapter.
* `learned/boilerplate-line`: a non-prose line with two letters or more that recurs in
  at least `min_chapter_share` of the chapters (and `min_repeats` times), mostly
  (`min_edge_share`) among the first/last `edge_lines` lines of chapters: running
  headers/footers, site signatures, credits; or that recurs more than twice per
  chapter anywhere (page headers); or that holds a site word, ends no sentence and
  recurs in `min_chapter_share` of the chapters anywhere (a page's "continued on the
  next page" notice); or that is wholly in a box bracket (`【】〖〗［］[]`) or holds a
  number, ends no sentence and recurs in `min_chapter_share` of the chapters anywhere
  (a page line whose number never changes, `〖当前第1/2页〗`); or, in English, that stands
  inside a sentence in a third of its occurrences or more (page furniture falls where
  the page ends: a running head printed on every other page); or one shared with
  `min_books` other books of the corpus (`corpus_lines`).
* `learned/recurring-line`: a line of `_VERBATIM_MIN_LETTERS` letters or more printed the
  same, character for character, in `min_chapter_share` of the chapters (at least three
  chapters and `min_repeats` times), mostly away from chapter edges, in a book with three
  headings or more, at most twice per chapter holding it, with different lines around
  it each time: furniture a site or a converter drops into the middle of every
  chapter (`Back to top`, `Scanned by …, proofed by …`, `本文由网友上传至…，仅供试读`).
  A story does not print one long sentence verbatim inside a third of its chapters (none
  of the shared books does in a tenth); its formulae sit at chapter edges
  (`欲知后事如何，且听下回分解。`) and its repeated speech is short (`"Yes."`): both stay,
  and so do a line opening with a quotation mark and a line of a stanza (a refrain sung in
  every chapter comes with the same lines next to it; so does a furniture block of two
  lines or more, which stays for that reason). Prose-shaped lines qualify too, the
  only rule here that takes them without a site word; `disable_rules` turns it off for a
  book whose refrain is printed so.
* `learned/chapter-edge-template` (Chinese books): chapter-edge lines that share a frame,
  a short middle varying (`本章由「某某」校对`, the name changing; edge_templates.py).

Guards for real repetition: heading lines are never learned, nor a numbered line that
names a chapter or a part (`Chapter 12`, `第12章`: a heading its layout did not set off);
a line that ends a
sentence or holds Chinese sentence stops (dialogue, poems, refrains, `且听下回分解。`)
is never learned unless it carries a web address, or holds a site word (site_terms.py)
and recurs at chapter edges or across books (a site plea), or ends no sentence and
recurs in many chapters (a page notice); a line needs two letters or more
(scene breaks `* * *` stay); a play's speaker labels and stage directions
(`ALGERNON.`, `- Mascarille -`, `[Exit.]`: drama_lines.py) are its text, never learned.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from lengthwise.builders.chapters.heading_words import CHAPTER_WORDS, PART_WORDS
from lengthwise.builders.cleaning.chapter_numbers import (
    inside_sentence_share,
    reads_as_chapter_numbers,
    reads_as_page_numbers,
)
from lengthwise.builders.cleaning.drama_lines import play_lines
from lengthwise.builders.cleaning.edge_templates import RULE as EDGE_TEMPLATE
from lengthwise.builders.cleaning.edge_templates import edge_templates
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.line_rules import _line_removal
from lengthwise.builders.cleaning.line_signatures import (
    DIGIT_RUN,
    SENTENCE_END,
    BookLines,
    SignatureStats,
    add_headings,
    add_line_starts,
    first_lines,
    is_heading_line,
    letters,
    locate,
    looks_like_prose,
    recurring,
    split_book,
)
from lengthwise.builders.cleaning.site_terms import has_site_term
from lengthwise.builders.cleaning.unwrap import (
    INDENTS,
    may_be_hard_wrapped,
    wrap_width,
    wrapped_continuation,
)
from lengthwise.json_records import JsonRecord
from lengthwise.spec import CleaningConfig

PAGE_MARKER = "learned/page-marker"
HEADING_MARKER = "learned/heading-marker"
BOILERPLATE_LINE = "learned/boilerplate-line"
# learned/running-title runs after chapter detection (running_titles.py) and is named here
# so that `disable_rules` knows it.
RUNNING_TITLE = "learned/running-title"
CHAPTER_END_SIGNATURE = "learned/chapter-end-signature"
RECURRING_LINE = "learned/recurring-line"
REPEATED_HEADING = "learned/repeated-heading"  # (repeated_headings.py, after detection too)
LEARNED_RULES = (
    EDGE_TEMPLATE,
    PAGE_MARKER,
    HEADING_MARKER,
    BOILERPLATE_LINE,
    RECURRING_LINE,
    RUNNING_TITLE,
    CHAPTER_END_SIGNATURE,
    REPEATED_HEADING,
)
_PAGE_MARKER_MAX_LETTERS = 8
_HEADING_MARKER_MAX_LETTERS = 6  # 正文, 目录, VIP章节; longer lines are headers/footers
_MAX_LINE_SHARE = 0.25
# A recurring non-prose line inside a sentence this often is page furniture (a page break
# falls mid-sentence about two times in three, and the next word is mostly lowercase).
_MIN_INSIDE_SHARE = 1 / 3
_EVERYWHERE_MIN = 20  # a line this frequent (and > 2 per chapter) is furniture anywhere
_RISING_SHARE = 0.9  # page numbers: this share of occurrences distinct, of steps rising
# learned/recurring-line: a line this long (letters), the same in a third of the chapters,
# mostly (this share) away from their edges, in a book of this many headings or more.
_VERBATIM_MIN_LETTERS = 8
_VERBATIM_MAX_EDGE_SHARE = 0.5
_VERBATIM_MIN_HEADINGS = 3
_VERBATIM_MIN_CHAPTERS = 3
_VERBATIM_MAX_PER_CHAPTER = 2
_VERBATIM_MAX_SAME_NEIGHBOUR_SHARE = 0.5  # of occurrences beside the same line: a stanza
_OPENING_QUOTES = frozenset("\"'“‘「『《«‹")


@dataclass(frozen=True)
class LearnedLine(JsonRecord):
    """One learned piece of boilerplate in one book (for reports)."""

    rule: str
    line: str  # the first form seen
    count: int  # lines (or prefixes) removed
    scope: str  # "book" or "corpus"
    why: str


@dataclass(frozen=True)
class LearnedStep:
    """What the learned step removes from one text: named edits and the learned lines."""

    edits: list[tuple[str, Edit]]
    learned: list[LearnedLine]


def learn_and_find(
    text: str, language: str, config: CleaningConfig, corpus_lines: Collection[str] = ()
) -> LearnedStep:
    """Learn this book's boilerplate and the edits that remove it (nothing is applied)."""
    book = split_book(text, config.learned_max_line_chars)
    wanted = {
        sig: entry
        for sig, entry in recurring(book, config.learned_min_repeats, corpus_lines).items()
        if _may_be_boilerplate(sig)
    }
    for sig in play_lines(book, wanted):  # a play's speaker labels and directions
        del wanted[sig]
    if not wanted and not language.startswith("zh"):  # zh: heading prefixes, below
        return LearnedStep([], [])
    if language.startswith("en") and _all_are_headings(book, wanted, language):
        return LearnedStep([], [])
    add_headings(book, text, language)
    if wanted:
        add_line_starts(book)
    locate(book, wanted, config.learned_edge_lines)
    to_remove: list[tuple[str, int]] = []
    learned: list[LearnedLine] = []
    # Furniture is a minority of a book's lines: a line making up a quarter of them is
    # the text itself (a list, a chant, a test file of one repeated line).
    most = _MAX_LINE_SHARE * book.nonblank
    for sig, entry in wanted.items():
        if entry.count > most:
            continue
        numbers = _numbers(book, entry) if "0" in sig else ()
        letterless_number = _is_letterless_number(sig)
        chapter_numbers = letterless_number and reads_as_chapter_numbers(book, entry, language)
        # A bare number line is a heading candidate: it goes only with proof of pages.
        page_numbers = (
            entry.heading and letterless_number and reads_as_page_numbers(book, entry, language)
        )
        # English only: a Chinese line has no lowercase to show a sentence going on.
        inside = inside_sentence_share(book, entry) if language.startswith("en") else 0.0
        verdict = classify(
            sig,
            replace(entry, heading=False) if page_numbers else entry,
            len(book.prefixes),
            config,
            corpus_lines,
            numbers,
            chapter_numbers,
            inside,
        )
        if verdict is None and not entry.heading and not names_a_chapter(sig):
            verdict = recurring_verbatim(sig, entry, book, config)
        if verdict is None:
            continue
        rule, why = verdict
        scope = "corpus" if why.startswith("in ") else "book"
        learned.append(LearnedLine(rule, book.stripped[entry.lines[0]], entry.count, scope, why))
        to_remove += [(rule, index) for index in entry.lines]
    if language.startswith("zh") and book.prefixes:
        if not book.starts:
            add_line_starts(book)
        taken = {index for _, index in to_remove}
        min_chapters = config.learned_min_chapter_share * len(book.prefixes)
        for frame, indexes in edge_templates(book, min_chapters, taken):
            why = f"{len(indexes)} chapter-edge lines framed {frame}"
            learned.append(
                LearnedLine(EDGE_TEMPLATE, book.stripped[indexes[0]], len(indexes), "book", why)
            )
            to_remove += [(EDGE_TEMPLATE, index) for index in indexes]
    edits = _line_edits(text, book, _with_wrapped_pieces(text, book, to_remove))
    prefix_edits, prefix_learned = _heading_prefixes(text, book, config)
    edits += prefix_edits
    learned += prefix_learned
    edits.sort(key=lambda named: named[1][0])
    learned.sort(key=lambda line: (-line.count, line.rule, line.line))
    return LearnedStep(_drop_overlaps(edits), learned)


def _with_wrapped_pieces(
    text: str, book: BookLines, to_remove: list[tuple[str, int]]
) -> list[tuple[str, int]]:
    """`to_remove` and, for each line, the pieces below it that a fixed-width wrap cut
    from it (`unwrap.wrapped_continuation`), under the same rule."""
    indented = [(rule, i) for rule, i in to_remove if book.lines[i].startswith(INDENTS)]
    if not indented or not may_be_hard_wrapped(text):
        return to_remove
    width = wrap_width(book.lines)
    taken = {index for _, index in to_remove}
    pieces = [
        (rule, piece)
        for rule, index in indented
        for piece in wrapped_continuation(book.lines, index, width)
        if piece not in taken
    ]
    return to_remove + pieces


def _numbers(book: BookLines, entry: SignatureStats) -> list[tuple[int, ...]]:
    """The digit runs of each occurrence of a signature, in book order."""
    return [tuple(map(int, DIGIT_RUN.findall(book.stripped[i]))) for i in sorted(entry.lines)]


def _all_are_headings(book: BookLines, wanted: Collection[str], language: str) -> bool:
    """True when every wanted signature is a heading line somewhere (`CHAPTER 0`) and none
    is a bare number (which may still be a page number): heading lines are never learned,
    so nothing is, and the book's heading pass (the costly part) is skipped. English only:
    its heading candidates start their line, so there are no heading prefixes to learn
    either. Checks each signature's first line (a miss sends the book down the full path,
    which decides exactly)."""
    first = first_lines(book, wanted)
    return all(
        is_heading_line(book, index, language) and not _is_letterless_number(sig)
        for sig, index in first.items()
    )


def _is_letterless_number(sig: str) -> bool:
    """A signature of a number and decoration only: a heading candidate that may still be
    a page number (`reads_as_page_numbers`)."""
    return "0" in sig and letters(sig) == 0


def _may_be_boilerplate(sig: str) -> bool:
    """Shapes `classify` or `recurring_verbatim` can learn: page markers, lines with 2+
    letters that are not prose-shaped or hold a site word (site_terms.py), and long
    lines."""
    if "0" in sig and letters(sig) <= _PAGE_MARKER_MAX_LETTERS:
        return True
    if letters(sig) >= _VERBATIM_MIN_LETTERS:  # learned/recurring-line may take it
        return True
    return letters(sig) >= 2 and (not looks_like_prose(sig) or has_site_term(sig))


def classify(
    sig: str,
    entry: SignatureStats,
    headings: int,
    config: CleaningConfig,
    corpus_lines: Collection[str],
    numbers: Sequence[tuple[int, ...]] = (),
    chapter_numbers: bool = False,
    inside_sentences: float = 0.0,
) -> tuple[str, str] | None:
    """(rule, reason) when the signature is boilerplate, else None. `numbers`: the digit
    runs of each occurrence, in book order (for signatures holding a number);
    `chapter_numbers`: a letterless number line spaced and placed like chapter numbers,
    not page numbers (chapter_numbers.py): never a page marker; `inside_sentences`: the
    share of its occurrences inside a sentence (`chapter_numbers.inside_sentence_share`,
    English)."""
    if entry.heading or names_a_chapter(sig):
        return None
    count = entry.count
    if sig in corpus_lines:
        return BOILERPLATE_LINE, f"in {config.learned_min_books}+ books of the corpus"
    if count < config.learned_min_repeats:
        return None
    if (
        "0" in sig
        and letters(sig) <= _PAGE_MARKER_MAX_LETTERS
        and len(entry.forms) >= max(3, count / 2)
        and not chapter_numbers
    ):
        return PAGE_MARKER, f"{count} lines, {len(entry.forms)} different numbers"
    if letters(sig) < 2:
        return None
    # A prose-shaped line goes only as a site plea: with a site word, at chapter edges.
    prose = looks_like_prose(sig)
    if prose and not has_site_term(sig):
        return None
    chapter_share = count >= config.learned_min_chapter_share * headings
    marker_shaped = " " not in sig and letters(sig) <= _HEADING_MARKER_MAX_LETTERS
    if (
        not prose
        and headings
        and chapter_share
        and marker_shaped
        and entry.before_heading >= 0.8 * count
    ):
        return HEADING_MARKER, f"before {entry.before_heading} of {headings} headings"
    if chapter_share and entry.edge >= config.learned_min_edge_share * count:
        plea = ", site words" if prose else ""
        return BOILERPLATE_LINE, f"{count} lines, {entry.edge} at chapter edges{plea}"
    if chapter_share and has_site_term(sig) and sig[-1:] not in SENTENCE_END:
        # Anywhere in the chapters: a paginated site ends each page with a notice that
        # the chapter goes on (`本章未完，请点击下一页继续阅读`), mid-chapter. A line ending
        # a sentence needs the edges: the story repeats its own lines (`“且收藏好了。”`).
        return BOILERPLATE_LINE, f"{count} lines in {headings} chapters, site words"
    if prose:
        return None
    if count >= max(_EVERYWHERE_MIN, 2 * headings):
        return BOILERPLATE_LINE, f"{count} lines in {headings} chapters"
    if numbers and numbers_rise(numbers):
        return PAGE_MARKER, f"{count} lines, their numbers rising through the book"
    if inside_sentences >= _MIN_INSIDE_SHARE:
        # Page furniture: it falls where the page ends, mostly inside a sentence.
        return BOILERPLATE_LINE, f"{count} lines, {inside_sentences:.0%} of them inside a sentence"
    constant_number = "0" in sig and len(entry.forms) == 1
    if chapter_share and (_is_bracketed(sig) or constant_number):
        # Anywhere, too: a site's page line in a bracket (`〖当前第1/2页〗`) or with a
        # number that never changes, in a third of the chapters. The story repeats its
        # own formulae (`诗曰：`), not bracketed or numbered lines that end no sentence.
        # (Numbers that change are page numbers: the tests above.)
        return BOILERPLATE_LINE, f"{count} lines in {headings} chapters, {_shape(sig)}"
    return None


def recurring_verbatim(
    sig: str, entry: SignatureStats, book: BookLines, config: CleaningConfig
) -> tuple[str, str] | None:
    """`learned/recurring-line`'s verdict on a signature `classify` left (see the module
    docstring); `entry` must be located (`locate`) and `book` have its headings."""
    headings = len(book.headings)
    if (
        headings < _VERBATIM_MIN_HEADINGS
        or len(entry.forms) != 1
        or letters(sig) < _VERBATIM_MIN_LETTERS
        or sig[:1] in _OPENING_QUOTES
        or entry.count < config.learned_min_repeats
        or entry.edge > _VERBATIM_MAX_EDGE_SHARE * entry.count
    ):
        return None
    if _in_a_stanza(book, entry):
        return None
    # Chapters holding it, not occurrences: a chant sung forty times in one chapter is
    # the story's.
    chapters = len({bisect.bisect(book.headings, index) for index in entry.lines})
    needed = max(_VERBATIM_MIN_CHAPTERS, config.learned_min_chapter_share * headings)
    # About once per chapter: a line printed many times in the chapters that hold it is
    # the story's (a speaker's name in a play, a chorus).
    if chapters < needed or entry.count > _VERBATIM_MAX_PER_CHAPTER * chapters:
        return None
    return RECURRING_LINE, f"{entry.count} lines, the same in {chapters} of {headings} chapters"


def _in_a_stanza(book: BookLines, entry: SignatureStats) -> bool:
    """Whether a line mostly comes with the same line next to it (the nearest non-blank
    line above or below): a line of a refrain or a verse printed again, not furniture
    dropped between whatever paragraphs happen to be there."""
    stripped = book.stripped
    above: Counter[str] = Counter()
    below: Counter[str] = Counter()
    for index in entry.lines:
        up, down = index - 1, index + 1
        while up >= 0 and not stripped[up]:
            up -= 1
        while down < len(stripped) and not stripped[down]:
            down += 1
        above[stripped[up] if up >= 0 else ""] += 1
        below[stripped[down] if down < len(stripped) else ""] += 1
    same = max(above.most_common(1)[0][1], below.most_common(1)[0][1])
    return same >= _VERBATIM_MAX_SAME_NEIGHBOUR_SHARE * entry.count


# Brackets sites box furniture in; not quotes or parentheses, which hold the story's own
# speech and asides.
_FURNITURE_BRACKETS = {"【": "】", "〖": "〗", "〔": "〕", "［": "］", "[": "]", "{": "}"}


# A numbered line that names a chapter or a part (`Chapter 0`, `BOOK 0`, `第0章`): a heading,
# whatever the detector made of its surroundings; page furniture never says chapter.
_NAMES_A_CHAPTER = re.compile(
    rf"[^\w\s]{{0,3}}\s*(?:(?i:{'|'.join(re.escape(w) for w in CHAPTER_WORDS + PART_WORDS)})\s"
    r"|第0[章回节卷部集])"
)


def names_a_chapter(sig: str) -> bool:
    """Whether a line signature with a number is shaped like a chapter or part heading
    (one the layout did not set off: Pride and Prejudice without blank lines lost every
    `Chapter 12` line as a page marker). Such a line is never learned; a page header
    repeating its chapter's heading is `learned/repeated-heading`'s, after detection."""
    return "0" in sig and _NAMES_A_CHAPTER.match(sig) is not None


def _is_bracketed(sig: str) -> bool:
    closer = _FURNITURE_BRACKETS.get(sig[:1])
    return closer is not None and sig.endswith(closer) and sig.count(sig[0]) == 1


def _shape(sig: str) -> str:
    return "a bracketed line" if _is_bracketed(sig) else "the same number in each"


def numbers_rise(numbers: Sequence[tuple[int, ...]]) -> bool:
    """Whether the numbers on a recurring line's occurrences, in book order, are page
    numbers: nearly all different and rising. A running header (`PRIDE AND PREJUDICE
    12`) recurs less than twice per chapter in a book of short chapters; its rising
    number tells it from a line repeated by the story."""
    if len(numbers) < 3:
        return False
    rises = sum(1 for earlier, later in itertools.pairwise(numbers) if later > earlier)
    return len(set(numbers)) >= _RISING_SHARE * len(numbers) and rises >= _RISING_SHARE * (
        len(numbers) - 1
    )


def _line_edits(text: str, book: BookLines, named: list[tuple[str, int]]) -> list[tuple[str, Edit]]:
    """Edits deleting the named lines so that paragraph breaks stay as they were.

    Adjacent learned lines form a block. With a non-blank line
    right below it, a block goes with its own last newline (what is above stays);
    otherwise with the blank lines above it (the break below stays). So a page marker
    inside a paragraph joins its two halves, and a signature plus a running header
    before a heading leave the previous chapter's ending exactly as it was. Each line's
    edit covers its part of the block, so the ledger names every character's rule.
    """
    named = sorted(named, key=lambda item: item[1])
    edits: list[tuple[str, Edit]] = []
    block: list[tuple[str, int]] = []
    for rule, index in named:
        if block and index != block[-1][1] + 1:
            edits += _block_edits(text, book, block)
            block = []
        block.append((rule, index))
    if block:
        edits += _block_edits(text, book, block)
    return edits


def _block_edits(
    text: str, book: BookLines, block: list[tuple[str, int]]
) -> list[tuple[str, Edit]]:
    first, last = block[0][1], block[-1][1]
    end = book.starts[last] + len(book.lines[last])
    below = last + 1 < len(book.stripped) and bool(book.stripped[last + 1])
    if end >= len(text) or below:
        span_start, span_end = book.starts[first], min(end + 1, len(text))
    else:
        span_start, span_end = _line_removal(text, book.starts[first], end)
    bounds = [span_start, *(book.starts[index] for _, index in block[1:]), span_end]
    return [(rule, (bounds[k], bounds[k + 1], "")) for k, (rule, _) in enumerate(block)]


def _heading_prefixes(
    text: str, book: BookLines, config: CleaningConfig
) -> tuple[list[tuple[str, Edit]], list[LearnedLine]]:
    """Prefixes recurring before headings on the heading's own line (`正文 第一章`)."""
    counts = Counter(prefix for prefix in book.prefixes.values() if prefix)
    needed = max(config.learned_min_repeats, config.learned_min_chapter_share * len(book.prefixes))
    markers = {
        p for p, n in counts.items() if n >= needed and letters(p) >= 1 and not looks_like_prose(p)
    }
    edits: list[tuple[str, Edit]] = []
    for start, prefix in book.prefixes.items():
        if prefix in markers:
            at = text.index(prefix, start)
            end = at + len(prefix)
            while end < len(text) and text[end] in " \t\u3000":
                end += 1
            edits.append((HEADING_MARKER, (at, end, "")))
    learned = [
        LearnedLine(HEADING_MARKER, f"{p}…", counts[p], "book", f"prefix of {counts[p]} headings")
        for p in sorted(markers)
    ]
    return edits, learned


def _drop_overlaps(edits: list[tuple[str, Edit]]) -> list[tuple[str, Edit]]:
    """Sorted deletions made disjoint: one inside an earlier one goes, one reaching past
    it keeps its own part (two removals with only blank lines between them both take
    some of those lines: `_line_removal`)."""
    kept: list[tuple[str, Edit]] = []
    for rule, (start, end, new) in edits:
        if kept and start < kept[-1][1][1]:
            if end <= kept[-1][1][1]:
                continue
            start = kept[-1][1][1]
        kept.append((rule, (start, end, new)))
    return kept
