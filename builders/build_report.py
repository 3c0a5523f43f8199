"""The markdown summary of a build report, for people to read next to the JSON."""

from __future__ import annotations

from collections.abc import Mapping

from lengthwise.builders.audit.report import render_audit_section
from lengthwise.builders.build_record import BuildReport, EfficiencyRow
from lengthwise.builders.build_summary import render_summary_section
from lengthwise.builders.corpus_settings import BookReport
from lengthwise.builders.duplicates.report import duplicates_markdown, refusals_markdown
from lengthwise.builders.joining import render_chapter
from lengthwise.builders.structure_report import render_structure_section
from lengthwise.records import Book
from lengthwise.reports import one_line
from lengthwise.stage_runner import Envelope
from lengthwise.tokenizers.efficiency import non_whitespace_characters


def _fmt(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}" if value < 10 else f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _learned_lines(books: list[BookReport]) -> list[str]:
    """Boilerplate cleaning learned per book (see README "Cleaning"), for a person to check."""
    rows = [
        # Double backticks: a learned ASCII pair may hold a backtick itself.
        f"| {book.title} | {line.rule} | `` {line.line} `` | {line.count} "
        f"| {line.scope}: {line.why} |"
        for book in books
        for line in book.learned_boilerplate
    ]
    if not rows:
        return ["", "Learned boilerplate: none."]
    return [
        "",
        "## Learned boilerplate",
        "",
        "| book | rule | line (first seen) | removed | why |",
        "|---|---|---|---:|---|",
        *rows,
    ]


def _damage(damage: dict[str, int]) -> str:
    """Private-use, U+FFFD, mojibake and placeholder characters, or `-`."""
    shown = {k: v for k, v in damage.items() if v and k != "mojibake_runs"}
    return ", ".join(f"{k} {v}" for k, v in shown.items()) or "-"


def render_build_report(report: BuildReport, envelope: Envelope) -> str:
    lines = [
        f"# Build report: {report.spec} {report.spec_version}",
        "",
        f"Primary tokenizer `{report.primary_tokenizer}`, sampling policy `{report.policy}`, "
        f"seed {report.seed}, built in {envelope.seconds or 0.0:.1f} s by lengthwise "
        f"{envelope.tool_version}.",
        "",
        render_summary_section(report),
        *_books_section(report),
        *_subsets_section(report),
        *duplicates_markdown(report.duplicates),
        *refusals_markdown(report.subsets),
        *_length_tables(report),
        "",
        render_audit_section(report.audit),
    ]
    return "\n".join(lines) + "\n"


def _books_section(report: BuildReport) -> list[str]:
    lines = [
        "",
        "## Books",
        "",
        "| book | language | encoding | chapters | tokens | removed by cleaning "
        "| damaged characters left | excluded |",
        "|---|---|---|---:|---:|---|---|---|",
    ]
    primary = report.primary_tokenizer
    for book in report.books:
        removed = ", ".join(f"{k} {v}" for k, v in sorted(book.removed.items())) or "-"
        tokens = book.tokens.get(primary, 0)
        row = (
            f"| {book.title} | {book.language} | {book.encoding} | {book.chapters} | "
            f"{tokens:,} | {removed} | {_damage(book.damage)} | {book.excluded or '-'} |"
        )
        lines.append(one_line(row))
    lines += _learned_lines(report.books)
    lines += render_structure_section(report.books)
    dropped = report.stages["sources"]["dropped"]
    if dropped:
        lines += ["", "Sources dropped: " + ", ".join(f"{k} {v}" for k, v in dropped.items())]
    return lines


def _subsets_section(report: BuildReport) -> list[str]:
    lines = [
        "",
        "## Subsets",
        "",
        "| subset | target | interval | count | books | max book share | min | Q1 | mean "
        "| median | max | candidates | unusable chapters |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, sub in report.subsets.items():
        sel = sub.selection
        tok = sel.tokens
        lines.append(
            f"| {name} | {_fmt(sel.target)} | [{_fmt(sel.lower)}, {_fmt(sel.upper)}] | "
            f"{sel.count} / {sel.requested} | {sel.books} | "
            f"{sel.largest_book_share:.0%} | {_fmt(tok.min)} | {_fmt(tok.q1)} | "
            f"{_fmt(tok.mean)} | {_fmt(tok.median)} | {_fmt(tok.max)} | "
            f"{sel.candidates} | {sel.unusable_chapters} "
            f"({_fmt(sel.unusable_tokens)} tokens) |"
        )
    notes = [
        f"- {name}: {note}"
        for name, sub in report.subsets.items()
        for note in [sub.selection.shortfall, *sub.selection.notes]
        if note
    ]
    if notes:
        lines += ["", "Notes:", "", *notes]
    return lines


def _length_tables(report: BuildReport) -> list[str]:
    """Candidate lengths, encoding efficiency and the length table per tokenizer."""
    lines = ["", "## Candidate lengths (policy `" + report.policy + "`)", ""]
    lines += [
        "| subset | candidates | min | Q1 | median | Q3 | max |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, sub in report.subsets.items():
        dist = sub.selection.candidate_lengths
        lines.append(
            f"| {name} | {sub.selection.candidates} | {_fmt(dist.min)} | "
            f"{_fmt(dist.q1)} | {_fmt(dist.median)} | {_fmt(dist.q3)} | {_fmt(dist.max)} |"
        )
    lines += ["", "## Encoding efficiency (non-whitespace characters per token)", ""]
    lines += [
        "| language | tokenizer | characters | tokens | chars/token |",
        "|---|---|---:|---:|---:|",
    ]
    for eff in report.encoding_efficiency:
        lines.append(
            f"| {eff.language} | `{eff.tokenizer}` | {_fmt(eff.characters)} | "
            f"{_fmt(eff.tokens)} | {_fmt(eff.chars_per_token)} |"
        )
    lines += ["", "## Length table (tokens per tokenizer)", ""]
    lines += [
        "| subset | tokenizer | n | min | Q1 | mean | max |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for row in report.length_table:
        lines.append(
            f"| {row.subset} | `{row.tokenizer}` | {row.n} | {_fmt(row.min)} | "
            f"{_fmt(row.q1)} | {_fmt(row.mean)} | {_fmt(row.max)} |"
        )
    return lines


def encoding_efficiency(
    books: list[Book], tokenizer_ids: list[str], characters: Mapping[str, int] | None = None
) -> list[EfficiencyRow]:
    """Characters per token per language and tokenizer over the kept chapters (CNNSum Table 1).

    Characters are non-whitespace characters (see lengthwise.tokenizers.efficiency), per
    book from `characters` when given (the corpus stage caches them), else counted; token
    counts come from the chapters already counted, so nothing is tokenized again.
    """
    rows: list[EfficiencyRow] = []
    for language in sorted({b.language for b in books}):
        of_language = [b for b in books if b.language == language]
        chapters = [c for b in of_language for c in b.chapters]
        total = sum(
            characters[b.id] if characters is not None else book_characters(b) for b in of_language
        )
        for tokenizer_id in tokenizer_ids:
            tokens = sum(c.token_counts[tokenizer_id] for c in chapters)
            ratio = round(total / tokens, 3) if tokens else None
            rows.append(EfficiencyRow(language, tokenizer_id, total, tokens, ratio))
    return rows


def book_characters(book: Book) -> int:
    """Non-whitespace characters of the book's chapters as samples render them."""
    return sum(non_whitespace_characters(render_chapter(c)) for c in book.chapters)
