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
from dataclasses import asdict, dataclass, field
from pathlib import Path

from lengthwise import __version__
from lengthwise.builders.joining import render_chapter
from lengthwise.builders.screening.decision import ProbeOutput, ProbeThresholds, decide
from lengthwise.builders.screening.entities import check_names
from lengthwise.builders.screening.mentions import (
    author_variants,
    find_mentions,
    title_variants,
)
from lengthwise.builders.screening.probe_report import ProbedBook, ProbeReport
from lengthwise.builders.screening.prompts import (
    PROBE_PROMPT_VERSION,
    fit_to_context,
    probe_request,
)
from lengthwise.builders.screening.report import ScreeningPaths, render_probe_report
from lengthwise.errors import UserError
from lengthwise.llm.accounting import UsageLedger
from lengthwise.llm.types import ChatRequest, ChatResult, LLMClient
from lengthwise.progress import ProgressDisplay
from lengthwise.records import Book
from lengthwise.spec import LLMRoleConfig
from lengthwise.stage_runner import Envelope, Stage, StagePlan, run_stage
from lengthwise.stage_state import remove_leftovers
from lengthwise.storage import (
    canonical_hash,
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
    report: ProbeReport


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
    if settings.chapters_per_book < 1:
        raise UserError(f"chapters per book must be at least 1, got {settings.chapters_per_book}")
    stage = ProbeStage(WorkDir(work_dir), client, config, settings, not_run_reason)
    run = run_stage(stage)
    return ProbeResult(stage.paths, run.up_to_date, run.body)


@dataclass
class ProbeStage(Stage[list[Book], ProbeReport]):
    work: WorkDir
    client: LLMClient | None
    config: LLMRoleConfig | None
    settings: ProbeSettings
    not_run_reason: str
    body_type = ProbeReport
    name = "probe"

    def __post_init__(self) -> None:
        self.root = self.work.root
        self.paths = self.work.screening
        self.report_json, self.report_markdown = self.paths.report, self.paths.report_md

    def clear_leftovers(self) -> None:
        remove_leftovers(self.paths.report.parent)

    def plan(self) -> StagePlan[list[Book]]:
        books = read_books(self.work.books)
        fingerprint = canonical_hash(
            {
                "tool": __version__,
                "method": METHOD,
                "books": sha256_file(self.work.books),
                "probe": _identity(self.config) if self.client is not None else None,
                "settings": asdict(self.settings),
            }
        )
        return StagePlan(books, fingerprint)

    def render_body(self, body: ProbeReport, envelope: Envelope) -> str:
        return render_probe_report(body)

    def compute(self, plan: StagePlan[list[Book]]) -> ProbeReport:
        settings = self.settings
        report = ProbeReport(
            METHOD, settings.chapters_per_book, settings.seed, settings.thresholds, "not run", None
        )
        if self.client is None or self.config is None:
            report.reason = self.not_run_reason
            return report
        report.status = "run"
        _probe(report, plan.inputs, self.client, self.config, self.display)
        return report


def _identity(config: LLMRoleConfig | None) -> dict[str, object] | None:
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


def _probe_output(
    book: Book, index: int, shown: str, truncated: bool, result: ChatResult
) -> ProbeOutput:
    """One probed chapter: the answer and what it gives away (title, author, unseen names)."""
    mentions = find_mentions(result.text, shown, book.title, book.author)
    ignore = title_variants(book.title) + author_variants(book.author)
    names = check_names(result.text, shown, book.language, ignore)
    return ProbeOutput(
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


def _probe(
    report: ProbeReport,
    books: list[Book],
    client: LLMClient,
    config: LLMRoleConfig,
    display: ProgressDisplay,
) -> None:
    """Probe `books` and fill in the run's fields of `report`."""
    requests: list[ChatRequest] = []
    plan: list[tuple[int, int, str, bool]] = []  # book, chapter index, text shown, truncated
    for b, book in enumerate(books):
        for index in choose_chapters(book, report.chapters_per_book, report.seed):
            full = render_chapter(book.chapters[index])
            shown = fit_to_context(full, config)
            plan.append((b, index, shown, shown != full))
            requests.append(probe_request(shown, book.language, config))
    with display.step("chapters", total=len(requests), unit="chapter") as step:
        results = client.complete_many(requests, on_result=lambda *_: step.advance())

    ledger = UsageLedger()
    ledger.record_many("probe", config, results)
    outputs: dict[int, list[ProbeOutput]] = {b: [] for b in range(len(books))}
    for (b, index, shown, truncated), result in zip(plan, results, strict=True):
        outputs[b].append(_probe_output(books[b], index, shown, truncated, result))
    for b, book in enumerate(books):
        decision = decide(outputs[b], report.thresholds)
        if decision.flagged:
            report.flagged[book.id] = "; ".join(decision.reasons)
        report.books.append(
            ProbedBook(
                book.id,
                book.title,
                book.author,
                book.language,
                len(book.chapters),
                decision.flagged,
                decision.probed,
                decision.reasons,
                decision.evidence,
                outputs[b],
            )
        )
    report.model, report.base_url = config.model, config.base_url
    report.revision, report.prompt_versions = config.revision, dict(PROBE_PROMPT_VERSION)
    report.usage = ledger.usage_json()
