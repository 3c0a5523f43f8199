"""One detector per noise class; each takes an AuditContext and yields Findings."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lengthwise.builders.audit.detectors.ascii_symbols import find_ascii_symbols
from lengthwise.builders.audit.detectors.damage import find_damage
from lengthwise.builders.audit.detectors.headings import find_long_headings
from lengthwise.builders.audit.detectors.line_breaks import find_line_breaks
from lengthwise.builders.audit.detectors.nav_bars import find_nav_bars
from lengthwise.builders.audit.detectors.page_markers import find_page_markers
from lengthwise.builders.audit.detectors.repeated_fragments import find_repeated_fragments
from lengthwise.builders.audit.detectors.repeated_lines import find_repeated_lines
from lengthwise.builders.audit.detectors.terms import find_copyright_terms, find_site_terms
from lengthwise.builders.audit.detectors.toc_runs import find_toc_runs
from lengthwise.builders.audit.detectors.urls import find_urls
from lengthwise.builders.audit.detectors.watermarks import find_watermarks
from lengthwise.builders.audit.findings import Finding
from lengthwise.builders.audit.sample_audit import AuditContext

Detector = Callable[[AuditContext], Iterable[Finding]]

DETECTORS: tuple[Detector, ...] = (
    find_urls,
    find_site_terms,
    find_nav_bars,
    find_copyright_terms,
    find_page_markers,
    find_repeated_lines,
    find_repeated_fragments,
    find_toc_runs,
    find_damage,
    find_long_headings,
    find_ascii_symbols,
    find_line_breaks,
    find_watermarks,
)

__all__ = ["DETECTORS", "Detector"]
