"""`lengthwise annotate import SPEC FILE`: summaries written elsewhere, provenance kept."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from lengthwise.cli import main
from lengthwise.releases.release import build_release
from lengthwise.spec import load_spec


@pytest.fixture
def work(demo_built: tuple[Path, Path], tmp_path: Path) -> Path:
    target = tmp_path / "work"
    shutil.copytree(demo_built[1], target, ignore=shutil.ignore_patterns("cache"))
    return target


def _ids(work: Path) -> list[str]:
    return [
        str(i)
        for path in sorted((work / "samples").glob("*.parquet"))
        for i in pq.read_table(path, columns=["id"]).column("id").to_pylist()
    ]


def _annotated(work: Path) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for path in sorted((work / "samples_annotated").glob("*.parquet")):
        rows += pq.read_table(path).to_pylist()
    return rows


def test_jsonl_import_is_recorded_as_imported_and_the_card_counts_it(
    demo_built: tuple[Path, Path], work: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = _ids(work)
    file = tmp_path / "written-elsewhere.jsonl"
    file.write_text(
        "".join(json.dumps({"id": i, "summary": f"A summary of {i}."}) + "\n" for i in ids)
    )
    spec_path = demo_built[0]
    assert main(["annotate", "import", str(spec_path), str(file), "--work", str(work)]) == 0
    assert f"final summaries: {len(ids)} of {len(ids)} samples" in capsys.readouterr().out
    rows = {r["id"]: r for r in _annotated(work)}
    assert rows[ids[0]]["summary"] == f"A summary of {ids[0]}."
    assert {r["summary_source"] for r in rows.values()} == {"import"}
    assert {r["reference_origin"] for r in rows.values()} == {"imported"}
    assert rows[ids[0]]["review_note"] == "imported from written-elsewhere.jsonl:1"
    # A later review keeps the imports (they are stored, not only merged once).
    assert main(["annotate", "review", str(spec_path), "--work", str(work)]) == 0
    assert {r["summary_source"] for r in _annotated(work)} == {"import"}
    card = (build_release(load_spec(spec_path), work, "1.0.0").folder / "README.md").read_text()
    assert f"Reference summaries ({len(ids)}): {len(ids)} imported" in card
    assert "Synthetic references" not in card


def test_csv_import_of_some_samples(
    demo_built: tuple[Path, Path], work: Path, tmp_path: Path
) -> None:
    ids = _ids(work)[:3]
    file = tmp_path / "sums.csv"
    with file.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "summary", "author"])
        for i in ids:
            writer.writerow([i, f"Line one of {i},\nline two", "li"])
    assert main(["annotate", "import", str(demo_built[0]), str(file), "--work", str(work)]) == 0
    imported = {r["id"]: r["summary"] for r in _annotated(work) if r["summary"] is not None}
    assert imported == {i: f"Line one of {i},\nline two" for i in ids}


@pytest.mark.parametrize(
    ("name", "text", "where", "says"),
    [
        ("bad.csv", "id,text\nx,y\n", "bad.csv:1", "missing column(s) summary"),
        ("bad.csv", "id,summary\n{first},ok\n{second},\"two\nlines\"\nnope,z\n", "bad.csv:5",
         "no sample 'nope'"),
        ("bad.jsonl", '{{"id": "{first}", "summary": "ok"}}\n{{"id": "{first}"}}\n', "bad.jsonl:2",
         "missing summary"),
        ("bad.jsonl", '{{"id": "{first}", "summary": "a"}}\n\n'
         '{{"id": "{first}", "summary": "b"}}\n', "bad.jsonl:3", "given twice (also line 1)"),
    ],
)  # fmt: skip
def test_bad_files_stop_with_file_and_line_and_write_nothing(
    demo_built: tuple[Path, Path],
    work: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    text: str,
    where: str,
    says: str,
) -> None:
    file = tmp_path / name
    ids = _ids(work)
    file.write_text(text.format(first=ids[0], second=ids[1]))
    before = sorted(p.relative_to(work) for p in work.rglob("*"))
    assert main(["annotate", "import", str(demo_built[0]), str(file), "--work", str(work)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{tmp_path / where}:" in err[0] and says in err[0], err
    assert sorted(p.relative_to(work) for p in work.rglob("*")) == before
