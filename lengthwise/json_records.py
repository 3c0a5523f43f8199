"""Typed records that are also JSON files: reports, manifests, sections of them.

A record is a dataclass whose fields mirror its JSON object, in file order; nested parts
are dataclasses or TypedDicts (``typing_extensions.TypedDict``: pydantic needs it before
Python 3.12). `JsonRecord` gives it the two directions once:

- ``to_json()``: the JSON object, key order = field order (dataclasses become objects,
  tuples lists, pydantic models their ``model_dump(mode="json")``);
- ``from_json(data, where)``: the record, validated (pydantic) against the field types;
  a file that does not fit is an `InputFileError` naming `where` and the first bad key.
  Keys the record does not declare are ignored (the envelope of a report, older keys).
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, Self, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from lengthwise.errors import InputFileError

T = TypeVar("T")


_ADAPTERS: dict[object, TypeAdapter[Any]] = {}


def _adapter(cls: Any) -> TypeAdapter[Any]:
    """One TypeAdapter per type (building one is the slow part)."""
    if cls not in _ADAPTERS:
        _ADAPTERS[cls] = TypeAdapter(cls)
    return _ADAPTERS[cls]


class JsonRecord:
    """Mixin for dataclasses written to and read from JSON (see the module docstring)."""

    def to_json(self) -> dict[str, Any]:
        value = plain_json(self)
        assert isinstance(value, dict), f"{type(self).__name__} is not a dataclass"
        return value

    @classmethod
    def from_json(cls, data: object, where: str) -> Self:
        return validate_json(cls, data, where)


def validate_json(cls: type[T], data: object, where: str) -> T:
    """`data` (parsed JSON) as a `cls`: a dataclass, TypedDict or list of them."""
    try:
        value: T = _adapter(cls).validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise InputFileError(f"{where}: {key}: {first['msg']}") from None
    return value


def plain_json(value: object) -> object:
    """`value` as plain JSON data: dataclasses (fields in order), models, dicts, sequences."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {key: plain_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain_json(item) for item in value]
    return value
