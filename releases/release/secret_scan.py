"""Secret scan: no credential from the environment, and nothing shaped like one, leaves.

Two checks over every file of a release folder (parquet cells are read decoded, since
compressed pages hide their bytes): the value of each environment variable whose name
looks secret, and common credential forms (`SECRET_PATTERNS`: Hugging Face, OpenAI,
GitHub, Slack, Google API keys, AWS access key ids and secret keys, JSON Web Tokens,
PEM private-key blocks; `CONTEXT_RULES`: an AWS secret key next to its key id, a Google
Cloud service-account key file). Each file or cell is scanned whole, so a form spread
over lines (a service-account JSON file) is found, and a plain file's finding names the
line it starts on. Findings name the file, the place and the variable or pattern, never
the value.

The two are not equal: an environment value in a release is always a leak, while a
pattern match in book text may be a string that only looks like a key. A pattern
finding carries the sample id, a digest of what matched and a masked snippet, so a
person can accept it by name (`release --accept-findings`, see secret_decisions.py).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
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

_AWS_SECRET = r"[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"  # 40 characters of base64
# A pattern with a group named "secret" masks and digests that group, not the whole match.
SECRET_PATTERNS: dict[str, re.Pattern[str]] = {
    "Hugging Face token": re.compile(r"\bhf_[A-Za-z0-9]{30,}"),
    "OpenAI-style API key": re.compile(r"\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
    # ghp_ (classic), gho_ (OAuth), ghu_/ghs_ (app user/server), ghr_ (refresh), github_pat_
    "GitHub token": re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"),
    "AWS access key id": re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    # aws_secret_access_key = ..., AWS_SECRET_ACCESS_KEY=..., "SecretAccessKey": "..."
    "AWS secret access key": re.compile(
        r"(?i:\b(?:aws_?)?secret_?access_?key|\baws_?secret_?key)[\"']?\s*[:=]\s*[\"']?"
        rf"(?P<secret>{_AWS_SECRET})"
    ),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}"),
    # bot, user, app-level and rotating (xoxe.) tokens, and incoming-webhook URLs
    "Slack token": re.compile(r"\b(?:xox[abeoprs]-|xoxe\.xox[bp]-|xapp-)[A-Za-z0-9-]{10,}"),
    "Slack webhook URL": re.compile(
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,}"
    ),
    "JSON Web Token": re.compile(
        r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}"
    ),
    # RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP ... and the bare PKCS#8 header
    "private key block": re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
}
# What each pattern's match must contain (case as written, or in the lower-cased text for
# "AWS secret access key"): most texts hold none, and a substring test is ~30x cheaper
# than a regex pass starting with \b.
_REQUIRED: dict[str, tuple[str, ...]] = {
    "Hugging Face token": ("hf_",),
    "OpenAI-style API key": ("sk-",),
    "GitHub token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "AWS access key id": ("AKIA", "ASIA"),
    "AWS secret access key": ("secretaccess", "secret_access", "secretkey", "secret_key"),
    "Google API key": ("AIza",),
    "Slack token": ("xox", "xapp-"),
    "Slack webhook URL": ("hooks.slack.com",),
    "JSON Web Token": ("eyJ",),
    "private key block": ("PRIVATE KEY",),
}
_LOWER_CASED = frozenset({"AWS secret access key"})
CONTEXT_WINDOW = 300  # characters around an AWS key id searched for its secret key
_BARE_AWS_SECRET = re.compile(rf"(?<![A-Za-z0-9/+=]){_AWS_SECRET}")
_AWS_KEY_ID = SECRET_PATTERNS["AWS access key id"]
_SERVICE_ACCOUNT = re.compile(r'"type"\s*:\s*"service_account"')
_PRIVATE_KEY_VALUE = re.compile(r'"private_key"\s*:\s*"(?P<secret>(?:[^"\\]|\\.){40,})"')


def _aws_secret_near_key_id(text: str) -> Iterator[tuple[int, int]]:
    """A bare 40-character key (mixed case, a digit or / +) near an AWS access key id:
    how keys are pasted (CSV downloads, `id secret` pairs, a credentials table)."""
    for key_id in _AWS_KEY_ID.finditer(text):
        low = max(0, key_id.start() - CONTEXT_WINDOW)
        for match in _BARE_AWS_SECRET.finditer(text, low, key_id.end() + CONTEXT_WINDOW):
            value = match.group()
            if (
                any(c.islower() for c in value)
                and any(c.isupper() for c in value)
                and any(c.isdigit() or c in "/+" for c in value)
            ):
                yield match.span()


def _service_account_key(text: str) -> Iterator[tuple[int, int]]:
    """A Google Cloud service-account key file: `"type": "service_account"` with a
    `"private_key"` value in the same object (within a few thousand characters)."""
    for kind in _SERVICE_ACCOUNT.finditer(text):
        low = max(0, kind.start() - 5000)
        key = _PRIVATE_KEY_VALUE.search(text, low, kind.end() + 5000)
        if key is not None:
            yield key.span("secret")


# Forms that need more than one match: label -> (what the text must contain, the rule
# giving the secret's spans).
CONTEXT_RULES: dict[str, tuple[tuple[str, ...], Callable[[str], Iterator[tuple[int, int]]]]] = {
    "AWS secret access key": (_REQUIRED["AWS access key id"], _aws_secret_near_key_id),
    "Google Cloud service-account key": (("service_account",), _service_account_key),
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
    start: int  # where in the scanned text (a plain file's line is counted from it)
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


def _occurrences(text: str, value: str) -> Iterator[int]:
    start = text.find(value)
    while start >= 0:
        yield start
        start = text.find(value, start + 1)


def pattern_spans(text: str) -> list[tuple[str, int, int]]:
    """(label, start, end) of each credential form found in `text` (the secret part)."""
    found: list[tuple[str, int, int]] = []
    for label, pattern in SECRET_PATTERNS.items():
        haystack = text.lower() if label in _LOWER_CASED else text
        if not any(part in haystack for part in _REQUIRED.get(label, ("",))):
            continue
        group = "secret" if "secret" in pattern.groupindex else 0
        found += [(label, *m.span(group)) for m in pattern.finditer(text)]
    for label, (required, rule) in CONTEXT_RULES.items():
        if any(part in text for part in required):
            found += [(label, start, end) for start, end in rule(text)]
    return found


def _scan_text(text: str, secrets: Mapping[str, str]) -> Iterator[_Hit]:
    leaked = [(n, at) for n, value in secrets.items() for at in _occurrences(text, value)]
    yield from (_Hit(f"{ENVIRONMENT} {name}", at) for name, at in leaked)
    found = pattern_spans(text)
    spans = sorted((start, end) for _, start, end in found)
    for label, start, end in found:
        # Text holding an environment value shows no snippet: it could show part of it.
        snippet = "" if leaked else _snippet(text, start, end, spans)
        yield _Hit(f"pattern: {label}", start, finding_digest(label, text[start:end]), snippet)


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
    # Scanned whole (a form or a value may span lines); a line is what ends with "\n".
    return [
        SecretFinding(relative, f"line {text.count(chr(10), 0, h.start) + 1}", h.what, None,
                      h.digest, h.snippet)
        for h in sorted(_scan_text(text, secrets), key=lambda h: h.start)
    ]  # fmt: skip


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
