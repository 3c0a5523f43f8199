"""Merge pulled annotations into the samples: WORK/samples_annotated/<subset>.parquet.

Every sample of the build appears, annotated or not (``summary`` is null until a usable
annotation exists), with the build's columns plus the human summary, who wrote it, the
quality flags, the choices and comments, agreement and the drafts (``synopses``).
Also writes WORK/annotations/review.json (the choice made per sample) and
report.json / report.md (progress, flags, agreement, per annotator). Running it twice
on the same inputs writes the same files.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from pathlib import Path
from statistics import mean
from typing import Any

from lengthwise.annotation.review.imports import (
    ORIGIN_IMPORTED,
    ImportedSummary,
    as_overrides,
    imported_path,
    stored_imports,
)
from lengthwise.annotation.review.inputs import (
    SampleDrafts,
    read_samples,
    subset_order,
)
from lengthwise.annotation.review.measure import length_unit
from lengthwise.annotation.review.quality import (
    ALL_FLAGS,
    QualityReport,
    QualitySettings,
    check_summary,
)
from lengthwise.annotation.review.records import ORIGIN_HUMAN, AnnotationRecord
from lengthwise.annotation.review.review_report import (
    AnnotatorFigures,
    ReviewReport,
    SubsetProgress,
)
from lengthwise.annotation.review.select import (
    SOURCE_IMPORT,
    SampleReview,
    load_overrides,
    review_sample,
)
from lengthwise.errors import UserError
from lengthwise.records import Sample
from lengthwise.spec import Spec
from lengthwise.storage import (
    atomic_write_json,
    atomic_write_parquet,
    atomic_write_text,
)
from lengthwise.store import WorkStore
from lengthwise.workdir import AnnotationPaths as AnnotationPaths
from lengthwise.workdir import WorkDir


def limit_for(spec: Spec, subset: str) -> int:
    return spec.annotation.limits.get(subset, spec.annotation.default_limit)


def quality_settings(spec: Spec) -> QualitySettings:
    config = spec.annotation
    return QualitySettings.from_lists(
        config.max_copied_share, config.commentary_words_zh, config.commentary_words_en
    )


@dataclass
class FinalizeResult:
    reviews: dict[str, SampleReview]
    report: ReviewReport
    paths: AnnotationPaths
    rows_by_subset: dict[str, list[Sample]]  # the build's samples plus annotation columns


def review_all(
    spec: Spec,
    work_dir: Path,
    overrides_path: Path | None = None,
    imports: list[ImportedSummary] | None = None,
) -> FinalizeResult:
    """Pick final summaries and build the report in memory (nothing is written).

    `imports` replaces the stored imports (WORK/annotations/imported.jsonl) when given."""
    work = WorkDir(work_dir)
    paths = AnnotationPaths(work)
    subsets = subset_order(work, [s.name for s in spec.subsets])
    samples = read_samples(work, subsets)
    store = WorkStore(work)
    drafts = store.drafts(required=False)
    records = store.annotations()
    by_sample: dict[str, list[AnnotationRecord]] = defaultdict(list)
    for record in records:
        by_sample[record.sample_id].append(record)
    imported = stored_imports(work) if imports is None else imports
    overrides = {
        **as_overrides(imported, imported_path(work)),
        **load_overrides(overrides_path or paths.overrides),  # a reviewer's decision wins
    }
    known = {s.id for s in samples}
    for sample_id, override in overrides.items():
        if sample_id not in known:
            raise UserError(f"{override.where}: no sample {sample_id!r} in {work.samples}")
    settings = quality_settings(spec)

    reviews: dict[str, SampleReview] = {}
    rows_by_subset: dict[str, list[Sample]] = {subset: [] for subset in subsets}
    for sample in samples:
        sample_id, subset = sample.id, sample.subset
        language, limit = sample.language, limit_for(spec, subset)
        sample_drafts = drafts.get(sample_id)

        def check(
            text: str,
            d: SampleDrafts | None = sample_drafts,
            lang: str = language,
            lim: int = limit,
        ) -> QualityReport:
            return check_summary(
                text, drafts=d.texts if d else [], language=lang, limit=lim, settings=settings
            )

        records_here = by_sample.get(sample_id, [])
        review = review_sample(
            sample_id, subset, language, records_here, overrides.get(sample_id), check
        )
        reviews[sample_id] = review
        rows_by_subset.setdefault(subset, []).append(
            _annotated_row(sample, review, records_here, sample_drafts, limit)
        )
    report = build_report(spec, samples, records, reviews)
    return FinalizeResult(reviews, report, paths, rows_by_subset)


def finalize(spec: Spec, work_dir: Path, overrides_path: Path | None = None) -> FinalizeResult:
    """Pick final summaries and write samples_annotated, review.json and the report."""
    result = review_all(spec, work_dir, overrides_path)
    paths, work = result.paths, WorkDir(work_dir)
    for subset, rows in result.rows_by_subset.items():
        atomic_write_parquet(
            paths.subset_annotated(subset),
            [sample.to_row() for sample in rows],
            schema=annotated_schema(work.subset_samples(subset)),
        )
    atomic_write_json(paths.review, {k: v.to_dict() for k, v in result.reviews.items()})
    atomic_write_text(paths.report_md, render_report(result.report))
    atomic_write_json(paths.report, result.report.to_json())
    return result


def _annotated_row(
    sample: Sample,
    review: SampleReview,
    records: list[AnnotationRecord],
    drafts: SampleDrafts | None,
    limit: int,
) -> Sample:
    """`sample` with the annotation columns (see `annotated_schema`) after the build's."""
    submitted = sorted((r for r in records if not r.was_cancelled), key=lambda r: r.annotation_id)
    everyone = sorted(records, key=lambda r: r.annotation_id)
    columns = {
        "summary": review.summary,
        "summary_source": review.source,
        "summary_annotation_id": review.annotation_id,
        "summary_annotator": review.annotator,
        "summary_units": review.units,
        "summary_limit": limit,
        "limit_unit": length_unit(sample.language),
        "quality_flags": list(review.flags),
        "copied_share": review.copied_share,
        "choice_flags": sorted({c for r in everyone for c in r.choices}),
        "comments": [r.comment for r in everyone if r.comment.strip()],
        "annotators": list(dict.fromkeys(r.annotator for r in everyone)),
        "annotator_ids": list(
            dict.fromkeys(r.annotator_id for r in everyone if r.annotator_id is not None)
        ),
        "annotation_count": len(submitted),
        "cancelled_count": len(everyone) - len(submitted),
        "agreement": review.agreement,
        "reviewer": review.reviewer,
        "review_note": review.note,
        "synopses": drafts.texts if drafts else None,
        "synopsis_headings": [c.heading for c in drafts.chapters] if drafts else None,
        "synopses_drafter": sorted({f"{c.drafter}:{c.model}" for c in drafts.chapters})
        if drafts
        else None,
        "annotations": json.dumps(
            [_annotation_meta(r) for r in everyone], ensure_ascii=False, sort_keys=True
        ),
        "reference_origin": _reference_origin(review, records),
    }
    return replace(sample, extra={**sample.extra, **columns})


