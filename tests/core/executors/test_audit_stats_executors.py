"""The residual-noise audit, the summary statistics and the duplicates' MinHash signatures
on an executor: local processes and Ray give identical records and byte-identical files,
and the executor enters no fingerprint."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from lengthwise.builders.audit import audit_sample, piece_cache, reuse, run_audit
from lengthwise.builders.audit.stage import PIECES_FILE, read_audits
from lengthwise.builders.audit.summary import AuditSummary
from lengthwise.builders.duplicates import signatures
from lengthwise.builders.duplicates.stage import find_duplicate_works
from lengthwise.builders.joining import sample_text
from lengthwise.cli import build_parser
from lengthwise.executors import ExecutorConfig, make_executor
from lengthwise.records import Book, Sample
from lengthwise.releases.stats.report import run_stats
from lengthwise.spec import AuditConfig, DuplicatesConfig, load_spec
from lengthwise.storage import atomic_write_parquet
from lengthwise.store import WorkStore
from lengthwise.text import sentences
from lengthwise.workdir import WorkDir
from tests.core.executors.ray_fixtures import ray_local

__all__ = ["ray_local"]  # the fixture, imported into this module's namespace

LOCAL_POOL = ExecutorConfig(kind="local", workers=2)
RAY = ExecutorConfig(kind="ray", workers=2)


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many executor calls even on the demo (a few chapters or samples each)."""
    monkeypatch.setattr(piece_cache, "BATCH_CHARS", 20_000)
    monkeypatch.setattr(reuse, "BATCH_CHARS", 20_000)


NOISE = "\nRead more books at www.example.com\n- 12 -\n"
SENSITIVE = AuditConfig(repeated_line_min=2, toc_run_min=2, snippets_per_class=3)


def planted(demo: Path) -> tuple[dict[str, list[Sample]], dict[str, Book]]:
    """The demo's samples and books with noise: in every other chapter (found from the
    chapters' pieces) and appended to every third sample (audited from its text)."""
    store = WorkStore(WorkDir(demo))
    books = {
        book_id: replace(
            book,
            chapters=[replace(c, text=c.text + NOISE) if c.index % 2 else c for c in book.chapters],
        )
        for book_id, book in store.sampled_books().items()
    }
    rows: dict[str, list[Sample]] = {}
    for name in store.subsets():
        rows[name] = []
        for i, row in enumerate(store.samples(name)):
            text = sample_text(books[row.book_id], row.first_chapter, row.last_chapter)
            rows[name].append(replace(row, text=text + NOISE if i % 3 == 0 else text))
    return rows, books


def audit_on(demo: Path, out: Path, executor: ExecutorConfig) -> AuditSummary:
    """The demo's selected samples, noise planted, audited into `out` (fresh piece cache)."""
    rows, books = planted(demo)
    outcome = run_audit(
        rows, SENSITIVE, out, books=books, cache_dir=out / "cache", executor=executor
    )
    assert outcome.summary.by_class["url"]["samples"] > outcome.summary.samples // 2
    return outcome.summary


def audit_file(out: Path) -> bytes:
    return (out / "audit" / "samples.jsonl").read_bytes()


def test_audit_on_local_processes_equals_one_process(
    demo_built: tuple[Path, Path], tmp_path: Path, small_batches: None
) -> None:
    pool = audit_on(demo_built[1], tmp_path / "pool", LOCAL_POOL)
    here = audit_on(demo_built[1], tmp_path / "here", ExecutorConfig(workers=1))
    assert pool == here and audit_file(tmp_path / "pool") == audit_file(tmp_path / "here")
    # The pieces path and the text path agree: every sample from its text is the same.
    rows, _ = planted(demo_built[1])
    by_text = [audit_sample(r, SENSITIVE).to_dict() for subset in rows.values() for r in subset]
    assert [a.to_dict() for a in read_audits(tmp_path / "pool")] == by_text


@pytest.mark.slow
def test_audit_on_ray_equals_local(
    demo_built: tuple[Path, Path], ray_local: Path, tmp_path: Path, small_batches: None
) -> None:
    local = audit_on(demo_built[1], tmp_path / "local", LOCAL_POOL)
    ray_local.unlink()  # arm the hook: one Ray worker is killed after its call, then retried
    on_ray = audit_on(demo_built[1], tmp_path / "ray", RAY)
    assert ray_local.exists()  # a Ray task ran (and was retried)
    here = audit_on(demo_built[1], tmp_path / "here", ExecutorConfig(workers=1))
    assert on_ray == local == here
    assert audit_file(tmp_path / "ray") == audit_file(tmp_path / "local")
    assert audit_file(tmp_path / "ray") == audit_file(tmp_path / "here")
    for cache in ("local", "ray"):  # the pieces computed on workers were stored here
        assert (tmp_path / cache / "cache" / PIECES_FILE).is_file()


