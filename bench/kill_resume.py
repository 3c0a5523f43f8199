"""kill -9 at random moments across build, draft, stats, release and eval; check the resume.

On the demo corpus (`lengthwise demo-corpus`): one uninterrupted run of every stage gives
the reference outputs. Then, in a second work directory, each stage is started, killed
with SIGKILL after a random delay (within the stage's own running time), and rerun to
completion. A kill counts as survived when, after the rerun:

- every output of the stage equals the uninterrupted run's (timings aside),
- no process of the killed run is left (its whole process group is checked),
- no temporary file, staging folder or temporary folder (WORK/tmp/) is left in the work
  directory or run folder,
- eval: results.json's usage over all invocations shows every (sample, prompt) answered
  and none asked of the model twice (no repeated generation).

With --crash-points, each kill happens at a named point inside the stage instead
(LENGTHWISE_CRASH_AT, see lengthwise.stage_state.crash_point): a point drawn at random
among the stage's own ones and the runner's (after compute, after the report, before
the completion record), and for repeated points a random occurrence.

Usage: python bench/kill_resume.py [--kills 20] [--seed 0] [--keep DIR] [--crash-points]
Prints one line per kill and "kills survived: S/T"; exits 1 unless S == T.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lengthwise.jsonl import parse_jsonl, read_jsonl

STAGES = ("build", "draft", "stats", "release", "eval")
# Timings, and figures of one invocation (what this run drafted, reused, spent).
VOLATILE = {
    *("seconds", "started", "request_seconds", "latency_seconds", "usage", "created"),
    *("drafted_this_run", "reused", "created_at", "updated_at"),
}
LEFTOVER_MARKS = (".tmp", ".staging-", ".old-")
# Where --crash-points kills each stage: its own points and the stage runner's.
# "NAME:N" is NAME's N-th hit; `{n}` is drawn per kill (the demo drafts and evaluates
# more chapters and answers than that, so the point is always reached).
CRASH_POINTS = {
    "build": ("build:samples-written", "build:computed", "build:reported"),
    "draft": ("draft:chapter-drafted:{n}", "draft:computed", "draft:reported"),
    "stats": ("stats:samples-written", "stats:computed", "stats:reported"),
    "release": ("release:staged", "release:validating", "release:computed"),
    "eval": ("eval:line-written:{n}", "eval:computed"),
}


def lengthwise(*args: str, crash_at: str | None = None, **kwargs: Any) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "LENGTHWISE_CRASH_AT"}
    if crash_at is not None:
        env["LENGTHWISE_CRASH_AT"] = crash_at
    return subprocess.Popen(
        [sys.executable, "-m", "lengthwise", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: orphans are found by group
        env=env,
        **kwargs,
    )


def run_to_end(*args: str) -> float:
    started = time.perf_counter()
    process = lengthwise(*args)
    _, err = process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"lengthwise {' '.join(args)} failed:\n{err.decode()[-2000:]}")
    if os.environ.get("KILL_RESUME_DEBUG"):
        print(err.decode()[-1500:], file=sys.stderr)
    return time.perf_counter() - started


class Pipeline:
    """The stage commands of scripts/demo.sh for one work directory."""

    def __init__(self, root: Path, spec: Path) -> None:
        self.root = root
        self.spec = str(spec)
        self.work = root / "work"
        self.eval_out = root / "eval"

    def command(self, stage: str) -> list[str]:
        work = ["--work", str(self.work)]
        if stage == "release":
            return ["release", self.spec, *work, "--version", "0.1.0"]
        if stage == "eval":
            release = str(self.work / "releases" / "v0.1.0")
            return [
                *("eval", "--release", release, "--prompts", "IB", "--model", "lead-3"),
                *("--backend", "baseline", "--out", str(self.eval_out)),
            ]
        return [stage, self.spec, *work]

    def after(self, stage: str, reference: Pipeline | None = None) -> None:
        """Synthetic references after drafts, so that stats and release have summaries.

        They carry their creation time: the killed pipeline copies the reference's, so
        that its later stages start from the same inputs.
        """
        if stage != "draft":
            return
        if reference is None:
            run_to_end("annotate", "demo-references", self.spec, "--work", str(self.work))
            return
        for folder in ("annotations", "samples_annotated"):
            shutil.copytree(reference.work / folder, self.work / folder, dirs_exist_ok=True)

    def invalidate(self, stage: str) -> None:
        """Make the stage do its work again (else a kill would only hit an up-to-date check)."""
        state = self.work / "state"
        if stage == "build":
            for name in ("build.json", "corpus.json"):
                (state / name).unlink(missing_ok=True)
        elif stage == "draft":
            shutil.rmtree(self.work / "drafts", ignore_errors=True)
            (state / "draft.json").unlink(missing_ok=True)
        elif stage == "stats":
            (state / "stats.json").unlink(missing_ok=True)
        elif stage == "eval":
            shutil.rmtree(self.eval_out, ignore_errors=True)

    def outputs(self, stage: str) -> dict[str, Any]:
        """The stage's outputs, comparable across work directories."""
        folder = {
            "build": self.work / "samples",
            "draft": self.work / "drafts",
            "stats": self.work / "stats",
            "release": self.work / "releases" / "v0.1.0",
            "eval": self.eval_out,
        }[stage]
        found = {str(p.relative_to(folder)): _content(p, self.root) for p in _files(folder)}
        if stage == "draft":  # per-invocation counts in a table; report.json is compared
            found.pop("report.md", None)
        if stage == "build":
            found["build_report.json"] = _content(self.work / "build_report.json", self.root)
        if stage == "eval":
            found.pop("request-cache.sqlite", None)
            found.pop("state/eval-usage.jsonl", None)
            found.pop("generations.jsonl", None)  # superseded lines differ; results.json holds it
        return found


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and "locks" not in p.parts)


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _content(path: Path, root: Path) -> Any:
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    text = path.read_bytes().decode("utf-8", errors="replace").replace(str(root), "ROOT")
    if path.suffix == ".json":
        return _strip(json.loads(text))
    if path.suffix == ".jsonl":
        rows = [_strip(row) for row in parse_jsonl(text, str(path))]
        # An append-only log (drafts/chapters.jsonl): its order follows the interruptions.
        return rows if path.name != "chapters.jsonl" else sorted(rows, key=json.dumps)
    if path.suffix in (".md", ".html"):
        # Timings are part of the human reports: decimals are left out of the comparison
        # (the JSON reports, compared without their timings, hold every figure).
        return re.sub(r"\d+\.\d+", "N", text)
    return text


