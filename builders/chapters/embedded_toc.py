"""Chapters from an embedded table of contents (EPUB navigation), used as given.

Each entry becomes one chapter with its own text. Its title is read like a heading
(`Chapter 3: The Storm` -> number 3, title `The Storm`; `第三回 …`; `Epilogue`) to
fill number, title and kind. Entries without any text are navigation only: a
BOOK/PART/卷 entry among them sets the `part` of the entries after it, the rest
(cover, title page) are skipped.
"""

from __future__ import annotations

from lengthwise.builders.chapters.candidates_en import find_en_candidates
from lengthwise.builders.chapters.candidates_zh import find_zh_candidates
from lengthwise.builders.chapters.collection import story_collection
from lengthwise.builders.chapters.model import (
    Candidate,
    ChapterDetection,
    ChapterKind,
    DetectedChapter,
)
from lengthwise.builders.chapters.sequence import numbering_problems
from lengthwise.records import TocEntry

TITLE_KINDS: dict[str, ChapterKind] = {
    "preface": "preface", "foreword": "preface", "introduction": "preface",
    "序": "preface", "序言": "preface", "自序": "preface", "前言": "preface",
    "prologue": "prologue", "楔子": "prologue", "引子": "prologue", "序章": "prologue",
    "epilogue": "epilogue", "尾声": "epilogue", "终章": "epilogue",
    "afterword": "afterword", "后记": "afterword", "postscript": "afterword",
    "contents": "contents", "table of contents": "contents", "目录": "contents",
}  # fmt: skip


def detect_from_toc(toc: list[TocEntry], min_chapter_chars: int) -> ChapterDetection:
    """One chapter per ToC entry that has text."""
    chapters: list[DetectedChapter] = []
    entries: list[tuple[int | None, str | None, str, str | None]] = []
    families: set[str] = set()
    part: str | None = None
    for entry in toc:
        heading = " ".join(entry.title.split())
        parsed = _parse_title(heading)
        if not entry.text.strip():
            if parsed is not None and parsed.level == "part":
                part = heading
            continue
        number = parsed.number if parsed is not None else None
        kind = _kind_of(heading, parsed)
        if parsed is not None and parsed.level in ("chapter", "part"):
            families.add(parsed.family)
        chapters.append(
            DetectedChapter(
                heading=heading,
                number=number if kind == "chapter" else None,
                title=parsed.title if parsed is not None and parsed.number is not None else heading,
                text=entry.text.strip("\n").rstrip(),
                part=part,
                kind=kind,
            )
        )
        entries.append((chapters[-1].number, part, "toc", chapters[-1].title))
    if not chapters:
        return ChapterDetection(excluded="embedded table of contents has no entry with text")
    numbering = numbering_problems(entries)
    spans = [(0, 0)] * len(chapters)  # no offsets: section restarts cannot be checked
    collection, reason = story_collection(chapters, spans, sorted(families), [])
    return ChapterDetection(
        chapters=chapters,
        numbers=[c.number for c in chapters],
        gaps=numbering.gaps,
        duplicates=numbering.duplicates,
        split_numbers=numbering.split,
        story_collection=collection,
        story_collection_reason=reason,
        method="toc",
        short_chapters=[i for i, c in enumerate(chapters) if len(c.text) < min_chapter_chars],
    )


def _parse_title(title: str) -> Candidate | None:
    """The title read as a heading, when it is one (zh or en forms)."""
    for finder in (find_zh_candidates, find_en_candidates):
        for candidate in finder(title):
            if candidate.start == 0 and candidate.level != "bare":
                return candidate
    return None


def _kind_of(title: str, parsed: Candidate | None) -> ChapterKind:
    if parsed is not None and parsed.level == "special":
        return parsed.kind
    key = title.strip().rstrip(".:：").strip().lower()
    return TITLE_KINDS.get(key, "chapter")
