"""Site/download and copyright/licence vocabulary, from the language's tables.

A strong term is a finding wherever it occurs; a weak term only when a strong term of
the same class occurs within WINDOW characters (see vocabulary.py for why).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from lengthwise.builders.audit.findings import Finding, snippet
from lengthwise.builders.audit.sample_audit import AuditContext
from lengthwise.builders.audit.vocabulary import TermTable
from lengthwise.builders.cleaning.script_fold import fold, is_traditional

WINDOW = 300
_LATIN = re.compile(r"[A-Za-z]")


def _term_pattern(term: str) -> str:
    escaped = re.escape(term).replace(r"\ ", r"\s+")
    if _LATIN.search(term):
        return rf"(?<![A-Za-z]){escaped}(?:s|d|ed|es|ing)?(?![A-Za-z])"
    return escaped


@lru_cache(maxsize=256)
def compiled_terms(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    if not terms:
        return None
    ordered = sorted(set(terms), key=len, reverse=True)  # longest first: 小说网 before 小说
    return re.compile("|".join(f"({_term_pattern(t)})" for t in ordered), re.IGNORECASE)


def _present(terms: tuple[str, ...], lowered: str) -> tuple[str, ...]:
    """The terms whose first word occurs in the lower-cased text at all.

    One alternation of every term, case-insensitive, tests each position of a 100k-character
    sample against every term (seconds per build); `in` on the lowered text is C-speed, and
    the regex then runs only over the few terms that can match.
    """
    return tuple(t for t in terms if t.split()[0].lower() in lowered)


def term_matches(table: TermTable, text: str) -> list[tuple[int, int, bool]]:
    """(start, end, strong) for every term occurrence, in order. Traditional-script text
    is matched through its simplified folding (same offsets): the tables are simplified."""
    if is_traditional(text):
        text = fold(text)
    return [(start, end, strong) for start, end, _, strong in _matches(table, text)]


def _matches(table: TermTable, text: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, normalised term, strong) for every term occurrence, in order."""
    found: list[tuple[int, int, str, bool]] = []
    lowered = text.lower()
    for terms, strong in ((table.strong, True), (table.weak, False)):
        pattern = compiled_terms(_present(terms, lowered))
        if pattern is None:
            continue
        for match in pattern.finditer(text):
            if strong or not _overlaps(found, match.start(), match.end()):
                found.append((match.start(), match.end(), match.group().lower(), strong))
    return sorted(found)


def _overlaps(found: list[tuple[int, int, str, bool]], start: int, end: int) -> bool:
    """A weak term inside a strong one ("terms" in "terms of use") is not a second finding."""
    return any(s < end and start < e for s, e, _, _ in found)


def kept_term_spans(matches: Sequence[tuple[int, int, bool]]) -> list[tuple[int, int]]:
    """The findings among `matches`: strong terms, and weak ones within WINDOW of a strong."""
    strong_starts = [start for start, _, strong in matches if strong]
    return [
        (start, end)
        for start, end, strong in matches
        if strong or any(abs(other - start) <= WINDOW for other in strong_starts)
    ]


def _findings(kind: str, table: TermTable, text: str) -> Iterator[Finding]:
    for start, end in kept_term_spans(term_matches(table, text)):
        yield Finding(kind, snippet(text, start, end))


def find_site_terms(context: AuditContext) -> Iterator[Finding]:
    return _findings("site", context.profile.site, context.text)


def find_copyright_terms(context: AuditContext) -> Iterator[Finding]:
    return _findings("copyright", context.profile.copyright, context.text)
