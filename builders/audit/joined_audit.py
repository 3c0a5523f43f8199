"""A sample's audit from its chapters' cached pieces: nothing is rescanned.

Gives the record `audit_sample` gives for the joined text (tests/builders/audit check
both on real builds). Positions shift by each chapter's offset in the sample; snippets
are cut from the sample text, so their context crosses joins as before; the weak-term
window, the full-width decision, heading exclusions, repeated-line counts and contents
runs are decided over the whole sample. One thing a chapter cannot see: a multi-word
term (`terms of use`) running across a join. The joins are checked for that (JOIN_REACH
characters either side) and such a sample is audited from its text instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from lengthwise.builders.audit.chapter_pieces import ChapterPieces
from lengthwise.builders.audit.detectors.ascii_symbols import find_ascii_symbols
from lengthwise.builders.audit.detectors.headings import find_long_headings
from lengthwise.builders.audit.detectors.line_breaks import find_line_breaks
from lengthwise.builders.audit.detectors.repeated_fragments import (
    find_repeated_fragments,
    repeated_fragment_findings,
)
from lengthwise.builders.audit.detectors.repeated_lines import repeated_line_findings
from lengthwise.builders.audit.detectors.terms import compiled_terms, kept_term_spans
from lengthwise.builders.audit.detectors.toc_runs import RunItem, append_item, toc_run_findings
from lengthwise.builders.audit.detectors.watermarks import find_watermarks
from lengthwise.builders.audit.findings import Finding, SampleAudit, snippet
from lengthwise.builders.audit.sample_audit import AuditContext
from lengthwise.builders.audit.vocabulary import LanguageProfile
from lengthwise.builders.joining import CHAPTER_SEPARATOR
from lengthwise.records import Sample
from lengthwise.spec import AuditConfig

JOIN_REACH = 200


def audit_from_pieces(
    row: Sample,
    pieces: Sequence[ChapterPieces],
    config: AuditConfig,
    fragments: Mapping[str, int] | None = None,
) -> SampleAudit | None:
    """The sample's audit, or None when a term may run across a join (audit the text)."""
    context = AuditContext.for_row(row, config)
    offsets = _offsets(pieces)
    if _term_across_join(context.text, offsets[1:], context.profile):
        return None
    recorder = _Recorder(row, context, config.snippets_per_class)
    translate = any(p.fullwidth_alnum for p in pieces)
    recorder.spans("url", _shifted(offsets, [_urls(p, translate) for p in pieces]))
    recorder.spans("site", _terms(offsets, [p.site_terms for p in pieces]))
    recorder.spans("site", _shifted(offsets, [p.nav_bars for p in pieces]))
    recorder.spans("copyright", _terms(offsets, [p.copyright_terms for p in pieces]))
    page_spans = [
        [
            span
            for line, spans in p.page_lines
            if line not in context.heading_lines
            for span in spans
        ]
        for p in pieces
    ]
    recorder.spans("page_marker", _shifted(offsets, page_spans))
    counts: Counter[str] = Counter()
    for p in pieces:
        counts.update(p.line_counts)
    recorder.findings(
        repeated_line_findings(counts, context.heading_lines, config.repeated_line_min)
    )
    items: list[RunItem] = []
    for p in pieces:
        for item in p.toc:
            append_item(items, item)
    recorder.findings(toc_run_findings(items, config.toc_run_min))
    for offset, p in zip(offsets, pieces, strict=True):
        for start, end, shown in p.damage:
            recorder.add("damage", offset + start, offset + end, shown)
    recorder.findings(find_long_headings(context))
    recorder.findings(find_ascii_symbols(context))  # one C-level scan of the sample
    # Glued-in fragments: counted over the sample's chapters from its book's recurring
    # ones (`fragments`), else one scan of the sample (a fragment may come once per
    # chapter: per-chapter pieces would have to keep every sentence).
    if fragments is None:
        recorder.findings(find_repeated_fragments(context))
    else:
        recorder.findings(
            repeated_fragment_findings(fragments, len(context.text), config.repeated_fragment_min)
        )
    recorder.findings(find_line_breaks(context))  # a scan of the sample's line ends
    recorder.findings(find_watermarks(context))  # a scan of the sample's marks
    return recorder.audit


def _offsets(pieces: Sequence[ChapterPieces]) -> list[int]:
    offsets, at = [], 0
    for p in pieces:
        offsets.append(at)
        at += p.length + len(CHAPTER_SEPARATOR)
    return offsets


def _urls(p: ChapterPieces, translate: bool) -> list[tuple[int, int]]:
    return p.urls_translated if translate and p.urls_translated is not None else p.urls


def _shifted(
    offsets: Sequence[int], spans: Sequence[Sequence[tuple[int, int]]]
) -> Iterable[tuple[int, int]]:
    for offset, chapter_spans in zip(offsets, spans, strict=True):
        for start, end in chapter_spans:
            yield offset + start, offset + end


def _terms(
    offsets: Sequence[int], matches: Sequence[Sequence[tuple[int, int, bool]]]
) -> list[tuple[int, int]]:
    joined = [
        (offset + start, offset + end, strong)
        for offset, chapter in zip(offsets, matches, strict=True)
        for start, end, strong in chapter
    ]
    return kept_term_spans(joined)


@lru_cache(maxsize=16)
def _multiword_terms(profile: LanguageProfile) -> tuple[str, ...]:
    tables = (profile.site, profile.copyright)
    return tuple(t for table in tables for t in table.strong + table.weak if len(t.split()) > 1)


def _term_across_join(text: str, joins: Sequence[int], profile: LanguageProfile) -> bool:
    """Whether a multi-word term matches across the separator before any chapter start."""
    pattern = compiled_terms(_multiword_terms(profile))
    if pattern is None:
        return False
    width = len(CHAPTER_SEPARATOR)
    for join in joins:
        for match in pattern.finditer(text, max(0, join - width - JOIN_REACH), join + JOIN_REACH):
            if match.start() < join and match.end() > join - width:
                return True
    return False


class _Recorder:
    """Counts per class and the first `keep` snippets, cut from the sample text."""

    def __init__(self, row: Sample, context: AuditContext, keep: int) -> None:
        self.text = context.text
        self.keep = keep
        self.audit = SampleAudit(
            id=row.id,
            subset=row.subset,
            book_id=row.book_id,
            language=context.language,
        )

    def add(self, kind: str, start: int, end: int, shown: str | None = None) -> None:
        self.audit.counts[kind] += 1
        bucket = self.audit.snippets.setdefault(kind, [])
        if len(bucket) < self.keep:
            bucket.append(snippet(self.text, start, end, shown=shown))

    def spans(self, kind: str, spans: Iterable[tuple[int, int]]) -> None:
        for start, end in spans:
            self.add(kind, start, end)

    def findings(self, findings: Iterable[Finding]) -> None:
        for finding in findings:
            self.audit.counts[finding.kind] += 1
            bucket = self.audit.snippets.setdefault(finding.kind, [])
            if len(bucket) < self.keep:
                bucket.append(finding.snippet)
