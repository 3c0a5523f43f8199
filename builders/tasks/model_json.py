"""Reading JSON out of a model's reply, as models actually write it.

Models wrap JSON in code fences, put a sentence before or after it, use Chinese or
single quotes, or leave a trailing comma. `json_value` finds the first complete JSON
array or object in the reply and tolerates those habits; it returns None when nothing
readable is there (the caller counts that reply as unreadable; it never crashes).
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*([\]}])")
_CURLY_QUOTES = str.maketrans({"“": '"', "”": '"', "＂": '"'})
_OPENERS = {"[": "]", "{": "}"}


def json_value(reply: str, want: type = object) -> Any | None:
    """The first JSON value of type `want` (list or dict) in `reply`, or None."""
    texts = [m.group(1) for m in _FENCE.finditer(reply)] + [reply]
    for text in texts:
        for candidate in _bracketed(text):
            value = _loads(candidate)
            if value is not None and isinstance(value, want):
                return value
    return None


def _bracketed(text: str) -> list[str]:
    """Substrings from each opening bracket to its balanced closing one (quotes respected)."""
    found: list[str] = []
    for start, char in enumerate(text):
        if char not in _OPENERS:
            continue
        end = _closing(text, start)
        if end is not None:
            found.append(text[start : end + 1])
    return found


def _closing(text: str, start: int) -> int | None:
    stack: list[str] = []
    quote: str | None = None
    escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if quote is not None:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = None
            continue
        if char in "\"'":
            quote = char
        elif char in _OPENERS:
            stack.append(_OPENERS[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                return index
    return None


def _loads(candidate: str) -> Any | None:
    for text in (candidate, _TRAILING_COMMA.sub(r"\1", candidate.translate(_CURLY_QUOTES))):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            pass
        try:  # single-quoted lists and dicts, as Python would print them
            return ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            pass
    return None


def string_list(value: Any) -> list[str] | None:
    """`value` as a list of non-empty stripped strings (objects with a "name" count too)."""
    if isinstance(value, dict):
        lists = [v for v in value.values() if isinstance(v, list)]
        if len(lists) != 1:
            return None
        value = lists[0]
    if not isinstance(value, list):
        return None
    out: list[str] = []
    for item in value:
        if isinstance(item, dict):
            item = item.get("name")
        if not isinstance(item, str):
            return None
        if item.strip():
            out.append(item.strip())
    return out
