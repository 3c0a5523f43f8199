"""The drafting report in markdown."""

from __future__ import annotations

from lengthwise.annotation.drafts.draft_report import DraftReport
from lengthwise.llm.accounting import RoleFiguresJson, UsageJson
from lengthwise.llm.usage_journal import total_sentence
from lengthwise.stage_runner import Envelope


def render_draft_report(report: DraftReport, envelope: Envelope) -> str:
    """A short markdown summary of report.json."""
    lines = ["# Chapter synopsis drafts", ""]
    if report.extractive_fallback:
        lines += [
            "No drafter LLM is configured ([llm.drafter] in the spec): every draft was made "
            f"by the extractive drafter ({report.model}: key sentences of each chapter).",
            "",
        ]
    else:
        where = f" at {report.base_url}" if report.base_url else ""
        versions = ", ".join(report.prompt_versions.values())
        lines += [f"Drafter: LLM `{report.model}`{where}, prompts {versions}.", ""]
    lines += [
        "| samples | chapters | drafted this run | reused | seconds |",
        "|---:|---:|---:|---:|---:|",
        f"| {report.samples} | {report.chapters} | {report.drafted_this_run} "
        f"| {report.reused} | {envelope.seconds} |",
        "",
        "Outcomes: " + ", ".join(f"{k} {v}" for k, v in report.outcomes.items()),
        "",
    ]
    for role, usage in report.usage["roles"].items():
        lines.append(usage_line(role, usage))
    overall = total_sentence(report.usage, "on this work directory")
    if overall is not None and overall_has_calls(report.usage):
        lines.append(overall)
    failed = report.failed_chapters
    if failed:
        lines += ["", f"## Chapters without an LLM draft ({len(failed)})", ""]
        lines += ["| book | chapter | heading | outcome | error |", "|---|---:|---|---|---|"]
        for item in failed:
            error = (item["error"] or "").replace("|", "/")[:80]
            lines.append(
                f"| {item['book_id']} | {item['chapter_index']} | {item['heading']} "
                f"| {item['outcome']} | {error} |"
            )
        lines += ["", "Their samples show the extractive draft instead."]
    return "\n".join(lines) + "\n"


def overall_has_calls(usage: UsageJson) -> bool:
    every = usage.get("all_invocations")
    return every is not None and bool(every["total"]["calls"])


def usage_line(role: str, usage: RoleFiguresJson) -> str:
    """One role's figures from `UsageLedger.to_dict()` as a sentence."""
    return (
        f"Usage ({role}, this run): {usage['calls']} calls ({usage['cache_hits']} from the "
        f"request cache), {usage['prompt_tokens']:,} prompt + {usage['completion_tokens']:,} "
        f"completion tokens, cost {usage['cost']:.4f}."
    )
