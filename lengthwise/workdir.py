"""Every path inside a benchmark's work directory, for every stage.

No stage joins strings onto the work dir itself: it asks `WorkDir` (or one of the
per-stage groups below, reached as `work.drafts`, `work.annotations`, ...). The work
dir travels through stage functions as `work: WorkDir`. Names that become file names
(subsets, tasks, lengths) are checked again here (lengthwise/names.py), so no path ever
leaves the work dir whatever a caller passes.

WORK/
    corpus/books.jsonl, books_report.json, repeated_chapters.json   build (corpus)
    samples/<subset>.parquet                                        build (samples)
    build_report.json, build_report.md                              build
    audit/samples.jsonl                                             build (audit)
    screening/contamination.json, .md                               screen
    drafts/chapters.jsonl, samples.jsonl, report.json, report.md    draft
    labelstudio/...                                                 annotate serve/push/pull
    annotations/annotations.jsonl, review.json, report.*            annotate pull/review
    samples_annotated/<subset>.parquet                              annotate review
    tasks/<task>/<length>.parquet, tasks/report.json, .md           build (task families)
    tasks/<task>/chunk_labels.jsonl, validations.jsonl              build, annotate tasks pull
    stats/stats.json, stats.md, samples.jsonl                       stats
    releases/<tag>/                                                 release
    cache/http/, cache/llm.sqlite, cache/source_stats.json          caches
    locks/<stage>.lock, state/<stage>.json, state/*-usage.jsonl     stage bookkeeping
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lengthwise.names import check_name
from lengthwise.spec import Spec

WORK_ROOT = Path("lw-work")  # default work dirs: lw-work/<spec name>
EVAL_ROOT = Path("lw-eval")  # default evaluation run folders: lw-eval/<model>-<release>


def default_work_dir(spec: Spec) -> Path:
    return WORK_ROOT / spec.name


@dataclass(frozen=True)
class DraftPaths:
    """WORK/drafts: the drafting stage's chapter log, per-sample drafts and report."""

    root: Path

    @property
    def chapters(self) -> Path:
        return self.root / "chapters.jsonl"

    @property
    def samples(self) -> Path:
        return self.root / "samples.jsonl"

    @property
    def report(self) -> Path:
        return self.root / "report.json"

    @property
    def report_md(self) -> Path:
        return self.root / "report.md"


@dataclass(frozen=True)
class ScreeningPaths:
    """WORK/screening: the contamination probe's report."""

    root: Path

    @property
    def report(self) -> Path:
        return self.root / "contamination.json"

    @property
    def report_md(self) -> Path:
        return self.root / "contamination.md"


@dataclass(frozen=True)
class LabelStudioPaths:
    """WORK/labelstudio: the Label Studio loop's files.

    data/              Label Studio's data dir (SQLite database, media)
    texts/<book>/      original chapters as HTML pages, served to annotators as local files
    credentials.json   admin e-mail, password, API token (mode 0600)
    state.json         project id and title, what push did last
    server.json        URL and pid of the running `annotate serve`
    server.log         the server's output
    home/              HOME of the server process (it must not write to the user's)
    """

    work_root: Path

    @property
    def root(self) -> Path:
        return self.work_root / "labelstudio"

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def texts(self) -> Path:
        return self.root / "texts"

    @property
    def credentials(self) -> Path:
        return self.root / "credentials.json"

    @property
    def state(self) -> Path:
        return self.root / "state.json"

    @property
    def server_info(self) -> Path:
        """URL and pid of the server `annotate serve` is running (removed when it stops)."""
        return self.root / "server.json"

    @property
    def server_log(self) -> Path:
        return self.root / "server.log"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def task_checks_state(self) -> Path:
        """Per task: the Label Studio project of its human checks, what push did last."""
        return self.root / "task_checks.json"


@dataclass(frozen=True)
class AnnotationPaths:
    """WORK/annotations (pulled annotations, review) and WORK/samples_annotated."""

    work: WorkDir

    @property
    def root(self) -> Path:
        return self.work.root / "annotations"

    @property
    def annotations(self) -> Path:
        return self.root / "annotations.jsonl"

    @property
    def labelstudio_export(self) -> Path:
        """Label Studio's raw export as `annotate pull` received it, kept for audit."""
        return self.root / "labelstudio_export.json"

    @property
    def overrides(self) -> Path:
        return self.root / "review_overrides.jsonl"

    @property
    def review(self) -> Path:
        return self.root / "review.json"

    @property
    def report(self) -> Path:
        return self.root / "report.json"

    @property
    def report_md(self) -> Path:
        return self.root / "report.md"

    @property
    def samples_annotated(self) -> Path:
        return self.work.samples_annotated

    def subset_annotated(self, subset: str) -> Path:
        return self.work.subset_annotated(subset)


