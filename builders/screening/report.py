"""Where the contamination report lives, its markdown, and the flagged books it lists."""

from __future__ import annotations

from pathlib import Path

from lengthwise.builders.screening.probe_report import ProbeReport
from lengthwise.errors import InputFileError
from lengthwise.storage import read_json
from lengthwise.workdir import ScreeningPaths as ScreeningPaths
from lengthwise.workdir import WorkDir


def flagged_books(work_dir: Path) -> dict[str, str]:
    """Book id -> reason for every book the last probe flagged; {} when it has not run.

    The build calls this to leave flagged books out of sampling when the spec says so.
    """
    path = WorkDir(work_dir).screening.report
    if not path.is_file():
        return {}
    try:
        report = read_json(path)
    except ValueError as exc:
        raise InputFileError(f"{path}: unreadable contamination report: {exc}") from None
    if not isinstance(report, dict) or report.get("status") != "run":
        return {}
    flagged = report.get("flagged") or {}
    return {str(book): str(reason) for book, reason in flagged.items()}


def render_probe_report(report: ProbeReport) -> str:
    lines = ["# Contamination probe", ""]
    if report.status != "run" or report.usage is None:
        lines += [f"Not run: {report.reason}.", ""]
        return "\n".join(lines)
    books = report.books
    usage = report.usage["total"]
    lines += [
        f"Probe model `{report.model}`"
        + (f" at {report.base_url}" if report.base_url else "")
        + f"; {report.chapters_per_book} random chapters per book (seed {report.seed}); "
        f"{len(report.flagged)} of {len(books)} books flagged.",
        "",
        f"Usage: {usage['calls']} calls ({usage['cache_hits']} from the request cache), "
        f"{usage['prompt_tokens']:,} prompt + {usage['completion_tokens']:,} completion tokens, "
        f"cost {usage['cost']:.4f}.",
        "",
        "| book | title | chapters probed | flagged | reasons |",
        "|---|---|---|---|---|",
    ]
    for book in books:
        probed = ", ".join(str(o.chapter_index) for o in book.outputs)
        decision = "yes" if book.flagged else ("no" if book.probed else "not probed")
        reasons = "; ".join(book.reasons).replace("|", "/")
        lines.append(f"| {book.book_id} | {book.title} | {probed} | {decision} | {reasons} |")
    lines += ["", "## Probe outputs", ""]
    for book in books:
        lines += [f"### {book.book_id}", ""]
        for output in book.outputs:
            text = " ".join(output.text.split())
            shown = text[:600] + ("…" if len(text) > 600 else "")
            extra = (
                f"; unsupported names: {', '.join(output.unsupported)}"
                if output.unsupported
                else ""
            )
            lines += [
                f"- chapter {output.chapter_index} ({output.heading}), "
                f"outcome {output.outcome}{extra}",
                f"  > {shown or '(empty)'}",
            ]
        lines.append("")
    return "\n".join(lines)
