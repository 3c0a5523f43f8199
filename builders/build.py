"""`lengthwise build`: ingestion through selection, resumable and idempotent.

Stages: read sources -> corpus (clean, chapters, token counts) -> candidate windows per
subset -> balanced selection -> exact recount of each sample's text -> parquet per
subset, a JSON build report and a markdown summary. A rerun whose inputs (spec and
raw source bytes) are unchanged does nothing; a rerun that changes only sampling
settings reuses the cached books and token counts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from lengthwise import __version__
from lengthwise.builders.audit import run_audit
from lengthwise.builders.audit.chapter_pieces import DETECTOR_VERSION
from lengthwise.builders.audit.stage import AuditOutcome
from lengthwise.builders.audit.subset_figures import apply_audit_drops
from lengthwise.builders.build_corpus import corpus_stage, document_identities
from lengthwise.builders.build_record import BuildReport, SubsetReport
from lengthwise.builders.build_report import encoding_efficiency, render_build_report
from lengthwise.builders.corpus_settings import PIPELINE_VERSION
from lengthwise.builders.duplicates import (
    DuplicateFindings,
)
from lengthwise.builders.duplicates.build_stage import (
    duplicates_stage,
    sampling_lengths,
    select_subsets,
)
from lengthwise.builders.joining import joins_exactly, run_tokens, sample_text
from lengthwise.builders.samples import sample_row
from lengthwise.builders.sampling import (
    CandidateSet,
    ChapterRun,
    build_candidates,
    length_table,
    recheck_near_bounds,
    summarize_subset,
)
from lengthwise.builders.sampling.runs import DroppedRunJson
from lengthwise.builders.screening import flagged_books
from lengthwise.builders.sources import SourceStatCache, read_sources, require_kept
from lengthwise.errors import UserError
from lengthwise.executors import make_executor
from lengthwise.records import Book, Sample, SourceDocument
from lengthwise.reports import StageReport, StageReportJson
from lengthwise.spec import Spec, SubsetSpec
from lengthwise.stage_runner import Envelope, Stage, StagePlan, run_stage
from lengthwise.stage_state import crash_point, remove_leftovers
from lengthwise.storage import (
    atomic_write_parquet_many,
    canonical_hash,
    sha256_text,
)
from lengthwise.tokenizers import TokenCountCache, count_texts
from lengthwise.workdir import WorkDir

log = logging.getLogger(__name__)


@dataclass
class BuildResult:
    work: WorkDir
    up_to_date: bool
    report: BuildReport


# WORK/samples/*.parquet: zstd rather than pyarrow's default snappy. Their text is mostly
# CJK in UTF-8, which snappy shrinks by a third only; zstd writes 20% fewer bytes for
# about the same CPU, and a sampling-only rebuild, which rewrites every file just after
# a cold build, is bound by those bytes (zh-classics: 6.6 MB instead of 8.3 MB).
SAMPLES_COMPRESSION = "zstd"

# The spec sections that change what `build` produces; later stages' sections (llm,
# tasks, ...) must not invalidate a finished build.
BUILD_SECTIONS = {"name", "version", "language", "seed", "sources", "cleaning", "chapters"}
BUILD_SECTIONS |= {"crawl", "tokenizers", "subsets", "sampling", "screening", "duplicates"}
BUILD_SECTIONS |= {"audit"}


def spec_fingerprint(spec: Spec) -> str:
    return canonical_hash(spec.model_dump(mode="json", include=BUILD_SECTIONS))


def run_build(
    spec: Spec, work_dir: Path, progress: bool = True, workers: int | None = None
) -> BuildResult:
    stage = BuildStage(spec, WorkDir(work_dir), workers)
    run = run_stage(stage, quiet=not progress)
    return BuildResult(stage.work, run.up_to_date, run.body)


@dataclass
class _BuildInputs:
    docs: list[SourceDocument]
    sources: StageReportJson  # the sources StageReport, finished
    excluded_by_probe: dict[str, str]
    # Some documents are headers without text (their files' stat was unchanged): the
    # corpus stage reads the sources again if it cannot reuse its outputs.
    headers_only: bool


@dataclass
class BuildStage(Stage[_BuildInputs, BuildReport]):
    spec: Spec
    work: WorkDir
    workers: int | None
    body_type = BuildReport
    name = "build"

    def __post_init__(self) -> None:
        self.root = self.work.root
        self.report_json = self.work.build_report
        self.report_markdown = self.work.build_report_md

    def clear_leftovers(self) -> None:
        for folder in (self.work.root, self.work.samples, self.work.books.parent):
            remove_leftovers(folder)

    def plan(self) -> StagePlan[_BuildInputs]:
        spec, work = self.spec, self.work
        sources_report = StageReport("sources", max_examples=None)
        stat_cache = SourceStatCache(work.source_stats)
        docs = list(read_sources(spec, work.http_cache, sources_report, stat_cache))
        sources_report.finish()
        require_kept(sources_report, "no readable book in the sources")  # status 2, nothing written
        stat_cache.save()  # after the refusal: a refused build writes nothing
        # Books flagged by the contamination probe (`lengthwise probe`) leave sampling if asked.
        excluded = flagged_books(work.root) if spec.screening.exclude_flagged else {}
        fingerprint = canonical_hash(
            {
                "tool": __version__,
                # Between releases (same __version__) a changed corpus stage or audit
                # detector still makes the build run again.
                "pipeline": [PIPELINE_VERSION, DETECTOR_VERSION],
                "spec": spec_fingerprint(spec),
                "documents": [(d.id, d.raw_sha256, d.source) for d in docs],
                "excluded_by_probe": excluded,
            }
        )
        # The corpus files too: the build reuses them when they are current, so an edit
        # to books.jsonl must make it run (and the corpus step redo them), not pass.
        outputs = [work.subset_samples(s.name) for s in spec.subsets]
        outputs += [work.books, work.books_report, work.repeated_chapters]
        inputs = _BuildInputs(docs, sources_report.to_dict(), excluded, stat_cache.hits > 0)
        return StagePlan(inputs, fingerprint, outputs)

    def render_body(self, body: BuildReport, envelope: Envelope) -> str:
        return render_build_report(body, envelope)

    def _with_text(self, inputs: _BuildInputs) -> Callable[[], list[SourceDocument]]:
        """The planned documents with their text: read again (no stat cache) if needed."""

        def documents() -> list[SourceDocument]:
            if not inputs.headers_only:
                return inputs.docs
            report = StageReport("sources", max_examples=None)
            docs = list(read_sources(self.spec, self.work.http_cache, report))
            if document_identities(docs) != document_identities(inputs.docs):
                raise UserError("source files changed while the build ran; run it again")
            return docs

        return documents

    def compute(self, plan: StagePlan[_BuildInputs]) -> BuildReport:
        spec, work, excluded_by_probe = self.spec, self.work, plan.inputs.excluded_by_probe
        step = self.display.step("books", total=len(plan.inputs.docs), unit="book")
        corpus = corpus_stage(
            spec, work, plan.inputs.docs, step, self.workers, self._with_text(plan.inputs)
        )
        books, book_reports, corpus_report = corpus.books, corpus.reports, corpus.stage
        require_kept(corpus_report, "no book left after cleaning and chapter detection")
        runner = make_executor(spec.executor, self.workers)
        books, duplicates, duplicates_report = duplicates_stage(
            spec.duplicates, books, book_reports, corpus.repeated, work.cache, runner
        )
        screening = StageReport("screening")
        for book in books:
            if book.id in excluded_by_probe:
                screening.drop("contamination-flagged", f"{book.id}: {excluded_by_probe[book.id]}")
            else:
                screening.keep()
        books = [b for b in books if b.id not in excluded_by_probe]
        screening.finish()
        count_cache = TokenCountCache(work.cache / "token_counts.sqlite")
        try:
            subset_rows, subsets_report = _sample_subsets(
                spec, books, count_cache, self.workers, duplicates
            )
        finally:
            count_cache.close()
        audit = _audit_and_write_samples(spec, work, books, subset_rows, self.workers)
        subset_rows = audit.kept
        apply_audit_drops(subsets_report, subset_rows)
        samples_tokens = {
            name: {t: [r.token_counts[t] for r in rows] for t in spec.tokenizers.all}
            for name, rows in subset_rows.items()
        }
        crash_point("build:samples-written")
        return BuildReport(
            spec=spec.name,
            spec_version=spec.version,
            primary_tokenizer=spec.tokenizers.primary,
            tokenizers=spec.tokenizers.all,
            policy=spec.sampling.policy,
            seed=spec.seed,
            stages={
                "sources": plan.inputs.sources,
                "corpus": corpus_report.to_dict(),
                "duplicates": duplicates_report.to_dict(),
                "screening": screening.to_dict(),
            },
            duplicates=duplicates.to_dict(),
            books=book_reports,
            subsets=subsets_report,
            length_table=length_table(samples_tokens),
            encoding_efficiency=encoding_efficiency(books, spec.tokenizers.all, corpus.characters),
            audit=audit.summary,
            sampled_books=[b.id for b in books],
        )


def _audit_and_write_samples(
    spec: Spec,
    work: WorkDir,
    books: list[Book],
    subset_rows: dict[str, list[Sample]],
    workers: int | None,
) -> AuditOutcome:
    """Audit the samples and write the kept ones, one parquet file per subset."""
    audit = run_audit(
        subset_rows,
        spec.audit,
        work.root,
        books={b.id: b for b in books},
        cache_dir=work.cache,
        executor=spec.executor,
        workers=workers,
    )
    files = {work.subset_samples(n): [s.to_row() for s in r] for n, r in audit.kept.items()}
    atomic_write_parquet_many(files, SAMPLES_COMPRESSION)
    return audit


def _sample_subsets(
    spec: Spec,
    books: list[Book],
    count_cache: TokenCountCache,
    workers: int | None,
    duplicates: DuplicateFindings,
) -> tuple[dict[str, list[Sample]], dict[str, SubsetReport]]:
    """Candidates -> exact recheck near the bounds -> selection -> exact recount -> samples."""
    primary = spec.tokenizers.primary
    by_id = {b.id: b for b in books}
    # With an exactly-joining tokenizer, chapter lengths include the separator that follows,
    # so window sums overshoot the exact count by at most the last chapter's separator.
    field = "token_counts_followed" if joins_exactly(primary) else "token_counts"
    lengths = sampling_lengths(books, primary, field, spec.sampling.allow_number_gaps)
    counter = _ExactCounter(by_id, spec.tokenizers.all, count_cache, workers)

    candidate_sets = build_candidates(lengths, spec.subsets, spec.sampling)
    recount_dropped = _recheck_near_bounds(candidate_sets, counter)
    selections, copy_overlaps = select_subsets(candidate_sets, spec, duplicates)

    subset_rows: dict[str, list[Sample]] = {}
    report: dict[str, SubsetReport] = {}
    for subset in spec.subsets:
        selection = selections[subset.name]
        runs = list(selection.samples)
        dropped = recount_dropped[subset.name]
        rows, exact_runs = _exact_rows(subset, runs, counter, by_id, primary, dropped)
        summary = summarize_subset(
            replace(selection, samples=tuple(exact_runs)), candidate_sets[subset.name]
        )
        subset_rows[subset.name] = rows
        report[subset.name] = SubsetReport(
            selection=summary,
            recount_dropped=recount_dropped[subset.name],
            refused_number_gaps=candidate_sets[subset.name].refused_number_gaps,
            refused_copy_overlap=copy_overlaps[subset.name],
        )
    return subset_rows, report


def _recheck_near_bounds(
    candidate_sets: dict[str, CandidateSet], counter: _ExactCounter
) -> dict[str, list[DroppedRunJson]]:  # candidate sets by subset name
    """Joining chapters shifts a count by a few tokens per joint: recount runs near a bound
    (in place) and return the runs dropped per subset."""
    dropped_by_subset: dict[str, list[DroppedRunJson]] = {}
    for name, candidate_set in candidate_sets.items():
        kept, dropped = recheck_near_bounds(candidate_set, counter.primary)
        candidate_sets[name] = kept
        dropped_by_subset[name] = [
            run.dropped("joined text recount outside [lower, upper]") for run in dropped
        ]
    return dropped_by_subset


def _exact_rows(
    subset: SubsetSpec,
    runs: list[ChapterRun],
    counter: _ExactCounter,
    by_id: dict[str, Book],
    primary: str,
    dropped: list[DroppedRunJson],
) -> tuple[list[Sample], list[ChapterRun]]:
    """Samples of the selected runs whose exact joined-text count lies within the subset's
    interval; the others are appended to `dropped` with their count."""
    counts = counter.all(runs)
    rows: list[Sample] = []
    exact_runs: list[ChapterRun] = []
    for run in runs:
        exact = counts[run.id]
        if not subset.lower <= exact[primary] <= subset.upper:
            dropped.append(run.dropped(f"joined text has {exact[primary]} tokens"))
            continue
        exact_runs.append(replace(run, tokens=exact[primary]))
        book = by_id[run.book_id]
        row = sample_row(book, run.first, run.last, subset, exact, primary, parent_id=run.parent_id)
        rows.append(row)
    return rows, exact_runs


class _ExactCounter:
    """Exact token counts of joined sample texts, through the shared count cache."""

    def __init__(
        self,
        books: dict[str, Book],
        tokenizer_ids: list[str],
        cache: TokenCountCache,
        workers: int | None,
    ) -> None:
        self.books = books
        self.tokenizer_ids = tokenizer_ids
        self.cache = cache
        self.workers = workers

    def primary(self, run: ChapterRun) -> int:
        return self.all([run], workers=1)[run.id][self.tokenizer_ids[0]]

    def all(self, runs: list[ChapterRun], workers: int | None = None) -> dict[str, dict[str, int]]:
        counts: dict[str, dict[str, int]] = {run.id: {} for run in runs}
        exact = [t for t in self.tokenizer_ids if joins_exactly(t)]
        recount = [t for t in self.tokenizer_ids if not joins_exactly(t)]
        for run in runs:
            book = self.books[run.book_id]
            for tokenizer_id in exact:
                counts[run.id][tokenizer_id] = run_tokens(book, run.first, run.last, tokenizer_id)
        if runs and recount:
            texts = [sample_text(self.books[r.book_id], r.first, r.last) for r in runs]
            keyed = [(sha256_text(t), t) for t in texts]
            result = count_texts(
                keyed, recount, cache=self.cache, workers=workers or self.workers or 2
            )
            for i, run in enumerate(runs):
                counts[run.id].update({t: result[t][i] for t in recount})
        return counts
