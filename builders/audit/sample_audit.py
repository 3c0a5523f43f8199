"""One sample through every detector: counts per class and the first few snippets."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from lengthwise.builders.audit.findings import FINDING_CLASSES, Finding, SampleAudit
from lengthwise.builders.audit.vocabulary import LanguageProfile, profile_for
from lengthwise.records import Sample
from lengthwise.spec import AuditConfig


@dataclass(frozen=True)
class Line:
    number: int  # 0-based line index in the sample text
    start: int  # character offset of the line in the text
    text: str


def split_lines(text: str) -> list[Line]:
    lines, offset = [], 0
    for number, line in enumerate(text.split("\n")):
        lines.append(Line(number, offset, line))
        offset += len(line) + 1
    return lines


@dataclass
class AuditContext:
    """What a detector sees: the sample's text, its headings and the language's tables."""

    text: str
    language: str
    chapter_titles: list[str]
    profile: LanguageProfile
    config: AuditConfig

    @classmethod
    def for_row(cls, row: Sample, config: AuditConfig) -> AuditContext:
        language = row.language or "en"
        return cls(
            text=row.text,
            language=language,
            chapter_titles=list(row.chapter_titles),
            profile=profile_for(language, config),
            config=config,
        )

    @cached_property
    def lines(self) -> list[Line]:
        return split_lines(self.text)

    @cached_property
    def heading_lines(self) -> frozenset[str]:
        """The rendered chapter headings' lines: headings by construction. A heading may
        take several lines (`122` over `Midnight Aloft.`, `CHAPTER I` over its title)."""
        return frozenset(
            line.strip()
            for title in self.chapter_titles
            for line in title.split("\n")
            if line.strip()
        )

    def is_heading(self, line: Line) -> bool:
        return line.text.strip() in self.heading_lines


def audit_sample(row: Sample, config: AuditConfig) -> SampleAudit:
    """Run every detector on one sample (the columns `lengthwise build` writes)."""
    from lengthwise.builders.audit.detectors import DETECTORS

    context = AuditContext.for_row(row, config)
    audit = SampleAudit(
        id=row.id,
        subset=row.subset,
        book_id=row.book_id,
        language=context.language,
    )
    for detect in DETECTORS:
        for finding in detect(context):
            _record(audit, finding, config.snippets_per_class)
    return audit


def _record(audit: SampleAudit, finding: Finding, keep: int) -> None:
    if finding.kind not in FINDING_CLASSES:
        raise ValueError(f"detector reported unknown finding class {finding.kind!r}")
    audit.counts[finding.kind] += 1
    bucket = audit.snippets.setdefault(finding.kind, [])
    if len(bucket) < keep:
        bucket.append(finding.snippet)
