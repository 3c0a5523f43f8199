"""Every example spec users copy must validate."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.spec import load_spec

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.toml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_spec_validates(path: Path) -> None:
    spec = load_spec(path)
    assert spec.subsets, f"{path.name} defines no subsets"
    for source in spec.sources:
        if source.kind == "files" and "shared/corpora" in source.path:
            assert spec.resolve(source.path).name in {
                "zh_simplified_four_classics",
                "en_pg_stripped",
            }


def test_examples_exist() -> None:
    assert {p.name for p in EXAMPLES} >= {"zh-classics.toml", "en-gutenberg.toml", "cnnsum.toml"}
