"""build_report.json as a typed record: what a rerun and the release read back is what
the build computed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from lengthwise.builders.build import run_build
from lengthwise.builders.build_record import BuildReport, read_build_report
from lengthwise.spec import load_spec
from lengthwise.workdir import WorkDir


def _untimed(report: dict[str, Any]) -> dict[str, Any]:
    stages = {name: {**s, "seconds": 0} for name, s in report["stages"].items()}
    return {**report, "stages": stages}


def test_report_read_back_equals_the_computed_one(
    demo_built: tuple[Path, Path], tmp_path: Path
) -> None:
    spec_path, shared = demo_built
    work = tmp_path / "work"
    shutil.copytree(shared, work)
    spec = load_spec(spec_path)
    fresh = run_build(spec, tmp_path / "fresh", progress=False, workers=1)
    again = run_build(spec, work, progress=False, workers=1)  # up to date: read back
    assert again.up_to_date and not fresh.up_to_date
    assert _untimed(again.report.to_json()) == _untimed(fresh.report.to_json())
    written = read_build_report(WorkDir(work))
    assert written.body == again.report and written.envelope.fingerprint
    on_disk = json.loads((work / "build_report.json").read_text(encoding="utf-8"))
    body = {k: v for k, v in on_disk.items() if k not in ("tool_version", "fingerprint", "seconds")}
    assert body == again.report.to_json()  # the file is the record, key for key
    assert BuildReport.from_json(on_disk, "x").subsets["S"].selection.count > 0
