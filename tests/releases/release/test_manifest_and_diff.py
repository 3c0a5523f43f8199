"""manifest.json verifies a folder, catches tampering, and versions diff sample by sample."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from release_helpers import annotate_all, read_rows, write_rows

from lengthwise.releases.release import ManifestError, build_release, verify_release
from lengthwise.spec import Spec
from lengthwise.storage import sha256_file


def test_manifest_lists_hashes_ids_and_provenance(
    demo_built: tuple[Path, Path], demo_spec: Spec, work: Path
) -> None:
    annotate_all(work, demo_spec)
    folder = build_release(demo_spec, work, "1.0.0", spec_path=demo_built[0]).folder
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["version"] == "1.0.0"
    assert manifest["tag"] == "v1.0.0"
    assert manifest["seed"] == demo_spec.seed
    assert manifest["tool"]["name"] == "lengthwise"
    assert len(manifest["spec"]["sha256"]) == 64
    books = [json.loads(line) for line in (work / "corpus" / "books.jsonl").open()]
    assert {b["book_id"]: b["raw_sha256"] for b in manifest["corpus"]} == {
        b["id"]: b["raw_sha256"] for b in books
    }
    assert set(manifest["files"]) == {
        "README.md",
        "diff.json",
        "spec.toml",
        "S/test-00000-of-00001.parquet",
        "M/test-00000-of-00001.parquet",
        "L/test-00000-of-00001.parquet",
    }
    for relative, entry in manifest["files"].items():
        assert entry["sha256"] == sha256_file(folder / relative)
    for subset in demo_spec.subsets:
        built_ids = [r["id"] for r in read_rows(work / "samples" / f"{subset.name}.parquet")]
        assert [s["id"] for s in manifest["subsets"][subset.name]["samples"]] == built_ids
    verified = verify_release(folder, "1.0.0")
    assert verified.subsets["S"][0] == manifest["subsets"]["S"]["samples"][0]["id"]


def test_tampering_is_detected(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    folder = build_release(demo_spec, work, "1.0.0").folder
    data = folder / "M" / "test-00000-of-00001.parquet"
    rows = read_rows(data)
    rows[0]["summary"] = "a summary someone edited after the release"
    write_rows(data, rows)
    with pytest.raises(ManifestError, match=r"M/test-00000-of-00001.parquet: sha256 differs"):
        verify_release(folder)

    (folder / "S" / "test-00000-of-00001.parquet").unlink()
    (folder / "L" / "extra.parquet").write_bytes(b"not listed")
    with pytest.raises(ManifestError) as caught:
        verify_release(folder)
    message = str(caught.value)
    assert "S/test-00000-of-00001.parquet: missing" in message
    assert "L/extra.parquet: not listed in the manifest" in message

    with pytest.raises(ManifestError, match=r"manifest says version 1.0.0, expected 2.0.0"):
        verify_release(folder, "2.0.0")


def test_second_version_diff_shows_added_removed_changed(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    first = build_release(demo_spec, work, "1.0.0")
    assert first.diff["from"] is None and first.diff["totals"]["added"] == 26

    # Between versions: S loses a sample, an annotator revises one M summary, and a
    # rebuild yields one new L sample (a different chapter range of a book).
    s_rows = read_rows(work / "samples" / "S.parquet")
    removed = s_rows.pop(3)
    write_rows(work / "samples" / "S.parquet", s_rows)
    m_rows = read_rows(work / "samples" / "M.parquet")
    m_rows[1]["summary"] = "A revised reference summary (test fixture)."
    write_rows(work / "samples" / "M.parquet", m_rows)
    l_rows = read_rows(work / "samples" / "L.parquet")
    new = dict(l_rows[0], id=l_rows[0]["id"] + "-new", last_chapter=l_rows[0]["last_chapter"] + 1)
    write_rows(work / "samples" / "L.parquet", [*l_rows, new])

    second = build_release(demo_spec, work, "1.1.0")
    diff = json.loads((second.folder / "diff.json").read_text(encoding="utf-8"))
    assert diff["from"] == "1.0.0" and diff["to"] == "1.1.0"
    assert diff["subsets"]["S"] == {
        "added": [],
        "removed": [removed["id"]],
        "changed": [],
        "unchanged": 11,
    }
    assert diff["subsets"]["M"]["changed"] == [{"id": m_rows[1]["id"], "parts": ["summary"]}]
    assert diff["subsets"]["M"]["added"] == diff["subsets"]["M"]["removed"] == []
    assert diff["subsets"]["L"]["added"] == [new["id"]]
    assert diff["totals"] == {"added": 1, "removed": 1, "changed": 1}
    card = (second.folder / "README.md").read_text(encoding="utf-8")
    section = card.split("## Changes since the previous version")[1].split("\n## ")[0]
    assert "Compared with v1.0.0" in section
    assert "| S | 0 | 1 | 0 | 11 |" in section
    assert f"`{m_rows[1]['id']} (summary)`" in section
    # The earlier version is untouched and still verifies.
    assert verify_release(first.folder, "1.0.0").version == "1.0.0"


def test_changed_context_is_reported_as_context(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    build_release(demo_spec, work, "1.0.0")
    rows = read_rows(work / "samples" / "S.parquet")
    rows[0]["text"] = rows[0]["text"] + "\nA cleaning fix changed this text."
    write_rows(work / "samples" / "S.parquet", rows)
    diff = build_release(demo_spec, work, "1.0.1").diff
    assert diff["subsets"]["S"]["changed"] == [{"id": rows[0]["id"], "parts": ["context"]}]
