"""What a person must know about a finished build, in words: for the CLI and the reports.

Every excluded book and dropped source with its reason, every warning (undecodable
bytes, id clashes, ...), subsets short of their requested count or below their Q1 rule,
and samples the audit dropped. The same lines close `lengthwise build`'s output and open
build_report.md, so the two never disagree.
"""

from __future__ import annotations

from pathlib import Path

from lengthwise.builders.build_record import BuildReport, SubsetReport
from lengthwise.builders.duplicates.report import dropped_lines
from lengthwise.reports import one_line


def subset_problems(sub: SubsetReport) -> list[str]:
    """Why a subset is not what was asked for; empty when it is."""
    sel = sub.selection
    problems = []
    if sel.count < sel.requested:
        problems.append(
            f"short: {sel.count} of {sel.requested} requested samples "
            f"({sel.requested - sel.count} missing)"
        )
    q1 = sel.tokens.q1
    if sel.q1_met is False and q1 is not None:
        problems.append(f"Q1 rule failed: Q1 {q1:,.0f} tokens < threshold {sel.q1_threshold:,.0f}")
    if sub.audit_dropped:
        problems.append(f"{sub.audit_dropped} dropped by the residual-noise audit")
    return problems


def subset_line(name: str, sub: SubsetReport) -> str:
    sel = sub.selection
    mean = sel.tokens.mean or 0
    line = (
        f"{name}: {sel.count} of {sel.requested} requested samples from {sel.books} "
        f"books, mean {mean:,.0f} tokens"
    )
    problems = subset_problems(sub)
    return line + (" -- " + "; ".join(problems) if problems else "")


def excluded_lines(report: BuildReport) -> list[str]:
    """Every book and source that did not make it into the corpus, with the reason."""
    lines = [
        f"{book.path or book.title}: {book.excluded}" for book in report.books if book.excluded
    ]
    sources = report.stages["sources"]
    for reason, examples in sources["examples"].items():
        lines += [f"{example} [{reason}]" for example in examples]
    listed = sum(len(v) for v in sources["examples"].values())
    unlisted = sum(sources["dropped"].values()) - listed
    if unlisted > 0:
        lines.append(f"{unlisted} more dropped source(s): see build_report.json")
    lines += [line.strip() for line in dropped_lines(report.duplicates)]
    return [one_line(line) for line in lines]  # a file name may hold a line break


def warning_lines(report: BuildReport) -> list[str]:
    """Warnings of every stage (deduplicated, in order) plus subset and audit problems."""
    seen: dict[str, None] = {}
    for stage in report.stages.values():
        for warning in stage["warnings"]:
            seen.setdefault(warning, None)
    for book in report.books:
        for warning in book.warnings:
            seen.setdefault(f"{book.path or book.title}: {warning}", None)
    lines = [w for w in seen if not _repeats(w, seen)]
    for name, sub in report.subsets.items():
        lines += [f"subset {name}: {problem}" for problem in subset_problems(sub)]
        lines += [f"subset {name}: {d['id']} {d['reason']}" for d in sub.recount_dropped]
    for dropped in report.audit.dropped:
        lines.append(f"audit dropped {dropped['subset']} {dropped['id']}: {dropped['reason']}")
    return [one_line(line) for line in lines]


def story_collection_line(report: BuildReport) -> str | None:
    """The books kept as story collections, or None: their units are stories, and a
    sample is a run of whole stories."""
    titles = [book.title for book in report.books if book.story_collection and not book.excluded]
    if not titles:
        return None
    return one_line(
        f"story collections: {len(titles)} ({', '.join(titles)}): each unit a story, "
        "samples are runs of whole stories"
    )


def _repeats(warning: str, seen: dict[str, None]) -> bool:
    """A book's warning is also its source's warning, prefixed by the path: show it once."""
    return any(other != warning and other.endswith(": " + warning) for other in seen)


def closing_lines(report: BuildReport, work_dir: Path | None = None) -> list[str]:
    """The block printed at the end of `lengthwise build`."""
    lines = [f"  {subset_line(name, sub)}" for name, sub in report.subsets.items()]
    excluded = excluded_lines(report)
    lines.append(f"excluded: {len(excluded) or 'none'}")
    lines += [f"  {line}" for line in excluded]
    warnings = warning_lines(report)
    lines.append(f"warnings: {len(warnings) or 'none'}")
    lines += [f"  {line}" for line in warnings]
    collections = story_collection_line(report)
    if collections:
        lines.append(collections)
    from lengthwise.builders.audit.report import share_sentence

    where = work_dir if work_dir is not None else "WORK_DIR"
    lines.append(f"audit: {share_sentence(report.audit)} Details: lengthwise audit {where}")
    return lines


def render_summary_section(report: BuildReport) -> str:
    """build_report.md's "Excluded and warnings" section."""
    excluded = excluded_lines(report)
    warnings = warning_lines(report)
    lines = ["## Excluded and warnings", ""]
    lines += [f"Excluded ({len(excluded)}):" if excluded else "Excluded: none."]
    lines += [f"- {line}" for line in excluded]
    lines += ["", f"Warnings ({len(warnings)}):" if warnings else "Warnings: none."]
    lines += [f"- {line}" for line in warnings]
    return "\n".join(lines)
