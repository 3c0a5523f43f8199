"""One validator for every name that becomes part of a path.

Subset, task and length names, spec names, release config names, run names and Hub
repository ids end up as folder or file names (``WORK/samples/<subset>.parquet``,
``releases/v1.0.0/<config>/``, ``DIR/datasets/ORG/NAME``). A name such as ``../../evil``
or ``/tmp/x`` would write outside the work directory, so every such value is checked
here, once: at spec load (the `Name`, `TaskName` and `RepoId` annotated types below, used
by the pydantic models) and on every command-line value (`check_name`,
`check_repo_id`, or the argparse types `name_arg` / `repo_id_arg`).

A name is one path component: a letter or digit, then letters, digits, ``.``, ``_`` or
``-``, at most `MAX_NAME_CHARS` characters. That excludes ``/``, ``\\``, ``..`` as a
whole name, a leading dot (hidden files), spaces, newlines and other control characters.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Annotated

from pydantic import AfterValidator

from lengthwise.errors import UserError

__all__ = [
    "MAX_NAME_CHARS",
    "NAME_PATTERN",
    "TASK_NAME_PATTERN",
    "VERSION_PATTERN",
    "InvalidNameError",
    "Name",
    "RepoId",
    "TaskName",
    "check_name",
    "check_repo_id",
    "check_task_name",
    "name_arg",
    "parse_version",
    "repo_id_arg",
    "version_arg",
]

MAX_NAME_CHARS = 100  # well under every file system's 255-byte component limit
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
# Task names are joined to length names with '-' in release config names
# ("ordering-8k"), so they may not contain one themselves.
TASK_NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_]*$")

# A release version X.Y.Z (a leading 'v' allowed): WORK/releases/vX.Y.Z and the git tag.
VERSION_PATTERN = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")

_NAME_RULE = "a letter or digit, then letters, digits, '.', '_' or '-'"
_TASK_RULE = "a letter or digit, then letters, digits or '_' (no '-')"


class InvalidNameError(UserError):
    """A name that would become a path component is not a plain one."""


def check_name(value: str, what: str = "name", pattern: re.Pattern[str] = NAME_PATTERN) -> str:
    """`value` if it is one plain path component, else `InvalidNameError` naming `what`."""
    rule = _TASK_RULE if pattern is TASK_NAME_PATTERN else _NAME_RULE
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise InvalidNameError(f"{what} {value!r} is not a plain name (use {rule})")
    if len(value) > MAX_NAME_CHARS:
        raise InvalidNameError(
            f"{what} {value[:20]!r}... is longer than {MAX_NAME_CHARS} characters"
        )
    return value


def check_task_name(value: str, what: str = "task name") -> str:
    """A task family instance's name: like `check_name`, without '-' or '.'."""
    return check_name(value, what, TASK_NAME_PATTERN)


def check_repo_id(value: str, what: str = "repository id") -> str:
    """A Hub repository id ``ORG/NAME``: exactly two plain names (no '..', no absolute path)."""
    org, slash, name = value.partition("/") if isinstance(value, str) else ("", "", "")
    if not slash or "/" in name:
        raise InvalidNameError(f"{what} {value!r} is not of the form ORG/NAME")
    try:
        check_name(org, f"{what} {value!r}: organisation")
        check_name(name, f"{what} {value!r}: name")
    except InvalidNameError as exc:
        raise InvalidNameError(str(exc)) from None
    return value


def parse_version(text: str, what: str = "version") -> tuple[int, int, int]:
    """'1.2.3' or 'v1.2.3' -> (1, 2, 3); anything else is an `InvalidNameError`."""
    match = VERSION_PATTERN.match(text.removeprefix("v")) if isinstance(text, str) else None
    if not match:
        raise InvalidNameError(f"{what} {text!r} is not of the form X.Y.Z (e.g. 1.0.0)")
    major, minor, patch = (int(part) for part in match.groups())
    return major, minor, patch


def _as_name(value: str) -> str:
    return check_name(value)


def _as_task_name(value: str) -> str:
    return check_task_name(value)


def _as_repo_id(value: str) -> str:
    return check_repo_id(value)


# Pydantic field types: a model field typed `Name` rejects anything `check_name` refuses,
# and the spec loaders report it as ``FILE: subsets.0.name: name '../x' is not ...``.
Name = Annotated[str, AfterValidator(_as_name)]
TaskName = Annotated[str, AfterValidator(_as_task_name)]
RepoId = Annotated[str, AfterValidator(_as_repo_id)]

# The validators behind the types, for tests that check every name field uses one.
NAME_VALIDATORS = (_as_name, _as_task_name, _as_repo_id)


def name_arg(what: str) -> Callable[[str], str]:
    """An argparse ``type=`` for a command-line name (`check_name`; the error names `what`)."""

    def parse(value: str) -> str:
        try:
            return check_name(value, what)
        except InvalidNameError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = what  # argparse names the type in some messages
    return parse


def version_arg(value: str) -> str:
    """An argparse ``type=`` for a release version X.Y.Z (or vX.Y.Z), kept as given."""
    try:
        parse_version(value)
    except InvalidNameError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def repo_id_arg(value: str) -> str:
    """An argparse ``type=`` for ``ORG/NAME``."""
    try:
        return check_repo_id(value)
    except InvalidNameError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
