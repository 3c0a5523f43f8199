"""`lengthwise release`: the build's samples plus human summaries -> a validated release folder.

Everything is written into a staging folder beside the final one, validated there
(checksums, secret scan, a real ``datasets.load_dataset`` per config) and only then
renamed to ``WORK/releases/vX.Y.Z``; a failed release leaves no folder that looks done.
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lengthwise import __version__
from lengthwise.records import Sample
from lengthwise.releases.release.card import CardInputs, SubsetFacts, render_card
from lengthwise.releases.release.card_notes import drafts_sentence
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
from lengthwise.releases.release.manifest import FORMAT, file_entries, read_manifest, sample_entry
from lengthwise.releases.release.schema import (
    arrow_schema,
    public_source,
    public_tokenizer_ids,
    release_row,
)
from lengthwise.releases.release.secret_decisions import MANIFEST_KEY, Acceptance, manifest_record
from lengthwise.releases.release.stats_section import (
    efficiency_markdown,
    length_table_markdown,
    read_stats,
    stats_markdown,
)
from lengthwise.releases.release.summaries import (
    load_annotations,
    summaries_source,
    synthetic_references,
)
from lengthwise.releases.release.validate import validate_release
from lengthwise.spec import Spec, SubsetSpec
from lengthwise.stage_state import StageLock, crash_point, remove_leftovers
from lengthwise.storage import (
    atomic_write_json,
    atomic_write_parquet,
    atomic_write_text,
    canonical_hash,
    read_json,
)
from lengthwise.store import MissingRecords, WorkStore
from lengthwise.workdir import WorkDir

log = logging.getLogger(__name__)


@dataclass
class ReleaseResult:
    folder: Path
    manifest: dict[str, Any]
    diff: dict[str, Any]
    missing_summaries: int
    skipped_subsets: list[str] = field(default_factory=list)
    replaced: bool = False  # an earlier build of the same version was replaced
    accepted_findings: int = 0  # secret-scan pattern matches accepted by --accept-findings


@dataclass
class _SubsetRows:
    spec: SubsetSpec
    rows: list[dict[str, Any]]
    annotated: int


def spec_sha256(spec: Spec) -> str:
    """Canonical hash of the validated spec (every section, defaults included)."""
    return canonical_hash(spec.model_dump(mode="json"))


def secret_variable_names(spec: Spec) -> list[str]:
    """Environment variables the spec names as holding keys: always scanned for."""
    roles = [spec.llm.drafter, spec.llm.probe, spec.llm.judge, spec.llm.locator]
    names = [r.api_key_env for r in roles if r is not None and r.api_key_env]
    return [*names, spec.annotation.api_key_env]


def _summary_length(summary: str, language: str) -> int:
    """CNNSum's unit: characters for Chinese, words otherwise."""
    if language.startswith("zh"):
        return sum(1 for ch in summary if not ch.isspace())
    return len(summary.split())


def _read_samples(store: WorkStore, subset: str) -> list[Sample]:
    try:
        return store.samples(subset, annotated=False)
    except MissingRecords:
        path = store.work.subset_samples(subset)
        raise ReleaseError(f"{path}: no samples; run `lengthwise build SPEC.toml` first") from None


def _collect_subsets(
    spec: Spec, work: WorkDir, tokenizer_names: Mapping[str, str]
) -> tuple[list[_SubsetRows], list[str]]:
    collected: list[_SubsetRows] = []
    skipped: list[str] = []
    for subset in spec.subsets:
        path = work.subset_samples(subset.name)
        samples = _read_samples(WorkStore(work), subset.name)
        if not samples:
            skipped.append(subset.name)  # datasets cannot load an empty config
            continue
        stale = [s.id for s in samples if (s.lower, s.upper) != (subset.lower, subset.upper)]
        if stale:
            raise ReleaseError(
                f"{path}: samples were cut for a different interval than subset "
                f"{subset.name!r} of the spec; rerun `lengthwise build`"
            )
        annotations = load_annotations(work.root, subset.name, samples)
        rows = []
        for sample in samples:
            found = annotations.get(sample.id)
            rows.append(
                release_row(
                    sample,
                    found.summary if found else None,
                    found.metadata if found else None,
                    tokenizer_names,
                )
            )
        annotated = sum(1 for r in rows if r["summary"] is not None)
        collected.append(_SubsetRows(subset, rows, annotated))
    return collected, skipped


def _corpus(work: WorkDir, subsets: list[_SubsetRows]) -> list[dict[str, Any]]:
    try:
        books = WorkStore(work).books()
    except MissingRecords:
        raise ReleaseError(
            f"{work.books}: no corpus; run `lengthwise build SPEC.toml` first"
        ) from None
    used = Counter(r["book_id"] for s in subsets for r in s.rows)
    return [
        {
            "book_id": book.id,
            "title": book.title,
            "language": book.language,
            "chapters": len(book.chapters),
            "raw_sha256": book.raw_sha256,
            "source": public_source(book.source),
            "license_note": book.license_note,
            "samples": used.get(book.id, 0),
        }
        for book in books.values()
    ]


def _refuse_unannotated(subsets: list[_SubsetRows]) -> None:
    missing = {s.spec.name: len(s.rows) - s.annotated for s in subsets}
    total_missing = sum(missing.values())
    total = sum(len(s.rows) for s in subsets)
    detail = ", ".join(f"{name} {count}" for name, count in missing.items() if count)
    raise ReleaseError(
        f"{total_missing} of {total} samples have no human summary ({detail}); finish the "
        "annotation (`lengthwise annotate pull`) or pass --allow-unannotated to release the "
        "contexts without references (the card will say so)"
    )


