"""Secret scan: no credential from the environment, and nothing shaped like one, leaves.

Two checks over every file of a release folder (parquet cells are read decoded, since
compressed pages hide their bytes): the value of each environment variable whose name
looks secret, and common credential patterns (Hugging Face, OpenAI, GitHub, AWS, ...).
Findings name the file, the place and the variable or pattern, never the value.

The two are not equal: an environment value in a release is always a leak, while a
pattern match in book text may be a string that only looks like a key. A pattern
finding carries the sample id, a digest of what matched and a masked snippet, so a
person can accept it by name (`release --accept-findings`, see secret_decisions.py).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# HF_TOKEN, OPENAI_API_KEY, LABEL_STUDIO_USER_TOKEN, LABEL_STUDIO_PASSWORD, AWS_SECRET_...;
# plain settings (LABEL_STUDIO_HOST, ..._URL) are not secrets and may legitimately appear.
SECRET_NAME = re.compile(
    r"TOKEN|KEY|SECRET|PASSW|CREDENTIAL|AUTH|PRIVATE|COOKIE|SESSION", re.IGNORECASE
)
MIN_SECRET_LENGTH = 8  # shorter values ("1", "true") would match ordinary text
_HARMLESS_VALUES = frozenset({"true", "false", "none", "null", "disabled", "enabled"})

SECRET_PATTERNS: dict[str, re.Pattern[str]] = {
    "Hugging Face token": re.compile(r"\bhf_[A-Za-z0-9]{30,}"),
    "OpenAI-style API key": re.compile(r"\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
    "GitHub token": re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    "AWS access key id": re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}"),
    "Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    "private key block": re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
}


ENVIRONMENT = "environment variable"
SNIPPET_CONTEXT = 24  # characters of text shown each side of a masked match


@dataclass(frozen=True)
class SecretFinding:
    file: str
    where: str  # "line 12", "column summary, row <id>"
    what: str  # "environment variable HF_TOKEN" or "pattern: Hugging Face token"
    sample_id: str | None = None  # the row's id, for a finding in a data file
    digest: str | None = None  # pattern findings: names what matched without showing it
    snippet: str = ""  # pattern findings: the match masked, with some text around it

    def __str__(self) -> str:
        return f"{self.file} ({self.where}): {self.what}"

    @property
    def from_environment(self) -> bool:
        return self.what.startswith(ENVIRONMENT)

    @property
    def key(self) -> str:
        """What an acceptance names: the sample id, or the file outside the data."""
        return self.sample_id if self.sample_id is not None else self.file


def finding_digest(label: str, matched: str) -> str:
    """A short, stable name for one matched string (the same text in a rebuild, same name)."""
    return hashlib.sha256(f"{label}\0{matched}".encode()).hexdigest()[:16]


def mask(matched: str) -> str:
    """The first four characters and the length: enough to recognise, not to use."""
    return f"{matched[:4]}\u2026[{len(matched)} chars]"


def secret_values(
    environ: Mapping[str, str] | None = None, extra_names: Iterable[str] = ()
) -> dict[str, str]:
    """Variable name -> value for the environment variables that look like secrets."""
    env = os.environ if environ is None else environ
    names = set(extra_names)
    found: dict[str, str] = {}
    for name, value in env.items():
        if not (SECRET_NAME.search(name) or name in names):
            continue
        stripped = value.strip()
        if len(stripped) < MIN_SECRET_LENGTH or stripped.lower() in _HARMLESS_VALUES:
            continue
        found[name] = stripped
    return found


@dataclass(frozen=True)
class _Hit:
    what: str
    digest: str | None = None
    snippet: str = ""


def _snippet(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> str:
    """Text around [start, end) with every pattern match in it masked."""
    low, high = max(0, start - SNIPPET_CONTEXT), min(len(text), end + SNIPPET_CONTEXT)
    pieces, position = [], low
    for span_start, span_end in spans:
        if span_end <= low or span_start >= high:
            continue
        pieces += [text[position : max(span_start, position)], mask(text[span_start:span_end])]
        position = max(position, span_end)
    pieces.append(text[position:high])
    return " ".join("".join(pieces).split())


def _scan_text(text: str, secrets: Mapping[str, str]) -> Iterator[_Hit]:
    leaked = [name for name, value in secrets.items() if value in text]
    yield from (_Hit(f"{ENVIRONMENT} {name}") for name in leaked)
    matches = [(label, m) for label, p in SECRET_PATTERNS.items() for m in p.finditer(text)]
    spans = sorted(m.span() for _, m in matches)
    for label, match in matches:
        # Text holding an environment value shows no snippet: it could show part of it.
        snippet = "" if leaked else _snippet(text, match.start(), match.end(), spans)
        yield _Hit(f"pattern: {label}", finding_digest(label, match.group()), snippet)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)


def _scan_parquet(path: Path, relative: str, secrets: Mapping[str, str]) -> list[SecretFinding]:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    ids = table.column("id").to_pylist() if "id" in table.column_names else None
    findings: list[SecretFinding] = []
    for column in table.column_names:
        for row, cell in enumerate(table.column(column).to_pylist()):
            sample = str(ids[row]) if ids is not None else None
            where = f"column {column}, row {sample if sample is not None else row}"
            for text in _strings(cell):
                findings += [
                    SecretFinding(relative, where, h.what, sample, h.digest, h.snippet)
                    for h in _scan_text(text, secrets)
                ]
    # Schema and key-value metadata are plain bytes in the footer.
    metadata = str(table.schema) + str(table.schema.metadata or "")
    findings += [
        SecretFinding(relative, "parquet metadata", h.what, None, h.digest, h.snippet)
        for h in _scan_text(metadata, secrets)
    ]
    return findings


def _scan_plain(path: Path, relative: str, secrets: Mapping[str, str]) -> list[SecretFinding]:
    text = path.read_bytes().decode("utf-8", errors="replace")
    findings = []
    for number, line in enumerate(text.splitlines(), start=1):
        findings += [
            SecretFinding(relative, f"line {number}", h.what, None, h.digest, h.snippet)
            for h in _scan_text(line, secrets)
        ]
    # A multi-line value (a PEM key in a variable) cannot be found line by line.
    multiline = {name: value for name, value in secrets.items() if "\n" in value}
    for name, value in multiline.items():
        if value in text:
            findings.append(SecretFinding(relative, "file", f"{ENVIRONMENT} {name}"))
    return findings


def _scan_raw_bytes(path: Path, relative: str, secrets: Mapping[str, str]) -> list[SecretFinding]:
    data = path.read_bytes()
    return [
        SecretFinding(relative, "raw bytes", f"{ENVIRONMENT} {name}")
        for name, value in secrets.items()
        if value.encode("utf-8") in data
    ]


def scan_folder(
    folder: Path,
    environ: Mapping[str, str] | None = None,
    extra_names: Iterable[str] = (),
) -> list[SecretFinding]:
    """Every place in `folder` where a secret value or a credential pattern occurs.

    `extra_names` are variables to treat as secret whatever their name (the spec's
    `api_key_env` settings).
    """
    secrets = secret_values(environ, extra_names)
    findings: list[SecretFinding] = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder).as_posix()
        if path.suffix == ".parquet":
            # Cells decoded, plus raw bytes for anything stored outside the cells.
            findings += _scan_parquet(path, relative, secrets)
            findings += _scan_raw_bytes(path, relative, secrets)
        else:
            findings += _scan_plain(path, relative, secrets)
    return list(dict.fromkeys(findings))
