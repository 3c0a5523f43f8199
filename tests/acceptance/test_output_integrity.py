"""Issue 34, item 6: every output under a completion record, every cache entry verified,
temporary folders inside the work dir.

Real `python -m lengthwise` processes on the demo corpus: a user edits or damages a
file the pipeline wrote, reruns, and checks that what comes out is what a clean run
gives.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

REPO = Path(__file__).resolve().parents[2]


def lw(*args: str, crash_at: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **env}
    environment.pop("LENGTHWISE_CRASH_AT", None)
    if crash_at:
        environment["LENGTHWISE_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, "-m", "lengthwise", *args],
        cwd=REPO, env=environment, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def ok(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    done = lw(*args, **env)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo corpus built and drafted once; each test works on a copy."""
    root = tmp_path_factory.mktemp("integrity-demo")
    ok("demo-corpus", str(root))
    ok("build", str(root / "demo.toml"), "--work", str(root / "work"))
    ok("draft", str(root / "demo.toml"), "--work", str(root / "work"))
    return root


@pytest.fixture
def demo(built: Path, tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(built, root)
    return root


def samples(work: Path) -> dict[str, list[dict[str, object]]]:
    """Every subset's rows; `source` (the absolute path of the book) differs between copies."""
    return {
        p.name: [
            {k: v for k, v in r.items() if k != "source"} for r in pq.read_table(p).to_pylist()
        ]
        for p in sorted((work / "samples").glob("*.parquet"))
    }


def build(demo: Path) -> subprocess.CompletedProcess[str]:
    return ok("build", str(demo / "demo.toml"), "--work", str(demo / "work"))


def forget_completion(work: Path) -> None:
    """What a changed setting does: the build's and the corpus step's records no longer
    match, so the corpus step processes the books again (from its caches)."""
    for name in ("build.json", "corpus.json"):
        (work / "state" / name).unlink()


def test_edited_books_jsonl_is_rebuilt_not_up_to_date(demo: Path) -> None:
    work = demo / "work"
    build(demo)  # this copy's own paths
    clean_books, clean_samples = (work / "corpus" / "books.jsonl").read_bytes(), samples(work)
    lines = clean_books.decode("utf-8").split("\n")
    book = json.loads(lines[0])
    book["chapters"][0]["text"] = "An edited chapter.\n" + book["chapters"][0]["text"]
    lines[0] = json.dumps(book, ensure_ascii=False)
    (work / "corpus" / "books.jsonl").write_text("\n".join(lines), encoding="utf-8")

    rerun = build(demo)
    assert rerun.stdout.startswith("demo: built")  # not "up to date, nothing to do"
    assert "corpus/books.jsonl changed" in rerun.stderr  # the log says why it ran
    assert (work / "corpus" / "books.jsonl").read_bytes() == clean_books
    assert samples(work) == clean_samples
    assert "demo: up to date" in build(demo).stdout


def test_edited_draft_log_is_redrafted_not_up_to_date(demo: Path) -> None:
    spec, work = str(demo / "demo.toml"), str(demo / "work")
    log = demo / "work" / "drafts" / "chapters.jsonl"
    clean_drafts = (demo / "work" / "drafts" / "samples.jsonl").read_bytes()
    assert "up to date" in ok("draft", spec, "--work", work).stdout
    lines = log.read_text(encoding="utf-8").split("\n")
    record = json.loads(lines[0])
    record["text"] = "A draft nobody wrote."
    lines[0] = json.dumps(record, ensure_ascii=False)
    log.write_text("\n".join(lines), encoding="utf-8")

    rerun = ok("draft", spec, "--work", work)
    assert "up to date" not in rerun.stdout
    assert "does not match the sha256 it was stored with" in rerun.stderr
    assert (demo / "work" / "drafts" / "samples.jsonl").read_bytes() == clean_drafts
    assert "A draft nobody wrote." not in log.read_text(encoding="utf-8")
    assert "up to date" in ok("draft", spec, "--work", work).stdout


def test_poisoned_cleaned_book_cache_does_not_reach_samples(demo: Path) -> None:
    work = demo / "work"
    build(demo)
    clean = samples(work)
    # Part of a line of a sample's text, as the cache entry of its book stores it.
    lines = (
        line.strip() for rows in clean.values() for r in rows for line in str(r["text"]).split("\n")
    )
    words = next(line[:20] for line in lines if len(line) > 30 and not {'"', "\\"} & set(line))
    poison = "THE POISON ".ljust(len(words), "X")
    entries = [e for e in (work / "cache" / "books").iterdir() if words in e.read_text()]
    assert entries
    for entry in entries:
        entry.write_text(entry.read_text().replace(words, poison))

    forget_completion(work)
    rerun = build(demo)
    assert samples(work) == clean
    assert "THE POISON" not in (work / "corpus" / "books.jsonl").read_text(encoding="utf-8")
    assert "does not match the sha256 it was stored under" in rerun.stderr


def test_poisoned_token_count_cache_does_not_reach_samples(demo: Path) -> None:
    work = demo / "work"
    build(demo)
    clean = samples(work)
    with sqlite3.connect(work / "cache" / "token_counts.sqlite") as db:
        poisoned = db.execute("UPDATE token_counts SET count = count + 1000").rowcount
    assert poisoned

    forget_completion(work)
    rerun = build(demo)
    assert samples(work) == clean
    assert "token count cache" in rerun.stderr and "discarded" in rerun.stderr


def test_killed_validation_leaves_its_folder_in_the_work_dir_for_the_next_run(
    demo: Path, tmp_path: Path
) -> None:
    system_tmp = tmp_path / "system-tmp"
    system_tmp.mkdir()
    env = {"TMPDIR": str(system_tmp)}
    spec, work = str(demo / "demo.toml"), demo / "work"
    ok("annotate", "demo-references", spec, "--work", str(work))
    release = ["release", spec, "--work", str(work), "--version", "0.1.0"]

    killed = lw(*release, crash_at="release:validating", **env)
    assert killed.returncode == -signal.SIGKILL
    left = list((work / "tmp").iterdir())
    assert len(left) == 1 and left[0].is_dir()  # in the work dir, where a rerun finds it
    assert list(system_tmp.iterdir()) == []

    ok(*release, **env)
    assert list((work / "tmp").iterdir()) == []
    assert list(system_tmp.iterdir()) == []
    assert (work / "releases" / "v0.1.0" / "manifest.json").is_file()
