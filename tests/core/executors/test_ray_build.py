"""The build on Ray: every output equals the local executor's, a killed worker included."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lengthwise.builders.build import run_build
from lengthwise.errors import UserError
from lengthwise.spec import Spec, load_spec
from tests.core.executors.ray_fixtures import comparable, output_files, ray_local

__all__ = ["ray_local"]  # the fixture, imported into this module's namespace

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]


def zh_spec(tmp_path: Path, corpora: Path, executor: str = "") -> Spec:
    """examples/zh-classics.toml pointed at the shared corpora, plus an [executor] table."""
    text = (ROOT / "examples" / "zh-classics.toml").read_text(encoding="utf-8")
    text = text.replace("../../shared/corpora", str(corpora))
    spec_file = tmp_path / "zh.toml"
    spec_file.write_text(text + executor, encoding="utf-8")
    return load_spec(spec_file)


@pytest.fixture(scope="module")
def local_work(shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The zh classics built by the local executor (2 processes), before Ray starts."""
    folder = tmp_path_factory.mktemp("local")
    run_build(zh_spec(folder, shared_corpora), folder / "work", progress=False, workers=2)
    return folder / "work"


def assert_same_outputs(expected: Path, actual: Path) -> None:
    files = output_files(expected)
    assert files == output_files(actual)
    assert "samples/L.parquet" in files and "corpus/books.jsonl" in files
    assert "audit/samples.jsonl" in files  # the audit ran on the executor too
    different = [f for f in files if comparable(expected / f) != comparable(actual / f)]
    assert different == []


def test_ray_build_equals_local_build(
    local_work: Path, ray_local: Path, shared_corpora: Path, tmp_path: Path
) -> None:
    spec = zh_spec(tmp_path, shared_corpora, '\n[executor]\nkind = "ray"\nworkers = 2\n')
    assert spec.executor.kind == "ray"
    run_build(spec, tmp_path / "work", progress=False)
    assert_same_outputs(local_work, tmp_path / "work")
    # The timed reports aside, files are byte-identical, parquet samples included.
    for name in ("L", "XL", "2XL", "3XL"):
        sample = f"samples/{name}.parquet"
        assert (local_work / sample).read_bytes() == (tmp_path / "work" / sample).read_bytes()


def test_killed_ray_worker_is_retried_and_output_is_identical(
    local_work: Path, ray_local: Path, shared_corpora: Path, tmp_path: Path
) -> None:
    spec = zh_spec(tmp_path, shared_corpora, '\n[executor]\nkind = "ray"\n')
    ray_local.unlink()  # arm: the first task to finish SIGKILLs its worker process
    run_build(spec, tmp_path / "work", progress=False)
    assert ray_local.exists(), "no worker was killed"
    assert_same_outputs(local_work, tmp_path / "work")


def test_killed_worker_without_retries_fails_the_build(
    ray_local: Path, shared_corpora: Path, tmp_path: Path
) -> None:
    """The retry above is Ray's doing: with max_retries = 0 the same kill fails the build."""
    import ray.exceptions

    spec = zh_spec(tmp_path, shared_corpora, '\n[executor]\nkind = "ray"\nmax_retries = 0\n')
    ray_local.unlink()
    with pytest.raises(ray.exceptions.WorkerCrashedError):
        run_build(spec, tmp_path / "work", progress=False)
    assert ray_local.exists()


def test_local_build_is_up_to_date_under_ray_and_reuses_caches(
    local_work: Path, ray_local: Path, shared_corpora: Path, tmp_path: Path
) -> None:
    """The executor is not part of the fingerprint: a finished local build is current on
    Ray, and a sampling-only change on Ray reuses the local build's cached books."""
    work = tmp_path / "work"
    shutil.copytree(local_work, work)
    ray_spec = zh_spec(tmp_path, shared_corpora, '\n[executor]\nkind = "ray"\n')
    assert run_build(ray_spec, work, progress=False).up_to_date
    books_before = (work / "corpus" / "books.jsonl").stat().st_mtime_ns
    resampled = ray_spec.model_copy(update={"seed": 7})
    result = run_build(resampled, work, progress=False)
    assert not result.up_to_date
    assert (work / "corpus" / "books.jsonl").stat().st_mtime_ns == books_before


def test_ray_without_the_extra_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from lengthwise.executors import make_executor
    from lengthwise.spec_scaling import ExecutorConfig

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a)
    )
    with pytest.raises(UserError, match=r"lengthwise\[ray\]"):
        make_executor(ExecutorConfig(kind="ray"))
