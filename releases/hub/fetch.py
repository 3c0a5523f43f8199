"""Downloading a pinned release and checking it against its manifest.

`fetch_release` is what evaluators call: a Hub (or Hub-compatible, via HF_ENDPOINT)
repository at a tag, or a local release folder; either way the files are verified
against manifest.json before the path is returned.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from lengthwise.releases.release.layout import VERSION_PATTERN, ReleaseError
from lengthwise.releases.release.manifest import verify_release

log = logging.getLogger(__name__)


def parse_release_ref(text: str) -> tuple[str, str | None]:
    """'org/name@v1.0.0' -> ('org/name', 'v1.0.0'); without '@' the revision is None."""
    repo_id, at, revision = text.rpartition("@")
    if not at:
        return text, None
    if not repo_id or not revision:
        raise ReleaseError(f"{text!r}: expected ORG/NAME@REVISION, e.g. org/bench@v1.0.0")
    return repo_id, revision


def _expected_version(revision: str | None) -> str | None:
    """A tag like v1.2.0 must hold manifest version 1.2.0; branches and commits say nothing."""
    if revision is None:
        return None
    bare = revision.removeprefix("v")
    return bare if revision.startswith("v") and VERSION_PATTERN.match(bare) else None


def fetch_release(
    repo_id: str,
    revision: str | None = None,
    out: Path | None = None,
    endpoint: str | None = None,
    token: str | None = None,
) -> Path:
    """Download `repo_id` at `revision` (a tag such as v1.0.0) into `out`, verify, return it.

    `repo_id` may also be a local release folder: it is verified (and copied to `out`
    when given). Without `out`, Hub files stay in the Hugging Face cache.
    """
    expected = _expected_version(revision)
    local = Path(repo_id).expanduser()
    if local.is_dir():
        folder = local
        if out is not None and out.resolve() != local.resolve():
            shutil.copytree(local, out, dirs_exist_ok=True)
            folder = out
        verify_release(folder, expected)
        return folder
    if revision is None:
        log.warning("no revision given for %s: fetching main, which moves; pin a tag", repo_id)
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import (
        HfHubHTTPError,
        LocalEntryNotFoundError,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    try:
        path = snapshot_download(
            repo_id,
            repo_type="dataset",
            revision=revision,
            local_dir=out,
            endpoint=endpoint,
            token=token,
        )
    except RevisionNotFoundError:
        raise ReleaseError(f"{repo_id} has no revision {revision!r}") from None
    except RepositoryNotFoundError:
        # Some Hub-compatible servers (olah) answer an unknown revision this way too.
        raise ReleaseError(
            f"{repo_id}@{revision or 'main'}: no such dataset repository or revision at the "
            "endpoint (or no access: set HF_TOKEN)"
        ) from None
    except (HfHubHTTPError, LocalEntryNotFoundError) as exc:
        raise ReleaseError(f"cannot download {repo_id}@{revision or 'main'}: {exc}") from None
    folder = Path(path)
    verify_release(folder, expected)
    return folder
