"""Decide which heading candidates are parts, chapters and specials for one book.

A book uses a few heading keywords; the most used chapter keyword wins (its
strong, own-line headings counted). Per language:

- zh: 回 or 章 are chapters (the more frequent one); 节 are sub-sections under them,
  or chapters when no 回/章 exist; 卷/部/集/篇 are parts above chapters, or chapters
  themselves when nothing finer exists.
- en: CHAPTER/STAVE/LETTER/ADVENTURE/STORY/TALE are chapters. A second keyword is kept
  only where it does not interleave with the first (Frankenstein's LETTERs before its
  CHAPTERs). BOOK/PART/VOLUME are parts, or chapters when no chapter keyword exists.
  Bare numbers (`VII.`) are otherwise fill-ins of a keyword sequence and sections.
- both: bare numbers (`VII.`, `一、标题`, `（一）`) are the chapters (`plan_bare`) of a
  book whose keyword headings number fewer than 5 chapters, where they number more than
  twice as many (`detect._detect_with`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from lengthwise.builders.chapters.heading_words import CHAPTER_UNITS, SECTION_UNITS
from lengthwise.builders.chapters.model import Candidate


@dataclass
class HeadingPlan:
    """The candidates one detection pass works with."""

    headings: list[Candidate] = field(default_factory=list)  # parts, chapters, specials
    chapter_families: list[str] = field(default_factory=list)
    fill_ins: list[Candidate] = field(default_factory=list)  # titled bare numbers
    sections: list[Candidate] = field(default_factory=list)  # untitled bare numbers

    @property
    def has_chapters(self) -> bool:
        return any(c.level == "chapter" for c in self.headings)


def plan_zh(candidates: list[Candidate]) -> HeadingPlan:
    """Levels for 第X回/章/节/卷 candidates."""
    chapters = [c for c in candidates if c.level == "chapter"]
    parts = [c for c in candidates if c.level == "part"]
    specials = [c for c in candidates if c.level == "special"]
    main_units = [c for c in chapters if c.family in CHAPTER_UNITS]
    pool = main_units or [c for c in chapters if c.family in SECTION_UNITS]
    if pool:
        family = _most_used(pool)
        chosen = [c for c in pool if c.family == family]
    elif parts:
        family = _most_used(parts)
        chosen = [replace(c, level="chapter") for c in parts if c.family == family]
        parts = [c for c in parts if c.family != family]
    else:
        return HeadingPlan()
    return HeadingPlan(headings=_copies(chosen + parts + specials), chapter_families=[family])


def plan_bare(candidates: list[Candidate]) -> HeadingPlan:
    """Bare numbers (`VII.`, `一、标题`) as the chapters, beside any parts and specials
    (either language)."""
    bare = [c for c in candidates if c.level == "bare"]
    chosen = [replace(c, level="chapter") for c in bare]
    others = [c for c in candidates if c.level in ("part", "special")]
    sections = [c for c in bare if not c.title]
    return HeadingPlan(_copies(chosen + others), ["bare"], [], sections)


def plan_en(candidates: list[Candidate]) -> HeadingPlan:
    """Levels for English candidates (bare numbers only as fill-ins and sections)."""
    chapters = [c for c in candidates if c.level == "chapter"]
    parts = [c for c in candidates if c.level == "part"]
    specials = [c for c in candidates if c.level == "special"]
    bare = [c for c in candidates if c.level == "bare"]
    sections = [c for c in bare if not c.title]
    fill_ins: list[Candidate] = []
    if chapters:
        families = _families_in_order(chapters)
        chosen = [c for c in chapters if c.family in families]
        fill_ins = [c for c in bare if c.title]
    elif parts:
        family = _most_used(parts)
        chosen = [replace(c, level="chapter") for c in parts if c.family == family]
        parts = [c for c in parts if c.family != family]
        families, fill_ins = [family], []
    else:
        return HeadingPlan(sections=sections)
    return HeadingPlan(_copies(chosen + parts + specials), families, fill_ins, sections)


def _copies(candidates: list[Candidate]) -> list[Candidate]:
    """Fresh copies in text order: later steps set levels and body sizes on them.

    (`Candidate(**vars(c))`: all its fields are plain init fields; twice as fast as
    `copy.copy`.)"""
    return [Candidate(**vars(c)) for c in sorted(candidates, key=lambda c: c.start)]


def _most_used(candidates: list[Candidate]) -> str:
    counts = Counter(c.family for c in candidates if c.strong) or Counter(
        c.family for c in candidates
    )
    return counts.most_common(1)[0][0]


def _families_in_order(chapters: list[Candidate]) -> list[str]:
    """The main chapter keyword, plus others used only outside its span (with 2+ headings)."""
    primary = _most_used(chapters)
    starts = [c.start for c in chapters if c.family == primary]
    first, last = min(starts), max(starts)
    families = [primary]
    for family, count in Counter(c.family for c in chapters).items():
        if family == primary or count < 2:
            continue
        own = [c.start for c in chapters if c.family == family]
        if all(s < first for s in own) or all(s > last for s in own):
            families.append(family)
    return families