def annotated_copy(demo: tuple[Path, Path], target: Path) -> Path:
    """The demo's build outputs, subset S with copied summaries (all but its first row)."""
    target.mkdir(parents=True)
    shutil.copytree(demo[1] / "samples", target / "samples")
    shutil.copy2(demo[1] / "build_report.json", target / "build_report.json")
    rows = pq.read_table(target / "samples" / "S.parquet").to_pylist()
    for index, row in enumerate(rows):
        joiner = "" if row["language"] == "zh" else " "
        picked = sentences(row["text"], row["language"])[1 + index % 3 : 4 + index % 5]
        row["summary"] = joiner.join(picked) if index else None
        row["summary_source"] = "annotator" if index else None
        row["annotation_count"] = 1 if index else 0
    atomic_write_parquet(target / "samples_annotated" / "S.parquet", rows)
    return target


STATS_FILES = ("stats/stats.json", "stats/stats.md", "stats/samples.jsonl")


@pytest.mark.slow
def test_stats_on_ray_equal_local_and_stay_up_to_date(
    demo_built: tuple[Path, Path], ray_local: Path, tmp_path: Path
) -> None:
    spec = load_spec(demo_built[0])
    local = annotated_copy(demo_built, tmp_path / "local")
    on_ray = annotated_copy(demo_built, tmp_path / "ray")
    run_stats(spec, local, executor=LOCAL_POOL)
    ray_local.unlink()
    result = run_stats(spec, on_ray, executor=RAY)
    assert ray_local.exists()  # the pairs went through Ray
    assert result.report.to_json()["subsets"]["S"]["summaries"]["status"] == "present"
    for name in STATS_FILES:
        assert (local / name).read_bytes() == (on_ray / name).read_bytes(), name
    # The executor is no input: local results are current under Ray.
    assert run_stats(spec, local, executor=RAY).up_to_date


def test_stats_command_takes_the_executor_options() -> None:
    args = build_parser().parse_args(
        ["stats", "spec.toml", "--executor", "ray", "--ray-address", "auto"]
    )
    assert (args.executor, args.ray_address) == ("ray", "auto")


def duplicates_on(demo: Path, cache: Path, executor: ExecutorConfig) -> dict[str, object]:
    """The demo books' signatures (as lists) and duplicate findings, hashed on `executor`."""
    books = list(WorkStore(WorkDir(demo)).books().values())
    books += [replace(books[0], id="copy-of-first")]  # one duplicate to find
    config = DuplicatesConfig()
    found = find_duplicate_works(books, config, cache, runner=make_executor(executor))
    stored = signatures.signatures_for(books, config.shingle_size, config.num_perm, cache)
    return {
        "findings": found.to_dict(),
        "signatures": [(s.book_id, s.chapters.tolist(), s.book.tolist()) for s in stored],
    }


@pytest.mark.slow
def test_duplicate_signatures_on_ray_equal_local(
    demo_built: tuple[Path, Path],
    ray_local: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(signatures, "BOOKS_BATCH_CHARS", 1)  # one book per call
    here = duplicates_on(demo_built[1], tmp_path / "here", ExecutorConfig(workers=1))
    pool = duplicates_on(demo_built[1], tmp_path / "pool", LOCAL_POOL)
    ray_local.unlink()
    on_ray = duplicates_on(demo_built[1], tmp_path / "ray", RAY)
    assert ray_local.exists()  # the books were hashed by Ray tasks
    assert here == pool == on_ray
    books = list(WorkStore(WorkDir(demo_built[1])).books().values())
    direct = [signatures.compute_signatures(b, 5, 128) for b in books]  # the defaults
    assert on_ray["signatures"][: len(books)] == [  # type: ignore[index]
        (s.book_id, s.chapters.tolist(), s.book.tolist()) for s in direct
    ]
    clusters = on_ray["findings"]["clusters"]  # type: ignore[index]
    assert any("copy-of-first" in str(c) for c in clusters)
    names = sorted(p.name for p in (tmp_path / "ray").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "here").iterdir()) and names
