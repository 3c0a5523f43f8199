"""Typed records that are JSON files: key order, nested records, clear errors."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from typing_extensions import TypedDict

from lengthwise.errors import InputFileError
from lengthwise.json_records import JsonRecord
from lengthwise.spec import AuditConfig


class _Figures(TypedDict):
    n: int
    mean: float | None


@dataclass
class _Part:
    name: str
    figures: _Figures


@dataclass
class _Report(JsonRecord):
    title: str
    parts: list[_Part]
    settings: AuditConfig = field(default_factory=AuditConfig)
    notes: tuple[str, ...] = ()


def _report() -> _Report:
    return _Report("t", [_Part("a", {"n": 2, "mean": 1.5})], notes=("x",))


def test_json_keeps_field_order_and_converts_nested_records() -> None:
    data = _report().to_json()
    assert list(data) == ["title", "parts", "settings", "notes"]
    assert data["parts"] == [{"name": "a", "figures": {"n": 2, "mean": 1.5}}]
    assert data["settings"] == AuditConfig().model_dump(mode="json") and data["notes"] == ["x"]


def test_a_record_read_back_equals_the_one_written() -> None:
    report = _report()
    again = _Report.from_json({**report.to_json(), "seconds": 1.0}, "r.json")  # extra key ignored
    assert again == _Report("t", [_Part("a", {"n": 2, "mean": 1.5})], notes=("x",))
    assert isinstance(again.parts[0], _Part)


def test_a_file_of_the_wrong_shape_names_the_file_and_key() -> None:
    data = _report().to_json()
    data["parts"][0]["figures"]["n"] = "many"
    with pytest.raises(InputFileError, match=r"r\.json: parts\.0\.figures\.n"):
        _Report.from_json(data, "r.json")
