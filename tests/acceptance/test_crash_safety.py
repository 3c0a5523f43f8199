"""Issue 14: kill -9 and two runs at once, with real `python -m lengthwise` processes.

Each test kills a real process with SIGKILL at a point it chooses (LENGTHWISE_CRASH_AT, see
lengthwise.stage_state.crash_point) or holds a stage's lock from another process, then
checks what a user would: the next run's message and the files it leaves.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
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


def ok(*args: str) -> str:
    done = lw(*args)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo corpus built once; each test works on a copy."""
    root = tmp_path_factory.mktemp("crash-demo")
    ok("demo-corpus", str(root))
    ok("build", str(root / "demo.toml"), "--work", str(root / "work"))
    return root


@pytest.fixture
def demo(built: Path, tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(built, root)
    # The spec names its corpus folder relatively: nothing else points at `built`.
    return root


def rows(path: Path) -> list[dict[str, object]]:
    """A subset's samples; `source` (the absolute path of the book) differs between copies."""
    return [{k: v for k, v in r.items() if k != "source"} for r in pq.read_table(path).to_pylist()]


def test_stale_outputs_of_a_killed_rebuild_are_not_taken_as_current(demo: Path) -> None:
    spec, work = demo / "demo.toml", demo / "work"
    ok("build", str(spec), "--work", str(work))  # the copy's own paths: a complete build here
    assert "up to date, nothing to do" in ok("build", str(spec), "--work", str(work))
    original = {p.name: rows(p) for p in (work / "samples").glob("*.parquet")}
    changed = demo / "changed.toml"
    changed.write_text(re.sub(r"count = (\d+)", "count = 2", spec.read_text()))
    killed = lw("build", str(changed), "--work", str(work), crash_at="build:samples-written")
    assert killed.returncode == -signal.SIGKILL
    assert {p.name: len(rows(p)) for p in (work / "samples").glob("*.parquet")} == {
        name: 2 for name in original
    }  # the killed run's rows are on disk

    rerun = ok("build", str(spec), "--work", str(work))
    assert rerun.startswith("demo: built")  # samples rebuilt (the unchanged tasks are not)
    assert {p.name: rows(p) for p in (work / "samples").glob("*.parquet")} == original
    assert "up to date, nothing to do" in ok("build", str(spec), "--work", str(work))


def test_hand_edited_output_makes_the_stage_run_again(demo: Path) -> None:
    spec, work = demo / "demo.toml", demo / "work"
    ok("stats", str(spec), "--work", str(work))
    assert "up to date" in ok("stats", str(spec), "--work", str(work))
    (work / "stats" / "stats.md").write_text("edited\n")
    assert "up to date" not in ok("stats", str(spec), "--work", str(work))
    assert (work / "stats" / "stats.md").read_text() != "edited\n"


HOLD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from lengthwise.stage_state import StageLock
    with StageLock(Path(sys.argv[1]), sys.argv[2]):
        Path(sys.argv[3]).write_text("held")
        time.sleep(120)
    """
)


def hold(folder: Path, stage: str, tmp_path: Path) -> subprocess.Popen[bytes]:
    ready = tmp_path / f"held-{stage}"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(folder), stage, str(ready)])
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert holder.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    return holder


@pytest.mark.parametrize("stage", ["build", "draft", "stats"])
def test_second_run_of_a_stage_refuses_naming_the_holder(
    demo: Path, tmp_path: Path, stage: str
) -> None:
    holder = hold(demo / "work", stage, tmp_path)
    try:
        second = lw(stage, str(demo / "demo.toml"), "--work", str(demo / "work"))
    finally:
        holder.kill()
        holder.wait()
    assert second.returncode == 2
    message = second.stderr.strip().splitlines()
    assert len(message) == 1 and f"(pid {holder.pid})" in message[0], second.stderr
    # The holder died (SIGKILL): the next run takes the lock and does the work.
    ok(stage, str(demo / "demo.toml"), "--work", str(demo / "work"))


def release_and_eval_args(demo: Path) -> tuple[list[str], list[str]]:
    work = str(demo / "work")
    ok("draft", str(demo / "demo.toml"), "--work", work)
    ok("annotate", "demo-references", str(demo / "demo.toml"), "--work", work)
    release = [str(demo / "demo.toml"), "--work", work, "--version", "0.1.0"]
    evaluate = [
        *("--release", str(demo / "work" / "releases" / "v0.1.0"), "--prompts", "IB"),
        *("--model", "lead-3", "--backend", "baseline", "--limit", "2"),
        *("--out", str(demo / "eval")),
    ]
    return release, evaluate


def test_eval_run_folder_is_locked(demo: Path, tmp_path: Path) -> None:
    release, evaluate = release_and_eval_args(demo)
    ok("release", *release)
    (demo / "eval").mkdir()
    holder = hold(demo / "eval", "eval", tmp_path)
    try:
        second = lw("eval", *evaluate)
    finally:
        holder.kill()
        holder.wait()
    assert second.returncode == 2 and f"(pid {holder.pid})" in second.stderr
    assert not (demo / "eval" / "generations.jsonl").exists()  # nothing was sent


def test_leftovers_of_killed_runs_are_removed_by_the_next_run(demo: Path) -> None:
    spec, work = demo / "demo.toml", demo / "work"
    release, _ = release_and_eval_args(demo)
    (work / "samples" / ".3XL.parquet.k2j4.tmp").write_bytes(b"")
    killed = lw("release", *release, crash_at="release:staged")
    assert killed.returncode == -signal.SIGKILL
    staging = list((work / "releases").glob(".v0.1.0.staging-*"))
    assert len(staging) == 1 and (staging[0] / "manifest.json").is_file()  # complete-looking

    ok("build", str(spec), "--work", str(work))
    assert not list((work / "samples").glob(".*"))
    ok("release", *release)
    assert sorted(p.name for p in (work / "releases").iterdir()) == ["v0.1.0"]


def test_release_killed_while_replacing_leaves_a_release_after_the_rerun(demo: Path) -> None:
    release, _ = release_and_eval_args(demo)
    ok("release", *release)
    killed = lw("release", *release, crash_at="release:swapping")
    assert killed.returncode == -signal.SIGKILL
    assert not (demo / "work" / "releases" / "v0.1.0").exists()  # swapped out at the kill
    ok("release", *release)
    releases = demo / "work" / "releases"
    assert sorted(p.name for p in releases.iterdir()) == ["v0.1.0"]
    assert (releases / "v0.1.0" / "manifest.json").is_file()


def test_eval_usage_adds_up_across_killed_and_resumed_invocations(demo: Path) -> None:
    release, evaluate = release_and_eval_args(demo)
    ok("release", *release)
    killed = lw("eval", *evaluate, crash_at="eval:line-written:3")
    assert killed.returncode == -signal.SIGKILL
    out = ok("eval", *evaluate)
    assert re.search(r"generated 3, reused 3 ", out)
    ok("eval", *evaluate)  # everything reused: this invocation makes no call

    results = json.loads((demo / "eval" / "results.json").read_text())
    usage = results["usage"]
    assert usage["total"]["calls"] == 0  # the last invocation
    overall = usage["all_invocations"]
    assert [i["calls"] for i in overall["invocations"]] == [3, 3, 0]
    # 3 subsets x 2 samples, each answered once. The baseline answers its whole batch into
    # the request cache before reporting any: those the kill cut off come back as cache hits.
    assert overall["total"]["calls"] == 6
    assert overall["total"]["model_calls"] + overall["total"]["cache_hits"] == 6
    assert overall["invocations"][0]["model_calls"] == 3
    assert overall["total"]["completion_tokens"] > 0
    assert "Usage over all 4 runs into this run folder: 6 calls" in ok("eval", *evaluate)


@pytest.mark.slow
def test_random_kills_across_the_stages_all_resume() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "kill_resume.py"), "--kills", "5", "--seed", "3"],
        cwd=REPO, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "kills survived: 5/5" in done.stdout


@pytest.mark.slow
def test_each_stage_killed_at_a_random_crash_point_reruns_to_the_uninterrupted_outputs() -> None:
    # Two kills per stage, each at a point drawn among the stage's own crash points and the
    # stage runner's (after compute, after the report, before the completion record).
    seed = random.SystemRandom().randrange(1000)  # printed on failure to replay it
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "kill_resume.py"), "--kills", "10",
         "--seed", str(seed), "--crash-points"],
        cwd=REPO, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, f"--seed {seed}\n" + done.stdout + done.stderr[-3000:]
    assert "kills survived: 10/10 (10 landed inside a stage)" in done.stdout
    for stage in ("build", "draft", "stats", "release", "eval"):
        assert f"{stage} kill 2/2 at {stage}:" in done.stdout
