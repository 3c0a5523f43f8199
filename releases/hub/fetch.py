"""Downloading a pinned release and checking it against its manifest.

`fetch_release` is what evaluators call: a Hub (or Hub-compatible, via HF_ENDPOINT)
repository at a tag, or a local release folder; either way the files are verified
against manifest.json before the path is returned.
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

from lengthwise.names import check_repo_id
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
    when given). Without `out`, Hub files stay in the Hugging Face cache. A refused
    release (an invalid id, a failed download, a file that does not match the manifest)
    leaves no `out` folder behind where there was none.
    """
    local = Path(repo_id).expanduser()
    if not local.is_dir():
        check_repo_id(repo_id, "release")  # not a folder: ORG/NAME, never a path (ORG/../x)
    if endpoint is not None:
        check_endpoint(endpoint)
    created = out is not None and not out.exists()
    try:
        return _fetch(local if local.is_dir() else None, repo_id, revision, out, endpoint, token)
    except BaseException:
        if created and out is not None and out.exists():
            shutil.rmtree(out, ignore_errors=True)
        raise


def check_endpoint(endpoint: str) -> str:
    """An http(s) URL with a host, e.g. http://127.0.0.1:8090; anything else is refused."""
    parts = urlsplit(endpoint)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ReleaseError(
            f"--endpoint {endpoint!r}: expected an http(s) URL such as http://127.0.0.1:8090"
        )
    return endpoint.rstrip("/")


def _fetch(
    local: Path | None,
    repo_id: str,
    revision: str | None,
    out: Path | None,
    endpoint: str | None,
    token: str | None,
) -> Path:
    expected = _expected_version(revision)
    if local is not None:
        verify_release(local, expected)  # refuse before copying anything
        if out is None or out.resolve() == local.resolve():
            return local
        shutil.copytree(local, out, dirs_exist_ok=True)
        verify_release(out, expected)
        return out
    if revision is None:
        log.warning("no revision given for %s: fetching main, which moves; pin a tag", repo_id)
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import (
        HfHubHTTPError,
        HFValidationError,
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
            endpoint=endpoint.rstrip("/") if endpoint else None,
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
    except HFValidationError as exc:  # an id names.py lets through but the Hub refuses
        raise ReleaseError(f"{repo_id}: not a valid Hub repository id ({exc})") from None
    except (HfHubHTTPError, LocalEntryNotFoundError) as exc:
        raise ReleaseError(f"cannot download {repo_id}@{revision or 'main'}: {exc}") from None
    except (KeyError, ValueError) as exc:  # a server that answers, but not as a Hub does
        where = endpoint or os.environ.get("HF_ENDPOINT") or "https://huggingface.co"
        raise ReleaseError(
            f"{where} did not answer as a Hugging Face Hub endpoint ({type(exc).__name__}: "
            f"{exc}); point --endpoint or HF_ENDPOINT at the Hub or a mirror such as olah"
        ) from None
    folder = Path(path)
    verify_release(folder, expected)
    return folder