@dataclass(frozen=True)
class StatsPaths:
    """WORK/stats: the statistics report and its per-sample rows (`root` is the work dir)."""

    root: Path

    @property
    def folder(self) -> Path:
        return self.root / "stats"

    @property
    def json(self) -> Path:
        return self.folder / "stats.json"

    @property
    def markdown(self) -> Path:
        return self.folder / "stats.md"

    @property
    def samples(self) -> Path:
        return self.folder / "samples.jsonl"


@dataclass(frozen=True)
class WorkDir:
    root: Path

    def __post_init__(self) -> None:
        object.__setattr__(self, "root", Path(self.root))

    # caches and stage bookkeeping
    @property
    def cache(self) -> Path:
        return self.root / "cache"

    @property
    def http_cache(self) -> Path:
        return self.cache / "http"

    @property
    def source_stats(self) -> Path:
        """Header records of local source files by stat (builders/sources/stat_cache.py)."""
        return self.cache / "source_stats.json"

    @property
    def books_snapshot(self) -> Path:
        """corpus/books.jsonl's rows in marshal format, for rebuilds (builders/build_snapshot)."""
        return self.cache / "books.marshal"

    @property
    def book_characters(self) -> Path:
        """Per-book character counts for the corpus stage's fingerprint (builders/build_corpus)."""
        return self.cache / "book_characters.json"

    @property
    def llm_cache(self) -> Path:
        """One LLM response cache for every stage (drafts, probe, judge, locator)."""
        return self.cache / "llm.sqlite"

    @property
    def locks(self) -> Path:
        return self.root / "locks"

    @property
    def state(self) -> Path:
        return self.root / "state"

    def usage_journal(self, stage: str) -> Path:
        """Usage of every invocation of an LLM-calling stage, killed ones included."""
        return self.state / f"{stage}-usage.jsonl"

    # build
    @property
    def corpus(self) -> Path:
        return self.root / "corpus"

    @property
    def books(self) -> Path:
        return self.corpus / "books.jsonl"

    @property
    def books_report(self) -> Path:
        return self.corpus / "books_report.json"

    @property
    def repeated_chapters(self) -> Path:
        return self.corpus / "repeated_chapters.json"

    @property
    def samples(self) -> Path:
        return self.root / "samples"

    def subset_samples(self, subset: str) -> Path:
        return self.samples / f"{check_name(subset, 'subset name')}.parquet"

    @property
    def build_report(self) -> Path:
        return self.root / "build_report.json"

    @property
    def build_report_md(self) -> Path:
        return self.root / "build_report.md"

    @property
    def audit_samples(self) -> Path:
        return self.root / "audit" / "samples.jsonl"

    # task families (lengthwise.task_records)
    @property
    def tasks(self) -> Path:
        return self.root / "tasks"

    def task_file(self, task: str, length: str) -> Path:
        return self._task(task) / f"{check_name(length, 'length name')}.parquet"

    @property
    def tasks_report(self) -> Path:
        return self.tasks / "report.json"

    @property
    def tasks_report_md(self) -> Path:
        return self.tasks / "report.md"

    def task_chunk_labels(self, task: str) -> Path:
        """Recall: the drafting model's names per chunk (a seeded share goes to a human check)."""
        return self._task(task) / "chunk_labels.jsonl"

    def task_validations(self, task: str) -> Path:
        """The human checks of a task's items, as `annotate tasks pull` last stored them."""
        return self._task(task) / "validations.jsonl"

    def _task(self, task: str) -> Path:
        return self.tasks / check_name(task, "task name")

    # later stages
    @property
    def screening(self) -> ScreeningPaths:
        return ScreeningPaths(self.root / "screening")

    @property
    def drafts(self) -> DraftPaths:
        return DraftPaths(self.root / "drafts")

    @property
    def labelstudio(self) -> LabelStudioPaths:
        return LabelStudioPaths(self.root)

    @property
    def annotations(self) -> AnnotationPaths:
        return AnnotationPaths(self)

    @property
    def samples_annotated(self) -> Path:
        return self.root / "samples_annotated"

    def subset_annotated(self, subset: str) -> Path:
        return self.samples_annotated / f"{check_name(subset, 'subset name')}.parquet"

    @property
    def stats(self) -> StatsPaths:
        return StatsPaths(self.root)

    @property
    def releases(self) -> Path:
        return self.root / "releases"
