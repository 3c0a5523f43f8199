"""Cache files that carry the sha256 of their own content.

A content cache (cleaned books, duplicate findings, the books snapshot) is keyed by what
it was computed from; an entry edited or damaged after it was written must not reach
samples. A sealed file is a first line `{"sha256": HEX}` and then the payload's bytes;
`unseal` returns the payload only when it still has that hash, else None with the reason
logged, and the caller computes the entry again.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from lengthwise.storage import atomic_write_bytes, sha256_bytes

log = logging.getLogger(__name__)


def seal(body: bytes) -> bytes:
    """`body` behind a first line holding its sha256."""
    return json.dumps({"sha256": sha256_bytes(body)}).encode("utf-8") + b"\n" + body


def write_sealed(path: Path, body: bytes) -> None:
    """Write `body` sealed, atomically."""
    atomic_write_bytes(path, seal(body))


def read_sealed(path: Path, what: str) -> bytes | None:
    """The payload of the sealed file `path`, or None: absent (silently), unreadable, not
    sealed or not matching its sha256 (logged, naming `what` is recomputed)."""
    try:
        head, _, body = path.read_bytes().partition(b"\n")
        stored = json.loads(head)["sha256"]
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("%s: not a verifiable cache entry (%s); %s again", path, exc, what)
        return None
    if stored != sha256_bytes(body):
        log.warning(
            "%s: content does not match the sha256 it was stored under; discarded, %s again",
            path,
            what,
        )
        return None
    return body
