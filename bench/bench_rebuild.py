"""Cost of a rebuild that changes only sampling settings, as a share of a cold build.

Cold: an empty work directory (decode, clean, chapters, token counts, sampling).
Rebuild: the same work directory after switching the sampling policy, which must reuse
the cached books and chapter token counts. Both run in this process; the issue asks for
the rebuild to cost under 5% of the cold build.
Usage: .venv/bin/python bench/bench_rebuild.py [SPEC] (default examples/zh-classics.toml)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from lengthwise.builders.build import run_build
from lengthwise.spec import load_spec

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    spec = load_spec(sys.argv[1] if len(sys.argv) > 1 else ROOT / "examples" / "zh-classics.toml")
    other = "closest" if spec.sampling.policy == "first-fit" else "first-fit"
    changed = spec.model_copy(
        update={"sampling": spec.sampling.model_copy(update={"policy": other})}
    )
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "work"
        started = time.perf_counter()
        run_build(spec, work, progress=False)
        cold = time.perf_counter() - started
        started = time.perf_counter()
        result = run_build(changed, work, progress=False)
        rebuild = time.perf_counter() - started
        started = time.perf_counter()
        again = run_build(changed, work, progress=False)
        unchanged = time.perf_counter() - started
    assert not result.up_to_date and again.up_to_date
    print(f"spec {spec.name}: cold build {cold:.2f} s")
    print(
        f"sampling-only rebuild ({spec.sampling.policy} -> {other}): {rebuild:.2f} s "
        f"= {rebuild / cold:.1%} of cold (goal < 5%)"
    )
    print(f"rerun with nothing changed: {unchanged:.2f} s = {unchanged / cold:.1%} of cold")


if __name__ == "__main__":
    main()
