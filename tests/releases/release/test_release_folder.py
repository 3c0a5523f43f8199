"""A release folder from a small demo build: Hub layout, card, loads with `datasets`."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest
import yaml  # type: ignore[import-untyped]
from release_helpers import annotate, annotate_all, read_rows, write_rows

from lengthwise.cli import main
from lengthwise.releases.release import ReleaseError, build_release
from lengthwise.spec import Spec

CARD_SECTIONS = [
    "## Dataset structure",
    "## How it was built",
    "### Corpus",
    "### Tokenizers",
    "### Sampling",
    "### Annotation",
    "## Statistics",
    "## Changes since the previous version",
    "## Intended use and limits",
    "## How to load a pinned version",
    "## Citation",
]


def _front_matter(card: str) -> dict[str, object]:
    assert card.startswith("---\n")
    block = card.split("---\n", 2)[1]
    data = yaml.safe_load(block)
    assert isinstance(data, dict)
    return data


def test_release_loads_with_datasets_for_every_subset(
    demo_spec: Spec, work: Path, tmp_path: Path
) -> None:
    annotate_all(work, demo_spec)
    result = build_release(demo_spec, work, "1.0.0")
    assert result.folder == work / "releases" / "v1.0.0"
    assert result.missing_summaries == 0
    for subset in demo_spec.subsets:
        built = read_rows(work / "samples" / f"{subset.name}.parquet")
        loaded = datasets.load_dataset(
            str(result.folder), subset.name, cache_dir=str(tmp_path / "hf")
        )
        assert list(loaded) == ["test"]
        rows = loaded["test"]
        assert rows["id"] == [r["id"] for r in built]
        assert rows["context"] == [r["text"] for r in built]
        assert all(s and s.startswith("[test fixture summary]") for s in rows["summary"])
        annotation = json.loads(rows["annotation"][0])
        assert annotation["flags"] == []
        assert "synopses" not in annotation  # drafts are working material, not released
        assert set(rows[0]["token_counts"]) == {"qwen2.5", "tiktoken:o200k_base", "chars"}
    with pytest.raises(ValueError, match=r"not found"):
        datasets.load_dataset(str(result.folder), "XXL", cache_dir=str(tmp_path / "hf"))


def test_card_front_matter_and_sections(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    folder = build_release(demo_spec, work, "1.0.0").folder
    card = (folder / "README.md").read_text(encoding="utf-8")
    meta = _front_matter(card)
    assert meta["pretty_name"] == "demo"
    assert meta["license"] == "other"
    assert meta["language"] == ["en", "zh"]
    assert meta["task_categories"] == ["summarization"]
    assert meta["size_categories"] == ["n<1K"]
    configs = meta["configs"]
    assert isinstance(configs, list)
    assert [c["config_name"] for c in configs] == ["S", "M", "L"]
    assert configs[0]["data_files"] == [{"split": "test", "path": "S/test-00000-of-00001.parquet"}]
    positions = [card.index(section) for section in CARD_SECTIONS]
    assert positions == sorted(positions)
    assert 'revision="v1.0.0"' in card
    assert "References missing" not in card
    # Interval table from the spec and encoding efficiency from the build report.
    assert "| S | 2,048 | [1,600, 2,560] | 12 |" in card
    assert "| zh | `qwen2.5` |" in card
    # No local path of the builder leaks into the card or the manifest.
    manifest = (folder / "manifest.json").read_text(encoding="utf-8")
    for text in (card, manifest):
        assert str(work) not in text
        assert str(work.parent) not in text


def test_cli_release_prints_the_folder_as_last_line(
    demo_built: tuple[Path, Path], demo_spec: Spec, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    annotate_all(work, demo_spec)
    spec_path = demo_built[0]
    code = main(["release", str(spec_path), "--version", "2.3.4", "--work", str(work)])
    out = capsys.readouterr().out
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert Path(last) == work / "releases" / "v2.3.4"
    assert (Path(last) / "manifest.json").is_file()
    shipped = (Path(last) / "spec.toml").read_text(encoding="utf-8").splitlines()
    written = spec_path.read_text(encoding="utf-8").splitlines()
    # The spec as written, with the release's version (shipped_spec.py) and a header note.
    assert 'version = "2.3.4"' in shipped
    assert [ln for ln in shipped[1:] if not ln.startswith("version")] == [
        ln for ln in written if not ln.startswith("version")
    ]


def test_unannotated_release_refuses_unless_allowed(
    demo_built: tuple[Path, Path], demo_spec: Spec, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ReleaseError, match=r"26 of 26 samples have no human summary"):
        build_release(demo_spec, work, "1.0.0")
    assert not (work / "releases" / "v1.0.0").exists()
    code = main(["release", str(demo_built[0]), "--version", "1.0.0", "--work", str(work)])
    assert code == 2
    assert "--allow-unannotated" in capsys.readouterr().err

    result = build_release(demo_spec, work, "1.0.0", allow_unannotated=True)
    card = (result.folder / "README.md").read_text(encoding="utf-8")
    banner = card.split("## Dataset structure")[0]
    assert "References missing" in banner
    assert "No sample has a human reference summary" in banner
    rows = read_rows(result.folder / "S" / "test-00000-of-00001.parquet")
    assert {r["summary"] for r in rows} == {None}


def test_partly_annotated_release_names_the_gap(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    rows = read_rows(work / "samples" / "M.parquet")
    rows[0]["summary"] = None
    write_rows(work / "samples" / "M.parquet", rows)
    with pytest.raises(ReleaseError, match=r"1 of 26 samples have no human summary \(M 1\)"):
        build_release(demo_spec, work, "1.0.0")
    result = build_release(demo_spec, work, "1.0.0", allow_unannotated=True)
    assert result.missing_summaries == 1
    card = (result.folder / "README.md").read_text(encoding="utf-8")
    assert "1 of 26 samples have no human reference summary" in card


def test_summaries_from_annotated_samples_folder_are_pseudonymised(
    demo_spec: Spec, work: Path
) -> None:
    """Summaries may also come from WORK/samples_annotated/<subset>.parquet."""
    for subset in demo_spec.subsets:
        annotate(work, subset.name)
        source = work / "samples" / f"{subset.name}.parquet"
        target = work / "samples_annotated" / f"{subset.name}.parquet"
        target.parent.mkdir(exist_ok=True)
        target.write_bytes(source.read_bytes())
        annotated = read_rows(target)
        for row in annotated:  # columns as `annotate pull` writes them
            row["reviewer"] = "li"
            row["annotations"] = json.dumps([{"annotator": "ann.one@example.org", "units": 9}])
        write_rows(target, annotated)
        rows = read_rows(source)
        for row in rows:  # the samples themselves stay unannotated
            row["summary"] = None
        write_rows(source, rows)
    result = build_release(demo_spec, work, "1.0.0")
    row = read_rows(result.folder / "L" / "test-00000-of-00001.parquet")[0]
    assert row["summary"].startswith("[test fixture summary]")
    assert "ann.one@example.org" not in row["annotation"]
    meta = json.loads(row["annotation"])
    (annotator,) = meta["annotators"]
    assert annotator.startswith("annotator-")
    assert json.loads(meta["annotations"]) == [{"annotator": annotator, "units": 9}]
    assert meta["reviewer"].startswith("annotator-")
    assert "synopses" not in meta


def test_empty_subset_is_left_out_and_named(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    write_rows(work / "samples" / "L.parquet", read_rows(work / "samples" / "L.parquet")[:0])
    result = build_release(demo_spec, work, "1.0.0")
    assert result.skipped_subsets == ["L"]
    assert list(result.manifest["subsets"]) == ["S", "M"]
    card = (result.folder / "README.md").read_text(encoding="utf-8")
    assert "Configured but not released (no sample fitted): L." in card


def test_missing_build_is_a_clear_error(demo_spec: Spec, tmp_path: Path) -> None:
    with pytest.raises(ReleaseError, match=r"run `lengthwise build SPEC.toml` first"):
        build_release(demo_spec, tmp_path / "nowhere", "1.0.0")
    with pytest.raises(ReleaseError, match=r"not of the form X.Y.Z"):
        build_release(demo_spec, tmp_path, "1.0")
