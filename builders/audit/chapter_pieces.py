"""What the local detectors find in one rendered chapter, kept so samples can reuse it.

A sample's text is its rendered chapters joined by a blank line, and most detectors look
at one match or one line at a time: in a chapter they find what they find in the sample,
shifted by the chapter's offset. A piece keeps positions, not snippets (a snippet's
context may reach into the next chapter), plus what the sample-level rules need:

- term matches with their strength (a weak term counts when a strong one is within
  WINDOW characters, possibly in the neighbouring chapter);
- URL spans with and without full-width translation (the sample translates when any
  of its chapters has full-width letters or digits);
- page-marker lines with their text (a line equal to any heading of the sample is skipped);
- candidate repeated lines counted (summed over the sample's chapters);
- heading-like runs (a contents run may continue across a join).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lengthwise.builders.audit.detectors.damage import damage_spans
from lengthwise.builders.audit.detectors.nav_bars import nav_bar_spans
from lengthwise.builders.audit.detectors.page_markers import page_marker_lines
from lengthwise.builders.audit.detectors.repeated_lines import candidate_line_counts
from lengthwise.builders.audit.detectors.terms import term_matches
from lengthwise.builders.audit.detectors.toc_runs import RunItem, heading_like_runs
from lengthwise.builders.audit.detectors.urls import needs_translation, url_spans
from lengthwise.builders.audit.sample_audit import split_lines
from lengthwise.builders.audit.vocabulary import LanguageProfile

# Bump when a detector changes what it finds: cached pieces of older versions are ignored.
DETECTOR_VERSION = 7

_ANY_FULLWIDTH = re.compile(r"[\uff01-\uff5e]")

Span = tuple[int, int]


@dataclass(frozen=True)
class ChapterPieces:
    length: int
    urls: list[Span]
    urls_translated: list[Span] | None  # None: the same as `urls`
    fullwidth_alnum: bool
    site_terms: list[tuple[int, int, bool]]
    copyright_terms: list[tuple[int, int, bool]]
    nav_bars: list[Span]
    page_lines: list[tuple[str, list[Span]]]
    line_counts: dict[str, int]
    toc: list[RunItem]
    damage: list[tuple[int, int, str]]

    def to_json(self) -> list[Any]:
        return [
            self.length,
            self.urls,
            self.urls_translated,
            self.fullwidth_alnum,
            self.site_terms,
            self.copyright_terms,
            self.nav_bars,
            self.page_lines,
            self.line_counts,
            self.toc,
            self.damage,
        ]

    @classmethod
    def from_json(cls, row: list[Any]) -> ChapterPieces:
        (length, urls, translated, alnum, site, copyright_, nav, pages, lines, toc, damage) = row
        return cls(
            length=length,
            urls=[(s, e) for s, e in urls],
            urls_translated=None if translated is None else [(s, e) for s, e in translated],
            fullwidth_alnum=alnum,
            site_terms=[(s, e, strong) for s, e, strong in site],
            copyright_terms=[(s, e, strong) for s, e, strong in copyright_],
            nav_bars=[(s, e) for s, e in nav],
            page_lines=[(text, [(s, e) for s, e in spans]) for text, spans in pages],
            line_counts=dict(lines),
            toc=[None if item is None else (item[0], tuple(item[1])) for item in toc],
            damage=[(s, e, shown) for s, e, shown in damage],
        )


def chapter_pieces(text: str, profile: LanguageProfile) -> ChapterPieces:
    """Run the local detectors over one rendered chapter."""
    lines = split_lines(text)
    urls = url_spans(text, False)
    translated = url_spans(text, True) if _ANY_FULLWIDTH.search(text) else urls
    return ChapterPieces(
        length=len(text),
        urls=urls,
        urls_translated=None if translated == urls else translated,
        fullwidth_alnum=needs_translation(text),
        site_terms=term_matches(profile.site, text),
        copyright_terms=term_matches(profile.copyright, text),
        nav_bars=nav_bar_spans(lines),
        page_lines=page_marker_lines(lines, profile),
        line_counts=dict(candidate_line_counts(lines)),
        toc=heading_like_runs(lines, profile),
        damage=damage_spans(text),
    )


def pieces_of_chapters(chapters: list[tuple[str, LanguageProfile]]) -> list[ChapterPieces]:
    """`chapter_pieces` of each (rendered text, profile): one executor call's batch."""
    return [chapter_pieces(text, profile) for text, profile in chapters]
