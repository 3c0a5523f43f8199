"""Fixtures for evaluator tests: a tiny released benchmark built from the synthetic demo corpus.

The release is made by the project's own code (demo corpus -> `run_build` -> summaries
-> `build_release`), with subsets scaled down (about 700 and 1400 tokens) so the tiny
random model answers quickly on CPU. The reference summaries are TEST FIXTURES written
here (the book title, chapter titles and the excerpt's first sentence), not human work.
"""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from lengthwise.builders.build import run_build
from lengthwise.builders.demo_corpus import DEMO_SPEC, write_demo_corpus
from lengthwise.releases.release.build import build_release
from lengthwise.spec import load_spec
from lengthwise.storage import atomic_write_text

SMALL_SUBSETS = """
[[subsets]]
name = "S"
target = 700
lower = 450
upper = 950
count = 4

[[subsets]]
name = "M"
target = 1400
lower = 1100
upper = 1800
count = 4
"""


def fixture_summary(row: dict[str, object]) -> str:
    """TEST FIXTURE reference: title, chapter titles and the first sentence of the excerpt."""
    text = str(row["text"])
    body = text.split("\n", 2)[-1] if "\n" in text else text
    first = re.split(r"(?<=[.!?。！？])", body.strip(), maxsplit=1)[0]
    titles = "; ".join(str(t) for t in row["chapter_titles"])  # type: ignore[attr-defined]
    return f"{row['book_title']}: {titles}. {first}"


@pytest.fixture(scope="session")
def tiny_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A verified release folder (v1.0.0) with subsets S and M, 4 samples each (zh and en)."""
    root = tmp_path_factory.mktemp("eval-release")
    write_demo_corpus(root / "corpus")
    spec_text = DEMO_SPEC[: DEMO_SPEC.index("[[subsets]]")] + SMALL_SUBSETS
    atomic_write_text(root / "demo.toml", spec_text)
    spec = load_spec(root / "demo.toml")
    work = root / "work"
    run_build(spec, work, progress=False, workers=1)
    for subset in ("S", "M"):
        path = work / "samples" / f"{subset}.parquet"
        rows = pq.read_table(path).to_pylist()
        for row in rows:
            row["summary"] = fixture_summary(row)
        pq.write_table(pa.Table.from_pylist(rows), path)
    return build_release(spec, work, "1.0.0").folder


@pytest.fixture(scope="session")
def release_rows(tiny_release: Path) -> dict[str, list[dict[str, object]]]:
    """The released rows per subset, as an evaluator downloading the release sees them."""
    return {
        subset: pq.read_table(tiny_release / subset / "test-00000-of-00001.parquet").to_pylist()
        for subset in ("S", "M")
    }
