"""`lengthwise probe`: ask the probe model to summarise a few random chapters of each book.

For every book in WORK/corpus/books.jsonl, `chapters_per_book` chapters are drawn at
random (seeded by the spec's seed and the book id, so the draw is stable across runs
and does not change when other books are added). Each chapter goes to the probe model
with a plain "summarise this chapter" prompt that names neither book nor author; the
outputs are checked for the book's title and author (`mentions`) and for names the
chapter does not contain (`entities`), and `decision` flags the book or not. Calls go
through the request cache, so a rerun repeats none; a rerun with unchanged inputs
writes nothing.
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from lengthwise import __version__
from lengthwise.builders.joining import render_chapter
from lengthwise.builders.screening.decision import ProbeOutput, ProbeThresholds, decide
from lengthwise.builders.screening.entities import check_names
from lengthwise.builders.screening.mentions import (
    author_variants,
    find_mentions,
    title_variants,
)
from lengthwise.builders.screening.prompts import (
    PROBE_PROMPT_VERSION,
    fit_to_context,
    probe_request,
)
from lengthwise.builders.screening.report import ScreeningPaths, render_probe_report
from lengthwise.llm.accounting import UsageLedger
from lengthwise.llm.types import ChatRequest, LLMClient
from lengthwise.records import Book
from lengthwise.spec import LLMRoleConfig
from lengthwise.storage import (
    atomic_write_json,
    atomic_write_text,
    canonical_hash,
    read_json,
    sha256_file,
)
from lengthwise.store import read_books_file
from lengthwise.workdir import WorkDir

METHOD = "probe-v1"


@dataclass(frozen=True)
class ProbeSettings:
    chapters_per_book: int = 3
    seed: int = 0
    thresholds: ProbeThresholds = field(default_factory=ProbeThresholds)


@dataclass
class ProbeResult:
    paths: ScreeningPaths
    up_to_date: bool
    report: dict[str, Any]


def choose_chapters(book: Book, count: int, seed: int) -> list[int]:
    """`count` distinct chapter indexes of `book`, stable for a (seed, book id) pair."""
    rng = random.Random(f"{seed}:{book.id}")  # str seeds hash with sha512: stable everywhere
    return sorted(rng.sample(range(len(book.chapters)), min(count, len(book.chapters))))


def read_books(path: Path) -> list[Book]:
    """The books of WORK/corpus/books.jsonl in file order (through the work store)."""
    return list(read_books_file(path).values())


def run_probe(
    work_dir: Path,
    client: LLMClient | None,
    config: LLMRoleConfig | None,
    settings: ProbeSettings,
    not_run_reason: str = "no probe model configured ([llm.probe] in the spec)",
) -> ProbeResult:
    """Probe every book and write WORK/screening/contamination.json and .md."""
    started = time.perf_counter()
    work = WorkDir(work_dir)
    paths = work.screening
    if settings.chapters_per_book < 1:
        raise ValueError(f"chapters per book must be at least 1, got {settings.chapters_per_book}")
    books = read_books(work.books)
    fingerprint = canonical_hash(
        {
            "tool": __version__,
            "method": METHOD,
            "books": sha256_file(work.books),
            "probe": _identity(config) if client is not None else None,
            "settings": asdict(settings),
        }
    )
    if _current(paths, fingerprint):
        return ProbeResult(paths, True, read_json(paths.report))
    report: dict[str, Any] = {
        "stage": "contamination-probe",
        "tool_version": __version__,
        "fingerprint": fingerprint,
        "method": METHOD,
        "chapters_per_book": settings.chapters_per_book,
        "seed": settings.seed,
        "thresholds": asdict(settings.thresholds),
    }
    if client is None or config is None:
        report |= {"status": "not run", "reason": not_run_reason, "books": [], "flagged": {}}
    else:
        report |= {"status": "run", "reason": None, **_probe(books, client, config, settings)}
    report["seconds"] = round(time.perf_counter() - started, 3)
    atomic_write_text(paths.report_md, render_probe_report(report))
    atomic_write_json(paths.report, report)
    return ProbeResult(paths, False, report)


def _identity(config: LLMRoleConfig | None) -> dict[str, Any] | None:
    if config is None:
        return None
    return {
        "backend": config.backend,
        "model": config.model,
        "base_url": config.base_url,
        "revision": config.revision,
        "max_tokens": config.max_tokens,
        "temperature": config.temperature,
        "seed": config.seed,
        "context_window": config.context_window,
        "prompts": PROBE_PROMPT_VERSION,
    }


def _current(paths: ScreeningPaths, fingerprint: str) -> bool:
    if not (paths.report.is_file() and paths.report_md.is_file()):
        return False
    try:
        return bool(read_json(paths.report).get("fingerprint") == fingerprint)
    except (ValueError, OSError, AttributeError):
        return False


def _probe(
    books: list[Book], client: LLMClient, config: LLMRoleConfig, settings: ProbeSettings
) -> dict[str, Any]:
    requests: list[ChatRequest] = []
    plan: list[tuple[int, int, str, bool]] = []  # book, chapter index, text shown, truncated
    for b, book in enumerate(books):
        for index in choose_chapters(book, settings.chapters_per_book, settings.seed):
            full = render_chapter(book.chapters[index])
            shown = fit_to_context(full, config)
            plan.append((b, index, shown, shown != full))
            requests.append(probe_request(shown, book.language, config))
    results = client.complete_many(requests) if requests else []

    ledger = UsageLedger()
    ledger.record_many("probe", config, results)
    outputs: dict[int, list[ProbeOutput]] = {b: [] for b in range(len(books))}
    for (b, index, shown, truncated), result in zip(plan, results, strict=True):
        book = books[b]
        mentions = find_mentions(result.text, shown, book.title, book.author)
        ignore = title_variants(book.title) + author_variants(book.author)
        names = check_names(result.text, shown, book.language, ignore)
        outputs[b].append(
            ProbeOutput(
                chapter_index=index,
                heading=book.chapters[index].heading,
                outcome=result.outcome,
                text=result.text,
                usage={
                    "prompt_tokens": result.usage.prompt_tokens,
                    "completion_tokens": result.usage.completion_tokens,
                },
                error=result.error,
                mentions=[asdict(m) for m in mentions],
                names=names.names,
                unsupported=names.unsupported,
                truncated=truncated,
            )
        )
    entries = []
    flagged: dict[str, str] = {}
    for b, book in enumerate(books):
        decision = decide(outputs[b], settings.thresholds)
        if decision.flagged:
            flagged[book.id] = "; ".join(decision.reasons)
        entries.append(
            {
                "book_id": book.id,
                "title": book.title,
                "author": book.author,
                "language": book.language,
                "chapters": len(book.chapters),
                "flagged": decision.flagged,
                "probed": decision.probed,
                "reasons": decision.reasons,
                "evidence": decision.evidence,
                "outputs": [asdict(o) for o in outputs[b]],
            }
        )
    return {
        "model": config.model,
        "base_url": config.base_url,
        "revision": config.revision,
        "prompt_versions": PROBE_PROMPT_VERSION,
        "books": entries,
        "flagged": flagged,
        "usage": ledger.to_dict(),
    }
