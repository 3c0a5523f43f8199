"""Evaluator overhead: the same prompts sent by `lengthwise eval` and by a bare `openai` client.

Both talk to one `transformers serve` (started here, CPU) on a tiny random model, one
request at a time, greedy, the same max_tokens. The evaluator's time is its whole run
(release verification, counting and planning, requests, scoring, outcome checks, the
per-answer fsync'd JSONL lines, results.json); the bare client only sends the requests.
The evaluator starts with a fresh request cache each round, so it sends every request.

Usage: .venv/bin/python bench/bench_eval_overhead.py [--model DIR] [--limit N]
       [--max-new-tokens N] [--rounds R]
Without --model a tiny model is built first (about 30 s). Prints the median times and
their ratio (goal: within 5%).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.fixtures.tiny_model (the model builder)

from lengthwise.builders.build import run_build  # noqa: E402
from lengthwise.builders.demo_corpus import DEMO_SPEC, write_demo_corpus  # noqa: E402
from lengthwise.evaluation.backends import EngineSettings  # noqa: E402
from lengthwise.evaluation.counting import make_counter  # noqa: E402
from lengthwise.evaluation.planning import make_plan  # noqa: E402
from lengthwise.evaluation.prompts import select_prompts  # noqa: E402
from lengthwise.evaluation.runner import EvalConfig, run_eval  # noqa: E402
from lengthwise.evaluation.samples import load_release  # noqa: E402
from lengthwise.evaluation.store import GENERATIONS  # noqa: E402
from lengthwise.releases.release.build import build_release  # noqa: E402
from lengthwise.spec import load_spec  # noqa: E402
from lengthwise.storage import atomic_write_text, read_jsonl  # noqa: E402

SUBSETS = """
[[subsets]]
name = "S"
target = 700
lower = 450
upper = 950
count = 6
"""


def make_release(root: Path) -> Path:
    """A tiny release of the synthetic demo corpus with placeholder summaries."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    write_demo_corpus(root / "corpus")
    atomic_write_text(root / "demo.toml", DEMO_SPEC[: DEMO_SPEC.index("[[subsets]]")] + SUBSETS)
    spec = load_spec(root / "demo.toml")
    run_build(spec, root / "work", progress=False, workers=1)
    path = root / "work" / "samples" / "S.parquet"
    rows = pq.read_table(path).to_pylist()
    for row in rows:
        row["summary"] = f"[bench placeholder] {row['book_title']}: {row['chapter_titles'][0]}"
    pq.write_table(pa.Table.from_pylist(rows), path)
    return build_release(spec, root / "work", "1.0.0").folder


def start_server(model: Path, root: Path, port: int) -> subprocess.Popen[bytes]:
    hub = root / "hub"
    hub.mkdir(exist_ok=True)
    env = os.environ | {"HF_HUB_OFFLINE": "1", "HF_HUB_CACHE": str(hub), "HOME": str(root)}
    command = [str(Path(sys.executable).parent / "transformers"), "serve", str(model)]
    command += ["--host", "127.0.0.1", "--port", str(port), "--device", "cpu"]
    log = (root / "server.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                return process
        except OSError:
            time.sleep(0.5)
    process.kill()
    raise SystemExit(f"transformers serve did not start; see {root / 'server.log'}")


def bare_prompts(release: Path, model: Path, limit: int) -> list[str]:
    """The evaluator's own prompts (same plan), to send with the bare client."""
    data = load_release(str(release), limit=limit)
    plan = make_plan(
        data.subsets,
        select_prompts(["IB", "IE"]),
        make_counter(str(model), None, chat_template=True),
        policy="truncate-middle",
        context_window=None,
        window_source="bench",
        max_new_tokens=dict.fromkeys(data.subsets, 1),
    )
    return [item.prompt_text for item in sorted(plan.runnable, key=lambda i: i.key)]


def run_bare(base_url: str, model: str, prompts: list[str], max_tokens: int) -> float:
    import openai

    client = openai.OpenAI(base_url=base_url, api_key="EMPTY", max_retries=0, timeout=600)
    started = time.perf_counter()
    for prompt in prompts:
        client.chat.completions.create(
            model=model,
            messages=[{"role": "user", "content": prompt}],
            max_tokens=max_tokens,
            temperature=0.0,
            seed=0,
        )
    return time.perf_counter() - started


def run_evaluator(
    release: Path, base_url: str, model: str, out: Path, limit: int, max_tokens: int
) -> tuple[float, float]:
    """(wall seconds, seconds spent outside the HTTP requests) of one evaluator run."""
    config = EvalConfig(
        release=str(release),
        model=model,
        backend="openai",
        out=out,
        limit=limit,
        default_max_new_tokens=max_tokens,
        write_report=False,
        engine=EngineSettings(backend="openai", model=model, base_url=base_url, concurrency=1),
    )
    started = time.perf_counter()
    run = run_eval(config)
    elapsed = time.perf_counter() - started
    if not run.results["complete"] or run.reused:
        raise SystemExit(f"{out}: the evaluator did not send every request afresh")
    in_requests = sum(line["latency_seconds"] for line in read_jsonl(out / GENERATIONS))
    return elapsed, elapsed - in_requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--limit", type=int, default=6, help="samples (x2 prompts)")
    parser.add_argument("--max-new-tokens", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--port", type=int, default=18931)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-eval-") as tmp:
        root = Path(tmp)
        model = args.model
        if model is None:
            from tests.fixtures.tiny_model import build_tiny_model

            model = build_tiny_model(root / "model")
        release = make_release(root / "release")
        server = start_server(model, root, args.port)
        base_url = f"http://127.0.0.1:{args.port}/v1"
        try:
            started = time.perf_counter()
            # Also loads the counting tokenizer, kept for the process: a one-time cost that
            # every `lengthwise eval` pays once, reported apart from the rounds.
            prompts = bare_prompts(release, model, args.limit)
            tokenizer_load = time.perf_counter() - started
            # Warm-up round, not counted: the server's first requests and the evaluator's
            # first scoring (jieba's dictionary) are slower.
            run_bare(base_url, str(model), prompts, args.max_new_tokens)
            run_evaluator(release, base_url, str(model), root / "warm-up", args.limit, 4)
            bare_times, eval_times, own_times = [], [], []
            for round_number in range(args.rounds):
                bare_times.append(run_bare(base_url, str(model), prompts, args.max_new_tokens))
                out = root / f"run-{round_number}"
                wall, own = run_evaluator(
                    release, base_url, str(model), out, args.limit, args.max_new_tokens
                )
                eval_times.append(wall)
                own_times.append(own)
        finally:
            server.terminate()
            server.wait(timeout=30)
    bare, evaluated = statistics.median(bare_times), statistics.median(eval_times)
    print(f"{len(prompts)} requests x {args.max_new_tokens} new tokens, {args.rounds} rounds")
    print(f"bare openai client: median {bare:.2f} s  {[round(t, 2) for t in bare_times]}")
    print(f"lengthwise eval:    median {evaluated:.2f} s  {[round(t, 2) for t in eval_times]}")
    print(f"one-time tokenizer load + first plan (per eval process): {tokenizer_load:.2f} s")
    own = statistics.median(own_times)
    print(
        f"evaluator's own time (wall minus its requests' latency): median {own:.3f} s "
        f"= {own / evaluated:.2%} of its run"
    )
    overhead = evaluated / bare - 1
    print(f"ratio eval/bare: {evaluated / bare:.3f} (overhead {overhead:+.1%}; goal < +5%)")


if __name__ == "__main__":
    main()
