"""The audit inside `lengthwise build`: records, max_findings drop/refuse, the audit command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from lengthwise.builders.demo_corpus import write_demo_corpus, write_demo_spec
from lengthwise.cli import main

NOISY_BOOK = "en_synthetic_1"
NOISE = "Read more chapters at www.example.com"


def noisy_demo(root: Path, audit_section: str = "") -> Path:
    """The demo corpus with an ad line after every chapter heading of one book."""
    write_demo_corpus(root / "corpus")
    book = root / "corpus" / f"{NOISY_BOOK}.txt"
    text = book.read_text(encoding="utf-8")
    book.write_text(
        re.sub(r"(\n\nCHAPTER [IVXL]+\. [^\n]+\n\n)", rf"\1{NOISE}\n\n", text), encoding="utf-8"
    )
    spec = write_demo_spec(root)
    # Cleaning would learn the repeated line as boilerplate: switched off, so the audit
    # sees noise that cleaning missed.
    no_learning = "\n[cleaning]\nlearned_boilerplate = false\n"
    spec.write_text(
        spec.read_text(encoding="utf-8") + no_learning + audit_section, encoding="utf-8"
    )
    return spec


def sample_ids(work: Path) -> list[str]:
    return [
        str(r["id"]) for p in sorted((work / "samples").glob("*.parquet"))
        for r in pq.read_table(p).to_pylist()
    ]  # fmt: skip


def audit_records(work: Path) -> list[dict[str, object]]:
    lines = (work / "audit" / "samples.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_without_a_limit_every_sample_is_audited_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = noisy_demo(tmp_path)
    assert main(["build", str(spec), "--work", str(tmp_path / "w"), "--quiet"]) == 0
    out = capsys.readouterr().out
    records = audit_records(tmp_path / "w")
    assert sorted(str(r["id"]) for r in records) == sorted(sample_ids(tmp_path / "w"))
    noisy = [r for r in records if str(r["book_id"]) == NOISY_BOOK]
    assert noisy and all(r["counts"]["url"] >= 1 for r in noisy)  # type: ignore[index]
    assert all(r["total"] == 0 for r in records if r not in noisy)
    share = f"{len(noisy)} of {len(records)} samples"
    assert share in out
    report_md = (tmp_path / "w" / "build_report.md").read_text(encoding="utf-8")
    assert share in report_md and "www.example.com" in report_md

    assert main(["audit", str(tmp_path / "w")]) == 0
    table = capsys.readouterr().out
    assert share in table and f"| {NOISY_BOOK}:" in table
    assert "⟦www.example.com⟧" in table


def test_samples_over_max_findings_are_dropped_and_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = noisy_demo(tmp_path, '\n[audit]\nmax_findings = 0\naction = "drop"\n')
    work = tmp_path / "w"
    assert main(["build", str(spec), "--work", str(work), "--quiet"]) == 0
    out = capsys.readouterr().out
    dropped = [r for r in audit_records(work) if r["dropped"]]
    assert dropped and all(str(r["book_id"]) == NOISY_BOOK for r in dropped)
    assert not any(i.startswith(NOISY_BOOK) for i in sample_ids(work))
    for record in dropped:
        assert f"audit dropped {record['subset']} {record['id']}" in out
    report = json.loads((work / "build_report.json").read_text(encoding="utf-8"))
    for name, sub in report["subsets"].items():
        rows = pq.read_table(work / "samples" / f"{name}.parquet").num_rows
        assert sub["selection"]["count"] == rows  # figures describe what is left
    assert "Dropped by the audit" in (work / "build_report.md").read_text(encoding="utf-8")


def test_refuse_stops_the_build_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = noisy_demo(tmp_path, '\n[audit]\nmax_findings = 0\naction = "refuse"\n')
    work = tmp_path / "w"
    assert main(["build", str(spec), "--work", str(work), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "max_findings = 0" in err and NOISY_BOOK in err
    assert not (work / "build_report.json").exists()


def test_audit_spec_section_is_validated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = noisy_demo(tmp_path, '\n[audit]\nmax_findings = 0\naction = "delete"\n')
    assert main(["build", str(spec), "--work", str(tmp_path / "w")]) == 2
    assert "audit.action" in capsys.readouterr().err
    spec.write_text(spec.read_text().replace('action = "delete"', "max_finding = 1"))
    assert main(["build", str(spec), "--work", str(tmp_path / "w")]) == 2
    assert "audit.max_finding: unknown key" in capsys.readouterr().err


def test_audit_command_needs_a_built_work_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(tmp_path / "missing")]) == 2
    assert "no such work directory" in capsys.readouterr().err
    assert main(["audit", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "not a built work directory" in err