def _group_alive(pgid: int) -> list[int]:
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(entry.name))
    return alive


def _leftovers(*folders: Path) -> list[str]:
    marked = [
        str(p)
        for folder in folders
        if folder.exists()
        for p in folder.rglob(".*")
        if any(mark in p.name for mark in LEFTOVER_MARKS)
    ]
    # Temporary folders (release validation's datasets cache) live in FOLDER/tmp/.
    scratch = [
        str(p)
        for folder in folders
        if (folder / "tmp").is_dir()
        for p in (folder / "tmp").iterdir()
    ]
    return marked + scratch


def kill_once(pipeline: Pipeline, stage: str, when: float | str) -> tuple[bool, list[str]]:
    """Start the stage, SIGKILL it after `when` seconds (or at crash point `when`), rerun it.

    Returns whether the kill landed inside the stage (it held the stage's lock, so it was
    past Python's start-up) and what went wrong.
    """
    problems = []
    if isinstance(when, str):
        process = lengthwise(*pipeline.command(stage), crash_at=when)
        if process.wait() != -signal.SIGKILL:
            problems.append(f"crash point {when} not reached (exit {process.returncode})")
    else:
        process = lengthwise(*pipeline.command(stage))
        time.sleep(when)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    folder = pipeline.eval_out if stage == "eval" else pipeline.work
    lock = folder / "locks" / f"{stage}.lock"
    inside = lock.is_file() and lock.read_text().strip() == str(process.pid)
    time.sleep(0.5)
    orphans = _group_alive(process.pid)
    if orphans:
        problems.append(f"orphan processes {orphans}")
        os.killpg(process.pid, signal.SIGKILL)
    run_to_end(*pipeline.command(stage))
    left = _leftovers(pipeline.work, pipeline.eval_out)
    if left:
        problems.append(f"leftovers {left}")
    return inside, problems


