"""Structure from heading templates learned from the book (`templates`), weighed against
the keyword and bare-number headings (`detect`).

The keyword headings (`CHAPTER 12`, `第十二回`) stay the strong evidence: a book they
number five chapters or more in is left to them. Otherwise a book whose own lines
recur with a counter (a play's `ACT I`/`SCENE 2`, `FIRST ACT`, `德行第一`) is cut there
when the template gives at least as many units as the weaker evidence did: bare numbers
that were speaker labels (`1 Citizen.`), or nothing at all. A CJK unit's title printed on
the line under its number (`第一卷` / `一文錢小隙造奇冤`) joins its heading (`titles_below`).
"""

from __future__ import annotations

from collections.abc import Callable

from lengthwise.builders.chapters.candidates_ja import find_ja_candidates
from lengthwise.builders.chapters.candidates_zh import find_zh_candidates
from lengthwise.builders.chapters.closing_units import closing_unit, drop_initials
from lengthwise.builders.chapters.collection import story_collection
from lengthwise.builders.chapters.en_numerals import parse_roman
from lengthwise.builders.chapters.latin_words import latin_finder
from lengthwise.builders.chapters.levels import HeadingPlan
from lengthwise.builders.chapters.model import Candidate, ChapterDetection, DetectedChapter
from lengthwise.builders.chapters.templates import find_template_candidates
from lengthwise.builders.chapters.zh_numerals import NUMERAL_CHARS
from lengthwise.builders.language import is_cjk

_STRONG_KEYWORD_CHAPTERS = 5
_TITLE_BELOW_SHARE = 2 / 3
_MAX_TITLE_BELOW = 40
_CJK_STOPS = frozenset("。！？；：，…「」“”")

RunPlan = Callable[[str, HeadingPlan, int], ChapterDetection]


def learned_forms(
    text: str, lang: str, detection: ChapterDetection, run: RunPlan, min_chapter_chars: int
) -> ChapterDetection:
    """`detection` (from the keyword headings) with what the book's own forms add: CJK
    titles under their numbers, the heading templates where they win, a Latin-script
    book's signature initials given back and its closing section made a unit."""
    cjk = is_cjk(lang)
    if cjk:
        detection = titles_below(text, detection)
    cjk_finder = find_ja_candidates if lang == "ja" else find_zh_candidates
    own_finder = cjk_finder if cjk else latin_finder(lang)
    specials = [c for c in own_finder(text) if c.level == "special"]
    if not _keyword_strong(detection):  # most books: their keywords are their structure
        templated = detect_by_templates(text, specials, run, min_chapter_chars)
        if templated is not None and prefer_templates(detection, templated):
            detection = templated
    if not cjk:
        drop_initials(text, detection)
        closing_unit(text, detection, min_chapter_chars)
    return detection


def detect_by_templates(
    text: str, specials: list[Candidate], run: RunPlan, min_chapter_chars: int
) -> ChapterDetection | None:
    """Chapters cut at the book's heading templates, with the keyword specials
    (`PROLOGUE`, `EPILOGUE`) found beside them; None when the book has no template."""
    found = find_template_candidates(text)
    if not found:
        return None
    taken = {(c.start, c.end) for c in found}
    extra = [c for c in specials if (c.start, c.end) not in taken]
    headings = sorted(found + extra, key=lambda c: c.start)
    families = sorted({c.family for c in found if c.level == "chapter"})
    detection = run(
        text, HeadingPlan(headings=headings, chapter_families=families), min_chapter_chars
    )
    return None if detection.excluded else detection


def prefer_templates(keyword: ChapterDetection, templated: ChapterDetection | None) -> bool:
    """Whether the template detection wins: the keyword one found fewer than five
    numbered keyword chapters, and the template numbers at least as many units as the
    keyword one counted chapters (numbers going up by one: speaker labels taken for bare
    numbers, `1 Citizen.` again and again, count one)."""
    if templated is None or keyword.method == "toc":
        return False
    if _keyword_strong(keyword):
        return False
    numbered = [c for c in keyword.chapters if c.number is not None]
    keyword_headed = [c for c in numbered if not _bare(c.heading)]
    units = [c for c in templated.chapters if c.number is not None]
    if keyword_headed:
        # Keyword headings are the stronger evidence: a template of the same word is
        # theirs (the keyword pass reads it better), another wins with more units.
        words = {_first_word(c.heading) for c in keyword_headed}
        return not words & {_first_word(c.heading) for c in units} and len(units) > len(numbered)
    return len(units) >= _counted(numbered)


def _keyword_strong(detection: ChapterDetection) -> bool:
    """Five numbered chapters or more headed by a word (not a bare number)."""
    headed = [c for c in detection.chapters if c.number is not None and not _bare(c.heading)]
    return len(headed) >= _STRONG_KEYWORD_CHAPTERS


def _counted(chapters: list[DetectedChapter]) -> int:
    """The longest run of chapters, in text order, whose numbers go 1, 2, 3, …: what the
    numbers count (`1 Citizen.`, `2 Citizen.` printed again and again count two)."""
    longest: dict[int, int] = {}
    for chapter in chapters:
        assert chapter.number is not None
        number = chapter.number
        longest[number] = max(longest.get(number, 0), longest.get(number - 1, 0) + 1)
    return max(longest.values(), default=0)


def titles_below(text: str, detection: ChapterDetection) -> ChapterDetection:
    """A CJK book that prints each unit's title on the line under its bare number
    (`第一卷` / `一文錢小隙造奇冤`): that line is the title, part of the heading, not the
    first line of the text. Believed by book: when two thirds of the headings without a
    title have a short line under them that ends no sentence and holds no stop."""
    bare = [c for c in detection.chapters if not c.title and "\n" not in c.heading]
    below = [(c, line) for c in bare if (line := _title_line(c.text)) is not None]
    if len(bare) < 2 or len(below) < _TITLE_BELOW_SHARE * len(bare):
        return detection
    for chapter, line in below:
        chapter.heading = f"{chapter.heading}\n{line}"
        chapter.title = line
        chapter.text = chapter.text.lstrip().removeprefix(line).lstrip("\n")
    if not detection.story_collection:  # the titles may tell it now (`第N卷` + title)
        units = sorted({c.heading.split("\n")[0].strip()[-1:] for c in detection.chapters})
        spans = [(c.start or 0, c.end or 0) for c in detection.chapters]
        flag, reason = story_collection(detection.chapters, spans, units, [])
        detection.story_collection, detection.story_collection_reason = flag, reason
    return detection


def _title_line(body: str) -> str | None:
    stripped = body.lstrip()
    line = stripped.split("\n", 1)[0].strip()
    if not line or len(line) > _MAX_TITLE_BELOW or not _CJK_STOPS.isdisjoint(line):
        return None
    if stripped.find("\n") < 0:
        return None  # the whole body: no title
    return line


def _first_word(heading: str) -> str:
    words = heading.split()
    return words[0].rstrip(".:").upper() if words else ""


def _bare(heading: str) -> bool:
    """A heading that starts with its number (`1 Citizen.`, `XII.`, `一、`), not a word."""
    words = heading.split()
    first = words[0].rstrip(".:,)、") if words else ""
    if not first:
        return False
    return (
        first.isdigit() or parse_roman(first) is not None or all(c in NUMERAL_CHARS for c in first)
    )
