"""The card says where the references came from, counted by origin, as it happened."""

from __future__ import annotations

import json
from pathlib import Path

from release_helpers import annotate_all, read_rows

from lengthwise.annotation.review.finalize import finalize
from lengthwise.releases.release import build_release
from lengthwise.spec import Spec


def _sample_rows(work: Path) -> list[dict[str, object]]:
    return [row for path in sorted((work / "samples").glob("*.parquet")) for row in read_rows(path)]


def test_a_release_from_an_overrides_file_says_so_and_claims_no_annotators(
    demo_spec: Spec, work: Path, tmp_path: Path
) -> None:
    rows = _sample_rows(work)
    overrides = tmp_path / "overrides.jsonl"
    overrides.write_text(
        "".join(
            json.dumps({"sample_id": r["id"], "summary": f"Reviewer text for {r['id']}."}) + "\n"
            for r in rows
        ),
        encoding="utf-8",
    )
    finalize(demo_spec, work, overrides)
    card = (build_release(demo_spec, work, "1.0.0").folder / "README.md").read_text()
    annotation = card.split("### Annotation", 1)[1].split("\n## ", 1)[0]
    assert f"Reference summaries ({len(rows)}): {len(rows)} from an overrides file" in annotation
    assert "human annotators" not in card
    assert "Label Studio" not in annotation
    assert "own words" not in card
    assert "No reviewer is recorded." in annotation


def test_label_studio_references_count_their_annotators(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)  # one annotator wrote every summary
    card = (build_release(demo_spec, work, "1.0.0").folder / "README.md").read_text()
    total = len(_sample_rows(work))
    assert (
        f"Reference summaries ({total}): {total} written by human annotation in Label Studio "
        "(1 annotator)"
    ) in card
    assert "overrides file" not in card


def test_synthetic_demo_references_are_named_as_such(demo_spec: Spec, work: Path) -> None:
    from lengthwise.annotation.demo_references import demo_references

    demo_references(demo_spec, work)
    card = (build_release(demo_spec, work, "1.0.0").folder / "README.md").read_text()
    total = len(_sample_rows(work))
    annotation = card.split("### Annotation", 1)[1].split("\n## ", 1)[0]
    assert f"Reference summaries ({total}): {total} synthetic references" in annotation
    assert "no person wrote them" in annotation
    assert "Label Studio" not in annotation and "own words" not in card