def build_release(
    spec: Spec,
    work_dir: Path,
    version: str,
    *,
    allow_unannotated: bool = False,
    spec_path: Path | None = None,
    environ: Mapping[str, str] | None = None,
    accepted_findings: Collection[Acceptance] = (),
) -> ReleaseResult:
    """Write and validate WORK/releases/vX.Y.Z; return where it is and what changed."""
    version = normalise_version(version)
    work = WorkDir(work_dir)
    with StageLock(work.root, "release"):
        _clear_leftovers(releases_root(work.root))
        return _build_release(
            spec, work, version, allow_unannotated, spec_path, environ, accepted_findings
        )


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


def _build_release(
    spec: Spec,
    work: WorkDir,
    version: str,
    allow_unannotated: bool,
    spec_path: Path | None,
    environ: Mapping[str, str] | None,
    accepted_findings: Collection[Acceptance],
) -> ReleaseResult:
    if not work.build_report.is_file():
        raise ReleaseError(
            f"{work.build_report}: no build report; run `lengthwise build SPEC.toml` first"
        )
    report = read_json(work.build_report)
    tokenizer_names = public_tokenizer_ids(spec.tokenizers.all)
    subsets, skipped = _collect_subsets(spec, work, tokenizer_names)
    if not subsets:
        raise ReleaseError(f"{work.samples}: every subset is empty; nothing to release")
    missing = sum(len(s.rows) - s.annotated for s in subsets)
    if missing and not allow_unannotated:
        _refuse_unannotated(subsets)
    books = _corpus(work, subsets)
    stats = read_stats(
        work.root,
        {s.spec.name: len(s.rows) for s in subsets},
        {s.spec.name: summaries_source(work.root, s.spec.name) for s in subsets},
    )

    root = releases_root(work.root)
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=root, prefix=f".{tag_for(version)}.staging-"))
    try:
        for subset in subsets:
            atomic_write_parquet(
                staging / data_file(subset.spec.name),
                subset.rows,
                schema=arrow_schema(list(tokenizer_names.values())),
            )
        if spec_path is not None:
            shutil.copyfile(spec_path, staging / SPEC_COPY)
        if stats.json_path is not None:
            shutil.copyfile(stats.json_path, staging / STATS_COPY)
        manifest = _manifest(spec, version, report, books, subsets, tokenizer_names, missing)
        manifest["statistics"] = (
            {"file": STATS_COPY, "stale": stats.stale} if stats.json_path is not None else None
        )
        previous = previous_version(work.root, version)
        previous_manifest = (
            read_manifest(release_folder(work.root, previous).root) if previous else None
        )
        diff = diff_manifests(previous_manifest, manifest)
        atomic_write_json(staging / DIFF, diff)
        card = CardInputs(
            spec=spec,
            version=version,
            tool_version=__version__,
            spec_sha256=manifest["spec"]["sha256"],
            subsets=[_facts(s) for s in subsets],
            skipped_subsets=skipped,
            languages=sorted({r["language"] for s in subsets for r in s.rows}),
            tokenizer_names=dict(tokenizer_names),
            books=books,
            build_report=report,
            length_table=length_table_markdown(report, dict(tokenizer_names)),
            efficiency_table=efficiency_markdown(report, dict(tokenizer_names)),
            stats_section=stats_markdown(stats),
            diff_section=diff_markdown(diff),
            annotation_fields=_annotation_fields(subsets),
            spec_file=SPEC_COPY if spec_path is not None else None,
            drafts_note=drafts_sentence(work.root, {r["id"] for s in subsets for r in s.rows}),
            synthetic_references=sum(synthetic_references(s.rows) for s in subsets),
        )
        atomic_write_text(staging / CARD, render_card(card))
        manifest["files"] = file_entries(staging)
        atomic_write_json(staging / MANIFEST, manifest)
        crash_point("release:staged")
        names = secret_variable_names(spec)
        validated = validate_release(staging, version, environ, names, accepted_findings)
        # The manifest is not in its own checksums: the decision is added after the scan.
        manifest[MANIFEST_KEY] = manifest_record(validated.accepted_findings)
        atomic_write_json(staging / MANIFEST, manifest)
        final = release_folder(work.root, version).root
        replaced = final.exists()
        _replace(staging, final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    log.info("release %s written to %s", version, final)
    accepted = len(validated.accepted_findings)
    return ReleaseResult(final, manifest, diff, missing, skipped, replaced, accepted)


def _manifest(
    spec: Spec,
    version: str,
    report: dict[str, Any],
    books: list[dict[str, Any]],
    subsets: list[_SubsetRows],
    tokenizer_names: Mapping[str, str],
    missing: int,
) -> dict[str, Any]:
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
            "fingerprint": report.get("fingerprint"),
            "tool_version": report.get("tool_version"),
        },
        "corpus": [
            {k: b[k] for k in ("book_id", "title", "language", "raw_sha256", "source")}
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


def _facts(subset: _SubsetRows) -> SubsetFacts:
    tokens = [r["tokens"] for r in subset.rows]
    return SubsetFacts(
        spec=subset.spec,
        rows=len(subset.rows),
        annotated=subset.annotated,
        books=len({r["book_id"] for r in subset.rows}),
        tokens_mean=sum(tokens) / len(tokens),
        tokens_min=min(tokens),
        tokens_max=max(tokens),
        summary_lengths=[
            _summary_length(r["summary"], r["language"])
            for r in subset.rows
            if r["summary"] is not None
        ],
    )


def _annotation_fields(subsets: list[_SubsetRows]) -> list[str]:
    keys: set[str] = set()
    for subset in subsets:
        for row in subset.rows:
            if row["annotation"]:
                keys.update(json.loads(row["annotation"]))
    return sorted(keys)


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
