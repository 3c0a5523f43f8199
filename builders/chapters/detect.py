"""Chapter detection: split a cleaned book text into chapters.

Steps, each in its own module:
1. find heading candidates with precompiled regexes over the whole text
   (`candidates_zh`, `candidates_en`);
2. decide which are parts, chapters and specials (`levels`);
3. drop the lines of in-text tables of contents (`toc_lines`);
4. believe the numbering where it increases, keep standalone out-of-order headings
   and report gaps and duplicates (`sequence`);
5. cut the text at the accepted headings and flag story collections (`collection`).
An embedded table of contents (EPUB) with two or more entries replaces all of this
(`embedded_toc`); a book with fewer than five numbered headings may be cut at the titles
of its own contents list instead (`contents_titles`). Chapters shorter than
`min_chapter_chars` are kept and listed in `short_chapters`: later stages count tokens
and decide.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import replace

from lengthwise.builders.chapters.bare_en import find_en_loose_bare_candidates
from lengthwise.builders.chapters.bare_zh import find_zh_bare_candidates
from lengthwise.builders.chapters.candidates_ja import find_ja_candidates
from lengthwise.builders.chapters.candidates_zh import find_zh_candidates
from lengthwise.builders.chapters.collection import story_collection
from lengthwise.builders.chapters.contents_titles import detect_from_contents
from lengthwise.builders.chapters.embedded_toc import detect_from_toc
from lengthwise.builders.chapters.forms import learned_forms
from lengthwise.builders.chapters.latin_words import latin_finder
from lengthwise.builders.chapters.levels import HeadingPlan, plan_bare, plan_en, plan_zh
from lengthwise.builders.chapters.misread_numbers import fill_in_misread
from lengthwise.builders.chapters.model import (
    Candidate,
    ChapterDetection,
    ChapterKind,
    DetectedChapter,
)
from lengthwise.builders.chapters.next_line_titles import give_back_odd_titles
from lengthwise.builders.chapters.parts import believe_parts
from lengthwise.builders.chapters.sequence import (
    believed,
    drop_repeated_headings,
    numbering_problems,
    split_at_restarts,
)
from lengthwise.builders.chapters.spans import body_text, stripped_length
from lengthwise.builders.chapters.toc_lines import (
    TOC_ENTRY_MAX_BODY,
    find_toc_lines,
    measure_bodies,
)
from lengthwise.builders.chapters.warnings import inner_headings, structure_warnings
from lengthwise.builders.chapters.work_boundaries import end_of_work
from lengthwise.builders.language import base_language, is_cjk
from lengthwise.errors import UserError
from lengthwise.records import TocEntry

NO_HEADINGS = "no chapter headings found"


def normalise_language(language: str) -> str:
    """The base code (`zh` from `zh-Hans`, `en` from `en_US`, `de`); UserError for an
    empty or malformed code. Every language is detected: CJK ones (`CJK_LANGUAGES`) with
    the CJK heading forms, the others with the Latin ones and their own heading words."""
    base = base_language(language)
    if not (base.isascii() and base.isalpha() and 2 <= len(base) <= 3):
        raise UserError(f"unsupported language {language!r} for chapter detection")
    return base


def detect_chapters(
    text: str,
    language: str,
    toc: list[TocEntry] | None = None,
    min_chapter_chars: int = 200,
) -> ChapterDetection:
    """Split a cleaned book `text` (LF line endings) into chapters. Pure: no I/O.
    Keyword headings first, then the book's own forms (`forms.learned_forms`: ACT/SCENE).

    `language`: a language code (region suffixes such as "zh-CN" accepted): zh and ja
    books are read with the CJK heading forms (ja with its 上・中・下 parts), en with the
    English ones, any other language with the English ones and its own heading words
    (`latin_words`); the other script's forms are tried when the book's own number fewer
    than five chapters, and win when they number at least five and more than twice as many.
    `toc`: an embedded table of contents; with two or more entries it is used as the
    chapters directly and `text` is not searched.
    `min_chapter_chars`: a heading that repeats the previous number after fewer
    characters is a reprint (not a chapter); chapters shorter than this are kept and
    listed in `short_chapters`; books numbered by bare `I.`/`1.` lines need a median
    chapter at least this long.
    Raises ValueError for a malformed language code or a negative `min_chapter_chars`.
    """
    lang = normalise_language(language)
    if min_chapter_chars < 0:
        raise ValueError(f"min_chapter_chars must be >= 0, got {min_chapter_chars}")
    if toc is not None and len(toc) >= 2:
        return detect_from_toc(toc, min_chapter_chars)
    if not text or text.isspace():  # `not text.strip()` without copying the book
        return ChapterDetection(excluded="empty text")
    detection = _detect_by_keywords(text, lang, min_chapter_chars)
    return learned_forms(text, lang, detection, _run, min_chapter_chars)


def _detect_by_keywords(text: str, lang: str, min_chapter_chars: int) -> ChapterDetection:
    cjk = find_ja_candidates if lang == "ja" else find_zh_candidates
    finders: list[Callable[[str], list[Candidate]]] = [cjk, latin_finder(lang)]
    if not is_cjk(lang):
        finders.reverse()  # the other script's headings are a fallback only
    own_finder, other_finder = finders
    own = _detect_with(text, own_finder(text), own_finder is cjk, min_chapter_chars)
    if _numbered(own) >= _FEW_CHAPTERS:
        return own
    # Headings in the other script (`Chapter 12 风起` in a Chinese web novel): believed
    # when the book's own forms find nothing, or number only a few chapters and these
    # at least `_FEW_CHAPTERS` and more than twice as many.
    other = _detect_with(text, other_finder(text), other_finder is cjk, min_chapter_chars)
    numbered = _numbered(other)
    best = own  # the book's own language explains best why nothing was found
    if other.chapters and (
        not own.chapters or (numbered >= _FEW_CHAPTERS and numbered > 2 * _numbered(own))
    ):
        best = other
    if _numbered(best) < _FEW_CHAPTERS:
        # Few numbered headings or none in either script: chapters headed by their title
        # alone, as the book's contents list names them, win when they are many more.
        by_contents = detect_from_contents(text, min_chapter_chars)
        if by_contents is not None and len(by_contents.chapters) > 2 * len(best.chapters):
            return by_contents
    return best


def _detect_with(
    text: str, candidates: list[Candidate], is_zh: bool, min_chapter_chars: int
) -> ChapterDetection:
    detection = _run(text, plan_zh(candidates) if is_zh else plan_en(candidates), min_chapter_chars)
    keyword_numbered = _numbered(detection)
    if keyword_numbered >= _FEW_CHAPTERS:
        return detection
    # Books numbered by bare numbers (a keyword plan found no numbered chapters, or a
    # few: a CONCLUSION, Moby Dick's three BOOK headings): bare numbers are believable
    # when they number more than twice as many chapters and those carry real text. The
    # looser forms are looked for only now, one after the other (books with keyword
    # headings never pay for them, and a book that plain `XII.` lines split is split as
    # before): Chinese numerals (`十一、标题`), then English decorated numbers and number
    # words (`— 12 —`, `TWENTY-ONE`).
    looser = (find_zh_bare_candidates,) if is_zh else (None, find_en_loose_bare_candidates)
    best = detection
    for finder in looser:
        if finder is not None:
            known = {c.start for c in candidates}
            more = [c for c in finder(text) if c.start not in known]
            candidates = sorted(candidates + more, key=lambda c: c.start)
        bare = _run(text, plan_bare(candidates), min_chapter_chars)
        lengths = sorted(len(c.text) for c in bare.chapters)
        if (
            len(lengths) >= 2
            and lengths[len(lengths) // 2] >= min_chapter_chars
            and _numbered(bare) > 2 * max(keyword_numbered, _numbered(best) // 2)
        ):
            best = bare
            if _numbered(bare) >= _FEW_CHAPTERS:
                break
    return best


# A keyword plan with this many numbered chapters is the book's structure: bare numbers
# are not looked at.
_FEW_CHAPTERS = 5


def _numbered(detection: ChapterDetection) -> int:
    return sum(1 for chapter in detection.chapters if chapter.number is not None)


def _run(text: str, plan: HeadingPlan, min_chapter_chars: int) -> ChapterDetection:
    if not plan.has_chapters:
        return ChapterDetection(excluded=NO_HEADINGS)
    headings = plan.headings
    measure_bodies(text, headings)
    toc_lines = find_toc_lines(headings)
    toc_starts = sorted(headings[i].start for i in toc_lines)
    headings = [c for i, c in enumerate(headings) if i not in toc_lines]
    # Headings with a misread number took part in finding the contents list; they get a
    # number only where the numbering the others make leaves a hole for them.
    misread = [c for c in headings if c.readings]
    headings = [c for c in headings if not c.readings]
    headings, inner_parts = believe_parts(_drop_listed_specials(headings))
    _resolve_specials(headings)
    accepted = _accept_chapters(text, headings, min_chapter_chars)
    accepted = _fill_in_bare(text, accepted, plan.fill_ins)
    accepted, misread_warnings = fill_in_misread(text, accepted, misread)
    give_back_odd_titles(accepted)
    inner_parts = _absorb_part_prefixes(text, accepted, inner_parts)
    if not any(c.level == "chapter" for c in accepted):
        reason = NO_HEADINGS + (" (only table-of-contents lines)" if toc_lines else "")
        return ChapterDetection(excluded=reason, toc_headings_dropped=len(toc_lines))
    detection = _assemble(text, accepted, plan, toc_starts, min_chapter_chars)
    inner = inner_headings(sorted(headings + misread, key=lambda c: c.start), accepted, inner_parts)
    detection.inner_headings = [c.heading for c in inner]
    detection.warnings = (
        structure_warnings(detection, inner) + misread_warnings + _restart_warnings(accepted)
    )
    return detection


def _restart_warnings(accepted: list[Candidate]) -> list[str]:
    """One warning per numbering restart with no part heading (`split_at_restarts`)."""
    warnings = []
    chapters = [c for c in accepted if c.level != "part"]
    for index, heading in enumerate(chapters):
        if heading.run > 0 and (index == 0 or chapters[index - 1].run != heading.run):
            warnings.append(
                f"chapter numbering starts again at {heading.heading.splitlines()[0]!r} "
                f"(chapter #{index}) with no part heading: the file may hold more than one "
                "work; samples do not run across the restart"
            )
    return warnings


def _absorb_part_prefixes(
    text: str, accepted: list[Candidate], inner_parts: list[Candidate]
) -> list[Candidate]:
    """A volume label before a chapter heading on its line (`第一卷 风起 第３章：…`, printed
    on every chapter line by some sites) that is not believed as a part of its own joins
    that heading: left alone, its line would end the previous chapter. Returns the
    unbelieved parts that are left."""
    by_end = {part.end: part for part in inner_parts}
    absorbed: set[int] = set()
    for chapter in accepted:
        part = by_end.get(chapter.start)
        if chapter.level != "chapter" or part is None or "\n" in text[part.start : chapter.start]:
            continue
        chapter.start = part.start
        chapter.heading = text[part.start : chapter.end].strip()
        absorbed.add(id(part))
    return [part for part in inner_parts if id(part) not in absorbed]


def _drop_listed_specials(headings: list[Candidate]) -> list[Candidate]:
    """Specials before the first numbered chapter that a contents list names: all but the
    last PROLOGUE, and any INTERLUDE/EPILOGUE/AFTERWORD (none of them opens a book). Their lines
    stay in the front matter, which the book report lists."""
    first = next((c.start for c in headings if c.level == "chapter" and c.number), None)
    if first is None:
        return headings
    early = [c for c in headings if c.level == "special" and c.start < first]
    prologues = [c for c in early if c.kind == "prologue"]
    dropped = {id(c) for c in early if c.kind in ("interlude", "epilogue", "afterword")}
    dropped |= {id(c) for c in prologues[:-1]}
    return [c for c in headings if id(c) not in dropped]


def _resolve_specials(headings: list[Candidate]) -> None:
    """A PROLOGUE/EPILOGUE heading followed by chapters, in a book with parts, is a part."""
    has_parts = any(c.level == "part" for c in headings)
    for index, heading in enumerate(headings):
        if heading.level != "special":
            continue
        following = headings[index + 1] if index + 1 < len(headings) else None
        if has_parts and following is not None and following.level == "chapter":
            heading.level = "part"
        else:
            heading.level = "chapter"
            heading.family = "special"


def _accept_chapters(
    text: str, headings: list[Candidate], min_chapter_chars: int
) -> list[Candidate]:
    """Parts and specials as they are; numbered chapters through the sequence checks."""
    groups: dict[tuple[int, str], list[Candidate]] = {}
    kept: list[Candidate] = []
    part_index = -1
    for heading in headings:
        if heading.level == "part":
            part_index += 1
            kept.append(heading)
        elif heading.number is None:
            kept.append(heading)
        else:
            groups.setdefault((part_index, heading.family), []).append(heading)
    for group in groups.values():
        for run in split_at_restarts(text, group, min_chapter_chars):
            kept.extend(believed(drop_repeated_headings(text, run, min_chapter_chars)))
    return sorted(kept, key=lambda c: c.start)


def _fill_in_bare(
    text: str, accepted: list[Candidate], fill_ins: list[Candidate]
) -> list[Candidate]:
    """Bare `VII. TITLE` headings that continue a keyword sequence (Sherlock's VII..XII)."""
    for bare in fill_ins:
        starts = [c.start for c in accepted]
        position = bisect.bisect_left(starts, bare.start)
        previous = accepted[position - 1] if position else None
        following = accepted[position] if position < len(accepted) else None
        if (
            previous is None
            or previous.level != "chapter"
            or previous.number is None
            or bare.number != previous.number + 1
        ):
            continue
        if (
            following is not None
            and following.level == "chapter"
            and following.number is not None
            and following.number <= bare.number
        ):
            continue
        part_start = max((c.start for c in accepted[:position] if c.level == "part"), default=-1)
        same_part = [c for c in accepted if c.level == "chapter" and c.start > part_start]
        if any(c.number == bare.number and c.family == previous.family for c in same_part):
            continue
        stop = following.start if following is not None else len(text)
        if stripped_length(text, bare.end, stop) < TOC_ENTRY_MAX_BODY:
            continue
        filled = replace(bare, level="chapter", family=previous.family)
        accepted.insert(position, filled)
    return accepted


def _assemble(
    text: str,
    accepted: list[Candidate],
    plan: HeadingPlan,
    toc_starts: list[int],
    min_chapter_chars: int,
) -> ChapterDetection:
    chapters: list[DetectedChapter] = []
    spans: list[tuple[int, int]] = []
    entries: list[tuple[int | None, str | None, str, str | None]] = []
    families: set[str] = set()
    part: Candidate | None = None
    part_key: str | None = None
    families_used = {c.family for c in accepted if c.level == "chapter" and c.kind == "chapter"}
    between_works: list[tuple[int, int]] = []
    for index, heading in enumerate(accepted):
        stop = accepted[index + 1].start if index + 1 < len(accepted) else len(text)
        following = accepted[index + 1] if index + 1 < len(accepted) else None
        if following is not None and following.run > heading.run and heading.level != "part":
            # The next work in the file begins: its front matter is not this chapter's.
            work_end = end_of_work(text, heading.end, stop, toc_starts)
            if work_end < stop:
                between_works.append((work_end, stop))
                stop = work_end
        if heading.level == "part":
            part, part_key = heading, f"{index}:{heading.heading}"
            next_is_part = index + 1 >= len(accepted) or accepted[index + 1].level == "part"
            if not (next_is_part and stripped_length(text, heading.end, stop) >= min_chapter_chars):
                continue
            # A part without chapters but with text of its own: keep the text as a chapter.
            number: int | None = None
        else:
            number = heading.number
            families.add(heading.family)
        chapters.append(
            DetectedChapter(
                heading=heading.heading,
                number=number,
                title=heading.title,
                text=body_text(text, heading.end, stop),
                part=part.heading if part is not None else None,
                kind=_kind(heading, families_used),
                start=heading.start,
                end=stop,
            )
        )
        spans.append((heading.start, stop))
        run_key = part_key if heading.run == 0 else f"{part_key}|run {heading.run}"
        entries.append(
            (number if heading.kind == "chapter" else None, run_key, heading.family, heading.title)
        )
    numbering = numbering_problems(entries)
    collection, reason = story_collection(chapters, spans, sorted(families), plan.sections)
    return ChapterDetection(
        chapters=chapters,
        numbers=[c.number for c in chapters],
        gaps=numbering.gaps,
        duplicates=numbering.duplicates,
        split_numbers=numbering.split,
        story_collection=collection,
        story_collection_reason=reason,
        front_matter_chars=accepted[0].start,
        method="headings",
        toc_headings_dropped=len(toc_starts),
        between_works=between_works,
        short_chapters=[i for i, c in enumerate(chapters) if len(c.text) < min_chapter_chars],
    )


def _kind(heading: Candidate, families: set[str]) -> ChapterKind:
    """LETTERs beside CHAPTERs open an epistolary book: chapters of their own kind."""
    if heading.family == "LETTER" and heading.kind == "chapter" and len(families) > 1:
        return "letter"
    return heading.kind
