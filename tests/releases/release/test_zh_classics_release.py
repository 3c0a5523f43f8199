"""Acceptance: a release of the four zh classics (../shared corpora), built for real.

Summaries are TEST FIXTURES written as an annotator's output would be; the contexts,
lengths and tables come from a real `lengthwise build` of examples/zh-classics.toml.
"""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest
from release_helpers import annotate_all, read_rows, write_rows

from lengthwise.builders.build import run_build
from lengthwise.cli import main
from lengthwise.releases.release import build_release, verify_release
from lengthwise.spec import Spec, load_spec

pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[3]
RELEASE_SECTION = """
[release]
repo_id = "lengthwise-test/zh-classics"
pretty_name = "zh classics (lengthwise test build)"
license = "other"
license_note = "Public-domain novels; web e-texts cleaned by lengthwise."
"""


@pytest.fixture(scope="module")
def zh_build(shared_corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(spec path, work dir) of the zh classics example, pointed at the shared corpora."""
    root = tmp_path_factory.mktemp("zh-classics")
    text = (REPO_ROOT / "examples" / "zh-classics.toml").read_text(encoding="utf-8")
    corpus = shared_corpora / "zh_simplified_four_classics"
    text = text.replace(
        '"../../shared/corpora/zh_simplified_four_classics"', json.dumps(str(corpus))
    )
    assert str(corpus) in text, "examples/zh-classics.toml no longer names the shared corpus"
    spec_path = root / "zh-classics.toml"
    spec_path.write_text(text + RELEASE_SECTION, encoding="utf-8")
    work = root / "work"
    run_build(load_spec(spec_path), work, progress=False, workers=2)
    annotate_all(work, load_spec(spec_path))
    return spec_path, work


def test_zh_classics_release_loads_verifies_and_diffs(
    zh_build: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_path, work = zh_build
    spec: Spec = load_spec(spec_path)
    assert main(["release", str(spec_path), "--version", "1.0.0", "--work", str(work)]) == 0
    folder = Path(capsys.readouterr().out.strip().splitlines()[-1])
    release = verify_release(folder, "1.0.0")
    for subset in spec.subsets:
        rows = datasets.load_dataset(
            str(folder), subset.name, split="test", cache_dir=str(tmp_path)
        )
        built = read_rows(work / "samples" / f"{subset.name}.parquet")
        assert len(rows) == len(built) > 0
        assert list(rows["id"]) == release.subsets[subset.name]
        assert all(subset.lower <= t <= subset.upper for t in rows["tokens"])
        assert set(rows["language"]) == {"zh"}
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert (
        'load_dataset("lengthwise-test/zh-classics", "L", split="test", revision="v1.0.0")' in card
    )
    assert "| zh | `qwen2.5` |" in card  # encoding efficiency from the build
    assert "| 3XL | `qwen2.5` |" in card  # length table
    assert "Public-domain novels" in card

    l_rows = read_rows(work / "samples" / "L.parquet")
    write_rows(work / "samples" / "L.parquet", l_rows[1:])
    xl_rows = read_rows(work / "samples" / "XL.parquet")
    xl_rows[2]["summary"] = "【测试用摘要】修订后的参考摘要。"
    write_rows(work / "samples" / "XL.parquet", xl_rows)
    try:
        second = build_release(spec, work, "1.1.0", spec_path=spec_path)
    finally:
        write_rows(work / "samples" / "L.parquet", l_rows)  # the module's build stays intact
    assert second.diff["subsets"]["L"]["removed"] == [l_rows[0]["id"]]
    assert second.diff["subsets"]["XL"]["changed"] == [
        {"id": xl_rows[2]["id"], "parts": ["summary"]}
    ]
    assert second.diff["totals"] == {"added": 0, "removed": 1, "changed": 1}
    assert verify_release(folder, "1.0.0").version == "1.0.0"


def test_zh_classics_release_card_carries_the_statistics(
    zh_build: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    spec_path, work = zh_build
    assert main(["stats", str(spec_path), "--work", str(work)]) == 0
    assert (work / "stats" / "stats.json").is_file()
    assert main(["release", str(spec_path), "--version", "2.0.0", "--work", str(work)]) == 0
    folder = Path(capsys.readouterr().out.strip().splitlines()[-1])
    card = (folder / "README.md").read_text(encoding="utf-8")
    section = card.split("\n### Dataset statistics\n", 1)[1].split("\n## Changes")[0]
    assert "Not computed" not in section
    assert "computed on other samples" not in section
    assert (folder / "statistics.json").read_bytes() == (work / "stats" / "stats.json").read_bytes()
