"""`lengthwise release --long-context-check`: the truncation verdict in the dataset card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from release_helpers import annotate_all

from lengthwise.errors import InputFileError
from lengthwise.releases.release import build_release
from lengthwise.releases.release.layout import release_folder
from lengthwise.spec import Spec


def _check(path: Path, m_drop: float) -> Path:
    """A truncation table as `lengthwise analyse truncation` writes it."""

    def entry(drop: float) -> dict[str, object]:
        return {
            "n": 4,
            "full_fraction": 1.0,
            "rows": [
                {"fraction": 1.0, "mean": 20.0, "drop": 0.0, "relative_drop": 0.0},
                {"fraction": 0.5, "mean": 20.0 * (1 - drop), "drop": 20 * drop,
                 "relative_drop": drop},
            ],
            "insensitive": drop < 0.1,
        }  # fmt: skip

    table = {
        "analysis": "truncation",
        "notes": [],
        "plots": [],
        "fractions": {"m (openai)": 1.0, "m-half (openai)": 0.5},
        "threshold": 0.1,
        "tasks": {"summarization": {"S": entry(0.02), "M": entry(m_drop)}},
    }
    path.write_text(json.dumps(table), encoding="utf-8")
    return path


def test_card_says_which_configs_need_the_context(
    demo_built: tuple[Path, Path], demo_spec: Spec, work: Path, tmp_path: Path
) -> None:
    annotate_all(work, demo_spec)
    check = _check(tmp_path / "truncation.json", m_drop=0.4)
    result = build_release(
        demo_spec, work, "1.0.0", spec_path=demo_built[0], long_context_check=check
    )
    card = (result.folder / "README.md").read_text(encoding="utf-8")
    section = card.split("## Long-context check", 1)[1].split("\n## ", 1)[0]
    assert "| summarization | S | 4 | 20.00 | 19.60 | 50% | 2% | **does not measure" in section
    assert "| summarization | M | 4 | 20.00 | 12.00 | 50% | 40% | needs the context |" in section
    assert "**Warning:** summarization S:" in section
    assert json.loads((result.folder / "long_context_check.json").read_text()) == json.loads(
        check.read_text()
    )
    assert "long_context_check.json" in result.manifest["files"]


def test_a_wrong_check_file_is_refused_before_anything_is_written(
    demo_spec: Spec, work: Path, tmp_path: Path
) -> None:
    annotate_all(work, demo_spec)
    bad = tmp_path / "other.json"
    bad.write_text(json.dumps({"analysis": "medoid", "tasks": {}}), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"other\.json: analysis: not a truncation table"):
        build_release(demo_spec, work, "1.0.0", long_context_check=bad)
    broken = _check(tmp_path / "broken.json", m_drop=0.4)
    broken.write_text(broken.read_text().replace('"n": 4', '"n": "four"'), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"tasks\.summarization\.M\.n: expected a number"):
        build_release(demo_spec, work, "1.0.0", long_context_check=broken)
    assert not release_folder(work, "1.0.0").root.exists()
