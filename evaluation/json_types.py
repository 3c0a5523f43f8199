"""JSON values as the evaluator reads and writes them (results.json, run.json, engine overrides).

`JsonValue` is pydantic's recursive JSON type: strings, numbers, booleans, None, lists
and objects of those. A field typed with it is validated as JSON and checked by mypy,
where `Any` would let anything through.
"""

from __future__ import annotations

from pydantic import JsonValue

JsonObject = dict[str, JsonValue]

__all__ = ["JsonObject", "JsonValue"]
