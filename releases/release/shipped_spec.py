"""The spec file as it ships in a release, and the release folder's file modes.

A release is published: its `spec.toml` must not carry the builder's local paths (user
names, home folders), and its `version` is the release's. The text is rewritten line by
line so the author's comments and layout survive; the canonical sha256 in
`manifest.json` stays that of the spec as built (the header comment says so).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

LOCAL = "<local>"
# A quoted absolute local path ("/home/u/books", "~/books", "hf-file:/abs/tok.json"):
# an optional `kind:` prefix, then "/" or "~/" not followed by another "/" (a URL).
_ABSOLUTE = re.compile(r"""(["'])([A-Za-z0-9_.+-]+:)?((?:/|~/)(?!/)[^"'\s]*)\1""")
_TOP_VERSION = re.compile(r"""^(\s*version\s*=\s*)(["'])([^"']*)\2(.*)$""")
_TABLE = re.compile(r"^\s*\[")


def _local_name(match: re.Match[str]) -> str:
    quote, prefix, path = match.group(1), match.group(2) or "", match.group(3)
    name = Path(path.rstrip("/")).name
    return f"{quote}{prefix}{LOCAL}/{name}{quote}" if name else f"{quote}{prefix}{LOCAL}{quote}"


def shipped_spec_text(text: str, version: str) -> str:
    """`text` with absolute local paths replaced by `<local>/NAME` and the top-level
    `version` set to the release's `version`."""
    lines, in_table, built_as = [], False, None
    for line in text.splitlines():
        in_table = in_table or bool(_TABLE.match(line))
        top = None if in_table else _TOP_VERSION.match(line)
        if top is not None:
            built_as = top.group(3)
            line = f"{top.group(1)}{top.group(2)}{version}{top.group(2)}{top.group(4)}"
        lines.append(_ABSOLUTE.sub(_local_name, line))
    note = (
        f"# Shipped with release {version}: absolute local paths are shown as {LOCAL}/NAME"
        + (f"; built from spec version {built_as}" if built_as not in (None, version) else "")
        + ". manifest.json's spec sha256 is of the spec as built.\n"
    )
    if built_as is None:  # the spec relied on the default version: state the release's
        first_table = next((i for i, ln in enumerate(lines) if _TABLE.match(ln)), len(lines))
        lines.insert(first_table, f'version = "{version}"')
    return note + "\n".join(lines) + "\n"


def make_publishable(folder: Path) -> None:
    """Files 0644 and folders 0755 (temporary files and folders are created private)."""
    os.chmod(folder, 0o755)
    for path in folder.rglob("*"):
        if not path.is_symlink():
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
