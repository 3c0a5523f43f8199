"""`lengthwise build` end to end on the synthetic demo corpus."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest

from lengthwise.builders.build import run_build
from lengthwise.builders.demo_corpus import write_demo_corpus, write_demo_spec
from lengthwise.spec import load_spec
from lengthwise.tokenizers import get_tokenizer


@pytest.fixture(scope="module")
def demo_spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    write_demo_corpus(folder / "corpus")
    return write_demo_spec(folder)


def rows(path: Path) -> list[dict[str, object]]:
    return pq.read_table(path).to_pylist()


def test_build_writes_samples_within_intervals(demo_spec: Path, tmp_path: Path) -> None:
    spec = load_spec(demo_spec)
    result = run_build(spec, tmp_path / "work", progress=False, workers=1)
    assert not result.up_to_date
    primary = get_tokenizer(spec.tokenizers.primary)
    books = {b["id"]: b for b in result.report.to_json()["books"]}
    assert len(books) == 6 and all(b["excluded"] is None for b in books.values())
    for subset in spec.subsets:
        samples = rows(tmp_path / "work" / "samples" / f"{subset.name}.parquet")
        assert samples, f"subset {subset.name} is empty"
        assert len(samples) <= subset.count
        seen: dict[str, set[int]] = {}
        for sample in samples:
            # The recorded length is the primary tokenizer's count of the text as stored.
            assert primary.count(str(sample["text"])) == sample["tokens"]
            assert subset.lower <= int(sample["tokens"]) <= subset.upper  # type: ignore[call-overload]
            first, last = int(sample["first_chapter"]), int(sample["last_chapter"])  # type: ignore[call-overload]
            assert sample["id"] == f"{sample['book_id']}:{first:04d}-{last:04d}"
            assert len(sample["chapter_titles"]) == last - first + 1  # type: ignore[arg-type]
            chapters = set(range(first, last + 1))
            used = seen.setdefault(str(sample["book_id"]), set())
            assert not used & chapters, "samples of one subset overlap"
            used |= chapters
    report_md = (tmp_path / "work" / "build_report.md").read_text(encoding="utf-8")
    assert "| S |" in report_md and "tiktoken:o200k_base" in report_md


def test_rebuild_with_nothing_changed_does_nothing(demo_spec: Path, tmp_path: Path) -> None:
    spec = load_spec(demo_spec)
    run_build(spec, tmp_path / "work", progress=False, workers=1)
    sample_file = tmp_path / "work" / "samples" / "S.parquet"
    before = sample_file.stat().st_mtime_ns
    again = run_build(spec, tmp_path / "work", progress=False, workers=1)
    assert again.up_to_date
    assert sample_file.stat().st_mtime_ns == before


def test_same_inputs_and_seed_give_identical_samples(demo_spec: Path, tmp_path: Path) -> None:
    spec = load_spec(demo_spec)
    run_build(spec, tmp_path / "a", progress=False, workers=2)
    run_build(spec, tmp_path / "b", progress=False, workers=1)
    for subset in spec.subsets:
        name = f"{subset.name}.parquet"
        assert rows(tmp_path / "a" / "samples" / name) == rows(tmp_path / "b" / "samples" / name)


def test_changing_only_sampling_reuses_books_and_chapter_counts(
    demo_spec: Path, tmp_path: Path
) -> None:
    spec = load_spec(demo_spec)
    work = tmp_path / "work"
    run_build(spec, work, progress=False, workers=1)
    cached_books = sorted((work / "cache" / "books").iterdir())
    stamps = [p.stat().st_mtime_ns for p in cached_books]
    closest = spec.model_copy(
        update={"sampling": spec.sampling.model_copy(update={"policy": "closest"})}
    )
    result = run_build(closest, work, progress=False, workers=1)
    assert not result.up_to_date
    assert result.report.to_json()["policy"] == "closest"
    assert sorted((work / "cache" / "books").iterdir()) == cached_books
    assert [p.stat().st_mtime_ns for p in cached_books] == stamps


def test_books_flagged_by_the_probe_leave_sampling_when_the_spec_says_so(
    demo_spec: Path, tmp_path: Path
) -> None:
    spec = load_spec(demo_spec)
    work = tmp_path / "work"
    # The contamination report as `lengthwise probe` writes it (only the fields the build reads).
    (work / "screening").mkdir(parents=True)
    (work / "screening" / "contamination.json").write_text(
        '{"status": "run", "flagged": {"en_synthetic_1": "names the title"}}'
    )
    kept = run_build(spec, work, progress=False, workers=1)
    assert kept.report.to_json()["stages"]["screening"]["dropped"] == {}
    strict = spec.model_copy(
        update={"screening": spec.screening.model_copy(update={"exclude_flagged": True})}
    )
    result = run_build(strict, work, progress=False, workers=1)
    assert not result.up_to_date
    assert result.report.to_json()["stages"]["screening"]["dropped"] == {"contamination-flagged": 1}
    for subset in spec.subsets:
        books = {r["book_id"] for r in rows(work / "samples" / f"{subset.name}.parquet")}
        assert "en_synthetic_1" not in books
