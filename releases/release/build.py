"""`lengthwise release`: the build's samples plus human summaries -> a validated release folder.

Everything is written into a staging folder beside the final one, validated there
(checksums, secret scan, a real ``datasets.load_dataset`` per config) and only then
renamed to ``WORK/releases/vX.Y.Z``; a failed release leaves no folder that looks done.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lengthwise import __version__
from lengthwise.builders.build_record import BuildReportFile, read_build_report
from lengthwise.releases.release.card import CardInputs, render_card
from lengthwise.releases.release.card_notes import drafts_sentence
from lengthwise.releases.release.corpus_book import CorpusBook
from lengthwise.releases.release.diff import diff_manifests, diff_markdown
from lengthwise.releases.release.layout import (
    CARD,
    DIFF,
    MANIFEST,
    SPEC_COPY,
    STATS_COPY,
    ReleaseError,
    data_file,
    normalise_version,
    previous_version,
    release_folder,
    releases_root,
    tag_for,
)
from lengthwise.releases.release.long_context import (
    CHECK_COPY,
    LongContextCheck,
    long_context_section,
    read_long_context_check,
)
from lengthwise.releases.release.manifest import (
    FORMAT,
    file_entries,
    read_typed_manifest,
    sample_entry,
)
from lengthwise.releases.release.manifest_record import DiffJson, ManifestJson
from lengthwise.releases.release.schema import (
    arrow_schema,
    public_tokenizer_ids,
)
from lengthwise.releases.release.secret_decisions import MANIFEST_KEY, Acceptance, manifest_record
from lengthwise.releases.release.shipped_spec import make_publishable, shipped_spec_text
from lengthwise.releases.release.stats_section import (
    StatsInputs,
    efficiency_markdown,
    length_table_markdown,
    read_stats,
    stats_markdown,
)
from lengthwise.releases.release.subset_rows import (
    SubsetRows,
    annotation_fields,
    collect_subsets,
    corpus_books,
    refuse_unannotated,
    subset_facts,
)
from lengthwise.releases.release.summaries import (
    reference_origins,
    summaries_source,
    synthetic_references,
)
from lengthwise.releases.release.task_card import task_card_section
from lengthwise.releases.release.task_configs import (
    TaskConfig,
    collect_task_configs,
    manifest_tasks,
)
from lengthwise.releases.release.validate import validate_release
from lengthwise.spec import Spec
from lengthwise.stage_runner import Stage, StagePlan, run_stage
from lengthwise.stage_state import crash_point, remove_leftovers
from lengthwise.storage import (
    atomic_write_json,
    atomic_write_parquet,
    atomic_write_text,
    canonical_hash,
)
from lengthwise.task_records import task_arrow_schema
from lengthwise.workdir import WorkDir

log = logging.getLogger(__name__)


@dataclass
class ReleaseResult:
    folder: Path
    manifest: ManifestJson
    diff: DiffJson
    missing_summaries: int
    skipped_subsets: list[str] = field(default_factory=list)
    replaced: bool = False  # an earlier build of the same version was replaced
    accepted_findings: int = 0  # secret-scan pattern matches accepted by --accept-findings


def spec_sha256(spec: Spec) -> str:
    """Canonical hash of the validated spec (every section, defaults included)."""
    return canonical_hash(spec.model_dump(mode="json"))


def secret_variable_names(spec: Spec) -> list[str]:
    """Environment variables the spec names as holding keys: always scanned for."""
    roles = [spec.llm.drafter, spec.llm.probe, spec.llm.judge, spec.llm.locator]
    names = [r.api_key_env for r in roles if r is not None and r.api_key_env]
    return [*names, spec.annotation.api_key_env]


def build_release(
    spec: Spec,
    work_dir: Path,
    version: str,
    *,
    allow_unannotated: bool = False,
    spec_path: Path | None = None,
    environ: Mapping[str, str] | None = None,
    accepted_findings: Collection[Acceptance] = (),
    long_context_check: Path | None = None,
) -> ReleaseResult:
    """Write and validate WORK/releases/vX.Y.Z; return where it is and what changed."""
    version = normalise_version(version)
    stage = ReleaseStage(spec, WorkDir(work_dir), version, allow_unannotated, spec_path)
    stage.environ, stage.accepted_findings = environ, accepted_findings
    stage.long_context_check = long_context_check
    run_stage(stage)
    assert stage.result is not None  # set by compute
    return stage.result


# What killed releases leave in WORK/releases: staging folders, swapped-out old builds.
LEFTOVERS = (".v*.staging-*", ".v*.old-*", ".*.tmp")


def _clear_leftovers(root: Path) -> None:
    """Put back a release a kill left swapped out (mid `_replace`), then remove leftovers."""
    for trash in root.glob(".v*.old-*") if root.is_dir() else []:
        for old in trash.iterdir():
            final = root / old.name
            if old.is_dir() and not final.exists():
                old.rename(final)
                log.info("restored %s (a release interrupted while replacing it)", final)
    for removed in remove_leftovers(root, LEFTOVERS):
        log.info("removed %s (left by an interrupted release)", removed)


@dataclass
class _ReleaseInputs:
    report: BuildReportFile
    tokenizer_names: dict[str, str]
    subsets: list[SubsetRows]
    skipped: list[str]
    missing: int
    books: list[CorpusBook]
    stats: StatsInputs
    tasks: list[TaskConfig] = field(default_factory=list)  # task configs to release
    empty_tasks: list[TaskConfig] = field(default_factory=list)  # no instance left
    long_context: LongContextCheck | None = None  # `--long-context-check` (long_context.py)


@dataclass
class ReleaseStage(Stage[_ReleaseInputs, ManifestJson]):
    """Stages the release in a hidden folder, validates it, then swaps it in: it writes
    no completion record (a release is rebuilt on demand), the runner gives it the lock
    and puts back or removes what a killed release left."""

    spec: Spec
    work: WorkDir
    version: str
    allow_unannotated: bool
    spec_path: Path | None
    environ: Mapping[str, str] | None = None
    accepted_findings: Collection[Acceptance] = ()
    long_context_check: Path | None = None  # a truncation.json for the card's check
    result: ReleaseResult | None = None
    name = "release"

    def __post_init__(self) -> None:
        self.root = self.work.root

    def clear_leftovers(self) -> None:
        _clear_leftovers(releases_root(self.work.root))

    def plan(self) -> StagePlan[_ReleaseInputs]:
        work, spec = self.work, self.spec
        if not work.build_report.is_file():
            raise ReleaseError(
                f"{work.build_report}: no build report; run `lengthwise build SPEC.toml` first"
            )
        report = read_build_report(work)
        tokenizer_names = public_tokenizer_ids(spec.tokenizers.all)
        subsets, skipped = collect_subsets(spec, work, tokenizer_names)
        if not subsets:
            raise ReleaseError(f"{work.samples}: every subset is empty; nothing to release")
        missing = sum(len(s.rows) - s.annotated for s in subsets)
        if missing and not self.allow_unannotated:
            refuse_unannotated(subsets)
        books = corpus_books(work, subsets)
        stats = read_stats(
            work.root,
            {s.spec.name: len(s.rows) for s in subsets},
            {s.spec.name: summaries_source(work.root, s.spec.name) for s in subsets},
        )
        tasks, empty_tasks = collect_task_configs(spec, work, tokenizer_names)
        inputs = _ReleaseInputs(
            report, dict(tokenizer_names), subsets, skipped, missing, books, stats
        )
        inputs.tasks, inputs.empty_tasks = tasks, empty_tasks
        if self.long_context_check is not None:  # read before anything is written
            inputs.long_context = read_long_context_check(self.long_context_check)
        return StagePlan(inputs, None)

    def compute(self, plan: StagePlan[_ReleaseInputs]) -> ManifestJson:
        root = releases_root(self.work.root)
        root.mkdir(parents=True, exist_ok=True)
        prefix = f".{tag_for(self.version)}.staging-"
        staging = Path(tempfile.mkdtemp(dir=root, prefix=prefix))
        try:
            manifest, diff = self._stage_files(staging, plan.inputs)
            crash_point("release:staged")
            names = secret_variable_names(self.spec)
            with self.display.step("validating (checksums, secret scan, load_dataset)"):
                validated = validate_release(
                    staging,
                    self.version,
                    self.environ,
                    names,
                    self.accepted_findings,
                    work_dir=self.work.root,
                )
            # The manifest is not in its own checksums: the decision is added after the scan.
            manifest[MANIFEST_KEY] = manifest_record(validated.accepted_findings)
            atomic_write_json(staging / MANIFEST, manifest)
            make_publishable(staging)
            final = release_folder(self.work.root, self.version).root
            replaced = final.exists()
            _replace(staging, final)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        log.info("release %s written to %s", self.version, final)
        accepted = len(validated.accepted_findings)
        inputs = plan.inputs
        self.result = ReleaseResult(
            final, manifest, diff, inputs.missing, inputs.skipped, replaced, accepted
        )
        return manifest

    def _stage_files(self, staging: Path, inputs: _ReleaseInputs) -> tuple[ManifestJson, DiffJson]:
        """Data files, spec and statistics copies, diff, card and manifest, in `staging`."""
        spec, work, version, stats = self.spec, self.work, self.version, inputs.stats
        subsets, tokenizer_names = inputs.subsets, inputs.tokenizer_names
        step = self.display.step("data files", total=len(subsets), unit="subset")
        for subset in subsets:
            atomic_write_parquet(
                staging / data_file(subset.spec.name),
                subset.rows,
                schema=arrow_schema(list(tokenizer_names.values())),
            )
            step.advance()
        step.close()
        for task in inputs.tasks:
            atomic_write_parquet(
                staging / data_file(task.config),
                [i.to_row() for i in task.rows],
                schema=task_arrow_schema(),
            )
        if self.spec_path is not None:
            spec_text = self.spec_path.read_text(encoding="utf-8")
            atomic_write_text(staging / SPEC_COPY, shipped_spec_text(spec_text, self.version))
        if stats.json_path is not None:
            shutil.copyfile(stats.json_path, staging / STATS_COPY)
        if self.long_context_check is not None:
            shutil.copyfile(self.long_context_check, staging / CHECK_COPY)
        manifest = _manifest(
            spec, version, inputs.report, inputs.books, subsets, tokenizer_names, inputs.missing
        )
        manifest["tasks"] = manifest_tasks(inputs.tasks)
        manifest["statistics"] = (
            {"file": STATS_COPY, "stale": stats.stale} if stats.json_path is not None else None
        )
        previous = previous_version(work.root, version)
        previous_manifest = (
            read_typed_manifest(release_folder(work.root, previous).root) if previous else None
        )
        diff = diff_manifests(previous_manifest, manifest)
        atomic_write_json(staging / DIFF, diff)
        card = self._card(inputs, manifest, diff)
        atomic_write_text(staging / CARD, render_card(card))
        manifest["files"] = file_entries(staging)
        atomic_write_json(staging / MANIFEST, manifest)
        return manifest, diff

    def _card(self, inputs: _ReleaseInputs, manifest: ManifestJson, diff: DiffJson) -> CardInputs:
        subsets, report, names = inputs.subsets, inputs.report.body, inputs.tokenizer_names
        return CardInputs(
            spec=self.spec,
            version=self.version,
            tool_version=__version__,
            spec_sha256=spec_sha256(self.spec),
            subsets=[subset_facts(s) for s in subsets],
            skipped_subsets=inputs.skipped,
            languages=sorted({r["language"] for s in subsets for r in s.rows}),
            tokenizer_names=dict(names),
            books=inputs.books,
            build_report=report,
            length_table=length_table_markdown(report, dict(names)),
            efficiency_table=efficiency_markdown(report, dict(names)),
            stats_section=stats_markdown(inputs.stats),
            diff_section=diff_markdown(diff),
            annotation_fields=annotation_fields(subsets),
            spec_file=SPEC_COPY if self.spec_path is not None else None,
            drafts_note=drafts_sentence(self.work.root, {r["id"] for s in subsets for r in s.rows}),
            synthetic_references=sum(synthetic_references(s.rows) for s in subsets),
            origins=reference_origins([r for s in subsets for r in s.rows]),
            task_configs=[t.config for t in inputs.tasks],
            task_section=task_card_section(inputs.tasks, inputs.empty_tasks),
            long_context_section=(
                long_context_section(inputs.long_context) if inputs.long_context else ""
            ),
        )


def _manifest(
    spec: Spec,
    version: str,
    report: BuildReportFile,
    books: list[CorpusBook],
    subsets: list[SubsetRows],
    tokenizer_names: Mapping[str, str],
    missing: int,
) -> ManifestJson:
    total = sum(len(s.rows) for s in subsets)
    return {
        "format": FORMAT,
        "name": spec.name,
        "version": version,
        "tag": tag_for(version),
        "tool": {"name": "lengthwise", "version": __version__},
        "spec": {
            "name": spec.name,
            "version": spec.version,
            "sha256": spec_sha256(spec),
            "primary_tokenizer": tokenizer_names[spec.tokenizers.primary],
            "tokenizers": list(tokenizer_names.values()),
        },
        "seed": spec.seed,
        "build": {
            "fingerprint": report.envelope.fingerprint,
            "tool_version": report.envelope.tool_version,
        },
        "corpus": [
            {
                "book_id": b.book_id,
                "title": b.title,
                "language": b.language,
                "raw_sha256": b.raw_sha256,
                "source": b.source,
            }
            for b in books
        ],
        "annotation": {"samples": total, "with_summary": total - missing},
        "subsets": {
            s.spec.name: {
                "data_file": data_file(s.spec.name),
                "rows": len(s.rows),
                "samples": [sample_entry(r) for r in s.rows],
            }
            for s in subsets
        },
    }


def _replace(staging: Path, final: Path) -> None:
    """Swap the validated staging folder in; an older build of the same version goes."""
    if final.exists():
        trash = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{final.name}.old-"))
        final.rename(trash / final.name)
        crash_point("release:swapping")
        staging.rename(final)
        shutil.rmtree(trash, ignore_errors=True)
    else:
        staging.rename(final)
