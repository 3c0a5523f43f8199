"""`lengthwise draft`: a synopsis draft for every chapter of every selected sample.

Outputs in WORK/drafts/:
- chapters.jsonl: the append-only log of drafts, one per (chapter sha256, drafter);
- samples.jsonl: per sample, its chapters in order with the draft to show annotators;
- report.json / report.md: counts, outcomes, failed chapters, usage and cost, seconds.

With an LLM drafter, a chapter whose outcome is "blocked", "over_length" or "error"
gets no LLM draft: samples.jsonl shows the extractive draft in its place (marked
drafter="extractive" with the reason) and the report lists the chapter. "error"
chapters are retried on the next run; the others are facts about the chapter and stay.
A rerun with nothing new to draft writes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from lengthwise import __version__
from lengthwise.annotation.drafts.draft_report import DraftReport, FailedChapterJson
from lengthwise.annotation.drafts.extractive import (
    EXTRACTIVE_MODEL,
    ExtractiveBudget,
    extractive_draft,
)
from lengthwise.annotation.drafts.jobs import ChapterJob, DraftInputs, load_draft_inputs
from lengthwise.annotation.drafts.llm_drafter import draft_with_llm, llm_drafter_key
from lengthwise.annotation.drafts.prompts import PROMPT_VERSION
from lengthwise.annotation.drafts.report import render_draft_report
from lengthwise.annotation.drafts.store import (
    FAILED_OUTCOMES,
    RETRY_OUTCOMES,
    DraftLog,
    DraftRecord,
    draft_key,
)
from lengthwise.human_records import ChapterDraft, Draft
from lengthwise.llm.accounting import UsageLedger
from lengthwise.llm.types import LLMClient
from lengthwise.llm.usage_journal import UsageJournal
from lengthwise.spec import LLMRoleConfig
from lengthwise.stage_runner import Envelope, Stage, StagePlan, run_stage
from lengthwise.stage_state import crash_point, remove_leftovers
from lengthwise.storage import (
    canonical_hash,
)
from lengthwise.store import WorkStore
from lengthwise.workdir import DraftPaths as DraftPaths
from lengthwise.workdir import WorkDir


@dataclass
class DraftingResult:
    paths: DraftPaths
    up_to_date: bool
    drafter: str  # "llm" or "extractive"
    report: DraftReport


def extractive_drafter_key(budget: ExtractiveBudget) -> str:
    return f"extractive:{EXTRACTIVE_MODEL}:{canonical_hash(asdict(budget))[:8]}"


def run_drafting(
    work_dir: Path,
    client: LLMClient | None = None,
    config: LLMRoleConfig | None = None,
    *,
    extractive_budget: ExtractiveBudget | None = None,
    on_chapter: Callable[[DraftRecord], None] | None = None,
    quiet: bool = False,
) -> DraftingResult:
    """Draft every chapter of every sample in `work_dir` that has no finished draft yet.

    With `client` (and its role `config`) the LLM drafts; without, the extractive
    drafter does. `on_chapter` is called after each chapter's draft is stored. The
    stage's progress display counts chapters (off when `quiet`).
    """
    if (client is None) != (config is None):
        raise ValueError("run_drafting needs both an LLM client and its role config, or neither")
    stage = DraftStage(WorkDir(work_dir).root, client, config, extractive_budget, on_chapter)
    run = run_stage(stage, quiet=quiet)
    return DraftingResult(stage.paths, run.up_to_date, _drafter_name(config), run.body)


@dataclass
class _DraftPlan:
    inputs: DraftInputs
    pending: list[ChapterJob]
    log: DraftLog


@dataclass
class DraftStage(Stage[_DraftPlan, DraftReport]):
    root: Path
    client: LLMClient | None
    config: LLMRoleConfig | None
    extractive_budget: ExtractiveBudget | None
    on_chapter: Callable[[DraftRecord], None] | None
    body_type = DraftReport
    name = "draft"

    def __post_init__(self) -> None:
        self.work = WorkDir(self.root)
        self.paths = self.work.drafts
        self.report_json, self.report_markdown = self.paths.report, self.paths.report_md
        self.budget = self.extractive_budget or ExtractiveBudget()
        self.extractive_key = extractive_drafter_key(self.budget)
        config = self.config
        self.primary_key = llm_drafter_key(config) if config is not None else self.extractive_key

    def clear_leftovers(self) -> None:
        remove_leftovers(self.paths.root)

    def plan(self) -> StagePlan[_DraftPlan]:
        inputs = load_draft_inputs(self.work)
        draft_log = DraftLog(self.paths.chapters)

        def done(job: ChapterJob) -> bool:
            record = draft_log.get(draft_key(job.sha256, self.primary_key))
            return record is not None and record.outcome not in RETRY_OUTCOMES

        pending = [job for job in inputs.jobs if not done(job)]
        fingerprint = canonical_hash(
            {
                "tool": __version__,
                "inputs": inputs.fingerprint,
                "drafter": self.primary_key,
                "extractive": self.extractive_key,
            }
        )
        plan = _DraftPlan(inputs, pending, draft_log)
        # The draft log too: samples.jsonl is made from it, so an edit to it must make
        # the stage run (and its unverified lines be drafted again), not pass.
        outputs = [self.paths.samples, *([self.paths.chapters] if inputs.jobs else [])]
        return StagePlan(plan, fingerprint, outputs, rerun=bool(pending))

    def render_body(self, body: DraftReport, envelope: Envelope) -> str:
        return render_draft_report(body, envelope)

    def compute(self, plan: StagePlan[_DraftPlan]) -> DraftReport:
        inputs, pending, draft_log = plan.inputs.inputs, plan.inputs.pending, plan.inputs.log
        budget, primary_key, extractive_key = self.budget, self.primary_key, self.extractive_key
        # Usage of every invocation on this work directory, killed ones included.
        ledger = UsageLedger(UsageJournal(self.work.usage_journal("draft")))
        step = self.display.step("chapters", total=len(pending), unit="chapter")

        def drafted(record: DraftRecord) -> None:
            step.advance()
            if self.on_chapter is not None:
                self.on_chapter(record)

        if self.client is not None and self.config is not None:
            draft_with_llm(pending, self.client, self.config, draft_log, ledger, drafted)
        else:
            for job in pending:
                record = _extractive_record(job, budget, extractive_key)
                draft_log.append(record)
                crash_point("draft:chapter-drafted")
                drafted(record)
        step.close()
        # Chapters the LLM could not draft get an extractive draft in their place.
        for job in inputs.jobs:
            primary = draft_log.get(draft_key(job.sha256, primary_key))
            fallback = draft_key(job.sha256, extractive_key)
            if primary and primary.outcome in FAILED_OUTCOMES and draft_log.get(fallback) is None:
                draft_log.append(_extractive_record(job, budget, extractive_key))
        records = draft_log.records
        drafts = _sample_drafts(inputs, records, primary_key, extractive_key)
        WorkStore(self.work).write_drafts(drafts)
        return _report(inputs, records, primary_key, self.config, pending, ledger)


def _drafter_name(config: LLMRoleConfig | None) -> str:
    return "extractive" if config is None else "llm"


def _extractive_record(job: ChapterJob, budget: ExtractiveBudget, key: str) -> DraftRecord:
    # The heading line is no sentence of the story: leave it out of the candidates.
    body = job.text.split("\n", 1)[1] if job.heading.strip() and "\n" in job.text else job.text
    return DraftRecord(
        chapter_sha256=job.sha256,
        book_id=job.book_id,
        chapter_index=job.index,
        heading=job.heading,
        language=job.language,
        drafter="extractive",
        drafter_key=key,
        model=EXTRACTIVE_MODEL,
        prompt_version="",
        outcome="ok",
        text=extractive_draft(body, job.language, budget),
    )


def _sample_drafts(
    inputs: DraftInputs, records: dict[str, DraftRecord], primary_key: str, extractive_key: str
) -> list[Draft]:
    drafts = []
    for sample in inputs.samples:
        chapters = []
        for chapter in sample.chapters:
            record = records[draft_key(chapter.sha256, primary_key)]
            reason = None
            if record.outcome in FAILED_OUTCOMES:
                reason = f"llm outcome {record.outcome}"
                record = records[draft_key(chapter.sha256, extractive_key)]
            chapters.append(
                ChapterDraft(
                    chapter_index=chapter.index,
                    heading=chapter.heading,
                    text=record.text,
                    drafter=record.drafter,
                    model=record.model,
                    fallback_reason=reason,
                    chapter_sha256=chapter.sha256,
                    prompt_version=record.prompt_version,
                    outcome=record.outcome,
                )
            )
        drafts.append(Draft(sample.sample_id, tuple(chapters), sample.subset, sample.book_id))
    return drafts


def _report(
    inputs: DraftInputs,
    records: dict[str, DraftRecord],
    primary_key: str,
    config: LLMRoleConfig | None,
    pending: list[ChapterJob],
    ledger: UsageLedger,
) -> DraftReport:
    primary = [records[draft_key(job.sha256, primary_key)] for job in inputs.jobs]
    failed: list[FailedChapterJson] = [
        {
            "book_id": r.book_id,
            "chapter_index": r.chapter_index,
            "heading": r.heading,
            "outcome": r.outcome,
            "error": r.error,
            "shown_instead": "extractive draft",
        }
        for r in primary
        if r.outcome in FAILED_OUTCOMES
    ]
    return DraftReport(
        drafter=_drafter_name(config),
        drafter_key=primary_key,
        extractive_fallback=config is None,
        model=config.model if config else EXTRACTIVE_MODEL,
        base_url=config.base_url if config else None,
        revision=config.revision if config else None,
        prompt_versions=dict(PROMPT_VERSION) if config else {},
        samples=len(inputs.samples),
        chapters=len(inputs.jobs),
        drafted_this_run=len(pending),
        reused=len(inputs.jobs) - len(pending),
        outcomes=dict(sorted(Counter(r.outcome for r in primary).items())),
        failed_chapters=failed,
        stored_usage={
            "prompt_tokens": sum(r.usage.get("prompt_tokens", 0) for r in primary),
            "completion_tokens": sum(r.usage.get("completion_tokens", 0) for r in primary),
        },
        usage=ledger.usage_json(),
    )
