"""Dataset-card sentences that must tell the truth about the build behind a release.

Subsets short of their count or below their Q1 rule, books left out and why, how the
chapter drafts were made (model or extractive, counted), and the residual-noise audit.
Each function reads records the earlier stages wrote; card.py only places the text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from lengthwise.builders.audit.report import share_sentence
from lengthwise.builders.build_record import BuildReport
from lengthwise.builders.build_summary import subset_problems
from lengthwise.human_records import ChapterDraft
from lengthwise.spec import Spec
from lengthwise.store import WorkStore
from lengthwise.workdir import WorkDir

# (what was excluded, why) rows for the corpus section. Add a source here for a new kind
# of exclusion (e.g. duplicate books) and the card lists it with the others.
ExclusionSource = Callable[[BuildReport], list[tuple[str, str]]]


def excluded_books(report: BuildReport) -> list[tuple[str, str]]:
    return [
        (Path(book.path or book.title).name, str(book.excluded))
        for book in report.books
        if book.excluded
    ]


def dropped_sources(report: BuildReport) -> list[tuple[str, str]]:
    sources = report.stages.get("sources")
    examples = sources["examples"] if sources else {}
    rows = []
    for reason, items in examples.items():
        for item in items:
            where, _, why = str(item).partition(": ")
            rows.append((Path(where).name, why or reason))
    return rows


EXCLUSION_SOURCES: list[ExclusionSource] = [excluded_books, dropped_sources]


def excluded_markdown(report: BuildReport) -> str:
    rows = [row for source in EXCLUSION_SOURCES for row in source(report)]
    if not rows:
        return "No book or file of the sources was excluded."
    lines = [f"Excluded from the corpus ({len(rows)}):", "", "| file | reason |", "|---|---|"]
    lines += [f"| {name} | {reason.replace('|', '/')} |" for name, reason in rows]
    return "\n".join(lines)


def subset_status_markdown(report: BuildReport) -> str:
    """One warning line per subset that is not what the spec asked for."""
    lines = [
        f"> ⚠️ Subset **{name}**: " + "; ".join(problems) + "."
        for name, sub in report.subsets.items()
        if (problems := subset_problems(sub))
    ]
    return "\n".join(lines)


def audit_markdown(report: BuildReport) -> str:
    audit = report.audit
    if not audit.by_class:
        return "The build predates the residual-noise audit: not run for these samples."
    classes = ", ".join(
        f"{kind} {figures['samples']}"
        for kind, figures in audit.by_class.items()
        if figures["samples"]
    )
    lines = [
        share_sentence(audit)
        + " The audit looks for what cleaning may have missed: URLs, site and licence "
        "vocabulary, page markers, repeated lines, sentences glued into the text again and "
        "again, contents lists, damaged characters, overlong headings and ASCII symbols "
        "standing between CJK characters."
    ]
    if classes:
        lines.append(f"Samples with findings, per class: {classes}.")
    if audit.dropped:
        lines.append(f"{len(audit.dropped)} samples were dropped for too many findings.")
    return " ".join(lines)


def drafts_sentence(work_root: Path, sample_ids: set[str]) -> str:
    """How the chapter drafts shown to annotators were made, counted per chapter."""
    work = WorkDir(work_root)
    if not work.drafts.samples.is_file():
        return "no chapter drafts were made for this version (`lengthwise draft` was not run)"
    drafts: dict[tuple[str, int], ChapterDraft] = {}
    for sample in WorkStore(work).drafts().values():
        if sample.sample_id in sample_ids:
            for chapter in sample.chapters:
                drafts[(sample.book_id, chapter.chapter_index)] = chapter
    return _drafts_counted(list(drafts.values()))


def _drafts_counted(chapters: list[ChapterDraft]) -> str:
    total = len(chapters)
    if not total:
        return "no chapter drafts exist for the released samples"
    models = Counter(c.model for c in chapters if c.drafter == "llm")
    extractive = [c for c in chapters if c.drafter != "llm"]
    parts = [f"{n} of {total} chapter drafts by the LLM `{m}`" for m, n in models.items()]
    if extractive:
        reasons = Counter(c.fallback_reason or "no drafter model" for c in extractive)
        why = ", ".join(f"{r} {n}" if len(reasons) > 1 else r for r, n in reasons.items())
        parts.append(f"{len(extractive)} of {total} chapter drafts extractive ({why})")
    return "; ".join(parts)


def citation_markdown(spec: Spec, version: str, tool_version: str) -> str:
    """The card's citation: the spec's, else a @misc entry naming this version."""
    release = spec.release
    if release.citation:
        return f"```bibtex\n{release.citation.strip()}\n```"
    key = "".join(ch for ch in spec.name if ch.isalnum())
    title = release.pretty_name or spec.name
    return (
        "No citation was given in the spec; cite this version as:\n\n```bibtex\n"
        f"@misc{{{key}_v{version.replace('.', '_')},\n"
        f"  title = {{{{{title}}}, version {version}}},\n"
        f"  note = {{Built with lengthwise {tool_version}}},\n"
        "}\n```"
    )
