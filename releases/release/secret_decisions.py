"""Which secret-scan findings a person accepted, and how a refusal tells them what to accept.

An environment value found in a release always blocks. A pattern match (`sk-...`,
`hf_...`) in book text may be harmless, so it blocks until a person names it in an
accept file passed to `release --accept-findings FILE`: one finding per line,

    SAMPLE_ID<TAB>DIGEST[<TAB>note]

(any run of spaces works too: terminals turn copied tabs into spaces; `#` starts a
comment line). A finding outside the data files (the card) is named by its file
instead of a sample id. The refusal prints these lines ready to copy, and the
accepted ones are recorded in manifest.json, where `publish` reads them again.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Final

from lengthwise.releases.release.layout import ReleaseError
from lengthwise.releases.release.manifest_record import ManifestJson, SecretScanJson
from lengthwise.releases.release.secret_scan import SecretFinding

Acceptance = tuple[str, str]  # (sample id or file, finding digest)
MANIFEST_KEY: Final = "secret_scan"
_SHOWN = 20


class AcceptFileError(ReleaseError):
    """The accept file cannot be read or a line is not `SAMPLE_ID<TAB>DIGEST`."""


def read_accept_file(path: Path) -> set[Acceptance]:
    """The (key, digest) pairs named in an accept file; errors name the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AcceptFileError(f"{path}: cannot read the accept file: {exc}") from None
    accepted: set[Acceptance] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split(None, 2)
        if len(fields) < 2 or not _is_digest(fields[1]):
            raise AcceptFileError(
                f"{path}, line {number}: expected SAMPLE_ID<TAB>DIGEST (16 hex digits, as "
                f"the refused release printed it), got {line.strip()[:80]!r}"
            )
        accepted.add((fields[0], fields[1].lower()))
    return accepted


def _is_digest(text: str) -> bool:
    return len(text) == 16 and all(c in "0123456789abcdefABCDEF" for c in text)


def acceptance_line(finding: SecretFinding) -> str:
    return f"{finding.key}\t{finding.digest}\t{finding.what.removeprefix('pattern: ')}"


def is_accepted(finding: SecretFinding, accepted: Collection[Acceptance]) -> bool:
    """Only pattern findings can be accepted; an environment value never can."""
    if finding.from_environment or finding.digest is None:
        return False
    return (finding.key, finding.digest) in accepted


def unmatched(findings: Iterable[SecretFinding], accepted: Collection[Acceptance]) -> list[str]:
    """Accepted entries that name no current finding (stale after a rebuild, or a typo)."""
    present = {(f.key, f.digest) for f in findings if f.digest is not None}
    return sorted(f"{key}\t{digest}" for key, digest in accepted if (key, digest) not in present)


def acceptance_lines(blocking: list[SecretFinding]) -> tuple[str, ...]:
    """The ready-to-copy accept-file lines of the pattern matches (none for env leaks)."""
    return tuple(sorted({acceptance_line(f) for f in blocking if not f.from_environment}))


def refusal_message(folder: Path, blocking: list[SecretFinding]) -> str:
    """Environment leaks first (no way out), then pattern matches with ready-to-copy lines
    (`acceptance_lines`, which the command line prints without its error prefix)."""
    leaks = [f for f in blocking if f.from_environment]
    patterns = [f for f in blocking if not f.from_environment]
    parts = [f"{folder}: secret scan failed, nothing may leave this machine"]
    if leaks:
        parts.append(
            "environment values found (values are not shown; remove them from the "
            "data, this cannot be accepted):\n  " + _listed([str(f) for f in leaks])
        )
    if patterns:
        shown = [f'{f}: "{f.snippet}"' if f.snippet else str(f) for f in patterns]
        parts.append(
            "text shaped like a credential (not an environment value):\n  "
            + _listed(shown)
            + "\nif these are not credentials, save these lines in a file and rerun with "
            "`--accept-findings FILE` (the decision is recorded in manifest.json):\n"
            + "\n".join(acceptance_lines(patterns))
        )
    return "\n".join(parts)


def _listed(items: list[str]) -> str:
    more = [f"... and {len(items) - _SHOWN} more"] if len(items) > _SHOWN else []
    return "\n  ".join(items[:_SHOWN] + more)


def manifest_record(accepted: Iterable[SecretFinding]) -> SecretScanJson:
    """What manifest.json keeps of the decision: which matches were accepted, and where."""
    return {
        "accepted": [
            {
                "key": f.key,
                "digest": f.digest,
                "pattern": f.what.removeprefix("pattern: "),
                "file": f.file,
                "where": f.where,
                "snippet": f.snippet,
            }
            for f in accepted
        ]
    }


def accepted_in_manifest(manifest: ManifestJson) -> set[Acceptance]:
    record = manifest.get(MANIFEST_KEY)
    entries = record["accepted"] if record else []
    return {(e["key"], str(e["digest"])) for e in entries}