def _reference_origin(review: SampleReview, records: list[AnnotationRecord]) -> str | None:
    """Who wrote the final summary: "human", "imported" or "synthetic reference (demo)"."""
    if review.summary is None:
        return None
    if review.source == SOURCE_IMPORT:
        return ORIGIN_IMPORTED
    chosen = next((r for r in records if r.annotation_id == review.annotation_id), None)
    return chosen.origin if chosen is not None else ORIGIN_HUMAN


def annotated_schema(samples_file: Path) -> Any:
    """The build's schema plus the annotation columns, typed even when all are null."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    strings = pa.list_(pa.string())
    extra = [
        ("summary", pa.string()),
        ("summary_source", pa.string()),
        ("summary_annotation_id", pa.int64()),
        ("summary_annotator", pa.string()),
        ("summary_units", pa.int64()),
        ("summary_limit", pa.int64()),
        ("limit_unit", pa.string()),
        ("quality_flags", strings),
        ("copied_share", pa.float64()),
        ("choice_flags", strings),
        ("comments", strings),
        ("annotators", strings),
        ("annotator_ids", pa.list_(pa.int64())),
        ("annotation_count", pa.int64()),
        ("cancelled_count", pa.int64()),
        ("agreement", pa.float64()),
        ("reviewer", pa.string()),
        ("review_note", pa.string()),
        ("synopses", strings),
        ("synopsis_headings", strings),
        ("synopses_drafter", strings),
        ("annotations", pa.string()),
        ("reference_origin", pa.string()),
    ]
    base = pq.read_schema(samples_file).remove_metadata()
    for name, kind in extra:
        if base.get_field_index(name) >= 0:
            base = base.remove(base.get_field_index(name))
        base = base.append(pa.field(name, kind))
    return base


def _annotation_meta(record: AnnotationRecord) -> dict[str, Any]:
    meta = record.to_dict()
    for key in ("sample_id", "subset", "language", "limit", "pulled_at"):
        meta.pop(key, None)
    return meta


def build_report(
    spec: Spec,
    samples: list[Sample],
    records: list[AnnotationRecord],
    reviews: dict[str, SampleReview],
) -> ReviewReport:
    """Progress per subset and annotator, quality flag counts and agreement."""
    wanted = spec.annotation.annotators_per_sample
    synthetic = {r.annotator for r in records if r.origin != ORIGIN_HUMAN}
    usable_by_sample = Counter(r.sample_id for r in records if r.usable)
    subsets: dict[str, SubsetProgress] = {}
    agreements: dict[str, list[float]] = defaultdict(list)
    final_flags: dict[str, Counter[str]] = defaultdict(Counter)
    for sample in samples:
        sample_id, subset = sample.id, sample.subset
        entry = subsets.setdefault(subset, SubsetProgress())
        entry.samples += 1
        entry.annotated += usable_by_sample[sample_id] > 0
        entry.complete += usable_by_sample[sample_id] >= wanted
        review = reviews[sample_id]
        entry.final += review.summary is not None
        entry.synthetic += review.summary is not None and review.annotator in synthetic
        if review.agreement is not None:
            agreements[subset].append(review.agreement)
        final_flags[subset].update(review.flags)
    for name, entry in subsets.items():
        values = agreements[name]
        entry.final_flags = dict(sorted(final_flags[name].items()))
        entry.agreement_samples = len(values)
        entry.agreement_mean = round(mean(values), 4) if values else None

    flags = Counter(flag for r in records for flag in r.flags)
    return ReviewReport(
        annotators_per_sample=wanted,
        max_copied_share=spec.annotation.max_copied_share,
        annotations=len(records),
        flags={flag: flags.get(flag, 0) for flag in ALL_FLAGS},
        subsets=subsets,
        annotators=_annotator_figures(records),
    )


def _annotator_figures(records: list[AnnotationRecord]) -> dict[str, AnnotatorFigures]:
    """Per annotator: submitted/cancelled, by subset, flags, mean copied share."""
    annotators: dict[str, AnnotatorFigures] = {}
    by_subset: dict[str, Counter[str]] = defaultdict(Counter)
    flags: dict[str, Counter[str]] = defaultdict(Counter)
    shares: dict[str, list[float]] = defaultdict(list)
    for record in records:
        entry = annotators.setdefault(record.annotator, AnnotatorFigures())
        if record.was_cancelled:
            entry.cancelled += 1
        else:
            entry.submitted += 1
        by_subset[record.annotator][record.subset] += 1
        flags[record.annotator].update(record.flags)
        if record.copied_share is not None:
            shares[record.annotator].append(record.copied_share)
    for name, entry in annotators.items():
        entry.by_subset = dict(sorted(by_subset[name].items()))
        entry.flags = dict(sorted(flags[name].items()))
        entry.mean_copied_share = round(mean(shares[name]), 4) if shares[name] else None
    return dict(sorted(annotators.items()))


def render_report(report: ReviewReport) -> str:
    """The report as markdown (also what `annotate status` prints)."""
    lines = ["# Annotation report", ""]
    synthetic = sum(s.synthetic for s in report.subsets.values())
    if synthetic:
        lines += [
            f"> **{synthetic} final summaries are synthetic references (demo)**, merged from "
            "the demo generator's chapter synopses; no person wrote them.",
            "",
        ]
    lines += [
        f"{report.annotations} annotations; {report.annotators_per_sample} annotator(s) "
        "wanted per sample.",
        "",
        "| subset | samples | annotated | complete | final | agreement (ROUGE-L) | final flags |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for name, s in report.subsets.items():
        agreement = (
            f"{s.agreement_mean:.3f} (n={s.agreement_samples})"
            if s.agreement_mean is not None
            else "-"
        )
        flags = ", ".join(f"{k} {v}" for k, v in s.final_flags.items()) or "-"
        lines.append(
            f"| {name} | {s.samples} | {s.annotated} | {s.complete} | {s.final} "
            f"| {agreement} | {flags} |"
        )
    lines += ["", "| annotator | submitted | cancelled | per subset | copied share | flags |"]
    lines.append("|---|---:|---:|---|---:|---|")
    for name, a in report.annotators.items():
        per_subset = ", ".join(f"{k} {v}" for k, v in a.by_subset.items())
        share = f"{a.mean_copied_share:.2f}" if a.mean_copied_share is not None else "-"
        flags = ", ".join(f"{k} {v}" for k, v in a.flags.items()) or "-"
        lines.append(
            f"| {name} | {a.submitted} | {a.cancelled} | {per_subset} | {share} | {flags} |"
        )
    if not report.annotators:
        lines.append("| (no annotations pulled yet) | | | | | |")
    lines += [
        "",
        "Quality flags over all annotations: "
        + ", ".join(f"{k} {v}" for k, v in report.flags.items()),
        "",
    ]
    return "\n".join(lines)