def eval_usage_problems(pipeline: Pipeline) -> list[str]:
    results = json.loads((pipeline.eval_out / "results.json").read_text())
    pairs = len(list(read_jsonl(pipeline.eval_out / "generations.jsonl")))
    total = results["usage"]["all_invocations"]["total"]
    expected = {line_key for line_key in _eval_pairs(pipeline)}
    problems = []
    # Each pair asked of the model at most once; each answered (by it or the cache) at least once.
    if total["model_calls"] > len(expected) or total["calls"] < len(expected):
        problems.append(
            f"usage over all invocations: {total['model_calls']} model calls, "
            f"{total['calls']} answers for {len(expected)} pairs ({pairs} generations lines)"
        )
    return problems


def _eval_pairs(pipeline: Pipeline) -> set[tuple[str, str, str]]:
    return {
        (row["subset"], row["sample_id"], row["prompt_id"])
        for row in read_jsonl(pipeline.eval_out / "generations.jsonl")
        if row["outcome"] != "skipped"
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    parser.add_argument(
        "--crash-points", action="store_true", help="kill at named points, not after delays"
    )
    args = parser.parse_args(argv)
    base = args.keep or Path(tempfile.mkdtemp(prefix="lw-kill-resume-"))
    base.mkdir(parents=True, exist_ok=True)
    try:
        return _run(base, args.kills, random.Random(args.seed), args.crash_points)
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)


def _run(base: Path, kills: int, rng: random.Random, at_points: bool = False) -> int:
    run_to_end("demo-corpus", str(base / "demo"))
    spec = base / "demo" / "demo.toml"
    reference, killed = Pipeline(base / "reference", spec), Pipeline(base / "killed", spec)
    durations = {}
    for stage in STAGES:
        durations[stage] = run_to_end(*reference.command(stage))
        reference.after(stage)
    plan = [STAGES[i % len(STAGES)] for i in range(kills)]
    survived = landed = 0
    for stage in STAGES:
        count = plan.count(stage)
        for attempt in range(count):
            killed.invalidate(stage)
            when: float | str = rng.uniform(0.3 * durations[stage], durations[stage])
            if at_points:
                when = rng.choice(CRASH_POINTS[stage]).format(n=rng.randint(1, 3))
            inside, problems = kill_once(killed, stage, when)
            problems += _compare(reference, killed, stage)
            if stage == "eval":
                problems += eval_usage_problems(killed)
            survived += not problems
            landed += inside
            verdict = "ok" if not problems else "FAILED: " + "; ".join(problems)
            where = "inside the stage" if inside else "during start-up"
            moment = f"at {when}" if isinstance(when, str) else f"after {when:.2f}s"
            print(f"{stage} kill {attempt + 1}/{count} {moment} ({where}): {verdict}", flush=True)
        if not count:
            run_to_end(*killed.command(stage))
        killed.after(stage, reference)
    print(f"kills survived: {survived}/{kills} ({landed} landed inside a stage)")
    return 0 if survived == kills else 1


def _compare(reference: Pipeline, killed: Pipeline, stage: str) -> list[str]:
    want, got = reference.outputs(stage), killed.outputs(stage)
    differ: Callable[[str], bool] = lambda name: want.get(name) != got.get(name)  # noqa: E731
    names = sorted(n for n in set(want) | set(got) if differ(n))
    return [f"outputs differ from the uninterrupted run: {names}"] if names else []


if __name__ == "__main__":
    sys.exit(main())
