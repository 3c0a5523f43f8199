"""Publishing a release folder to the Hugging Face Hub: one commit, then an immutable tag.

Order matters: refuse if the tag exists, upload the whole folder as ONE commit
(files no longer in the release are deleted in that same commit), and tag exactly
that commit only after it succeeded. A failed upload therefore changes nothing a
user pinned: earlier tags keep pointing at their commits.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from lengthwise.names import check_repo_id
from lengthwise.releases.hub.checks import PublishRefused
from lengthwise.releases.hub.retry import call_with_retries
from lengthwise.releases.release.layout import tag_for

log = logging.getLogger(__name__)
REPO_TYPE = "dataset"


class HubApi(Protocol):
    """The part of `huggingface_hub.HfApi` that publishing uses (a fake in tests)."""

    def create_repo(
        self, repo_id: str, *, repo_type: str | None = ..., exist_ok: bool = ...
    ) -> Any: ...

    def list_repo_refs(self, repo_id: str, *, repo_type: str | None = ...) -> Any: ...

    def upload_folder(
        self,
        *,
        repo_id: str,
        folder_path: str | Path,
        commit_message: str | None = ...,
        commit_description: str | None = ...,
        repo_type: str | None = ...,
        delete_patterns: list[str] | str | None = ...,
    ) -> Any: ...

    def create_tag(
        self,
        repo_id: str,
        *,
        tag: str,
        tag_message: str | None = ...,
        revision: str | None = ...,
        repo_type: str | None = ...,
    ) -> Any: ...


@dataclass(frozen=True)
class PublishResult:
    repo_id: str
    tag: str
    commit: str
    target: str  # "hub" or the local repository path

    def __str__(self) -> str:
        return f"{self.repo_id}@{self.tag} (commit {self.commit}) on {self.target}"


def _tag_target(api: HubApi, repo_id: str, tag: str, **retry: Any) -> str | None:
    refs = call_with_retries(
        lambda: api.list_repo_refs(repo_id, repo_type=REPO_TYPE), "list refs", **retry
    )
    for ref in refs.tags:
        if ref.name == tag:
            return str(ref.target_commit)
    return None


def publish_to_hub(
    folder: Path,
    repo_id: str,
    version: str,
    api: HubApi | None = None,
    token: str | None = None,
    attempts: int = 4,
    backoff_seconds: float = 2.0,
    sleep: Callable[[float], None] = time.sleep,
) -> PublishResult:
    """Upload a validated release folder and tag the commit `vX.Y.Z` (never reused)."""
    check_repo_id(repo_id)
    tag = tag_for(version)
    if api is None:
        if not token:
            raise PublishRefused("no Hub token: set HF_TOKEN to a token with write access")
        from huggingface_hub import HfApi

        api = HfApi(token=token)
    retry: dict[str, Any] = {
        "attempts": attempts,
        "backoff_seconds": backoff_seconds,
        "sleep": sleep,
    }
    hub = api
    call_with_retries(
        lambda: hub.create_repo(repo_id, repo_type=REPO_TYPE, exist_ok=True), "create repo", **retry
    )
    existing = _tag_target(hub, repo_id, tag, **retry)
    if existing is not None:
        raise PublishRefused(
            f"{repo_id} already has tag {tag} (commit {existing}); a published version is "
            "never replaced: release a new version number"
        )
    info = call_with_retries(
        lambda: hub.upload_folder(
            repo_id=repo_id,
            folder_path=folder,
            commit_message=f"Release {tag}",
            commit_description=f"lengthwise release {tag}; files verified by manifest.json",
            repo_type=REPO_TYPE,
            delete_patterns="*",  # one commit replaces the previous release's files
        ),
        "upload",
        **retry,
    )
    commit = str(info.oid)
    _tag_commit(hub, repo_id, tag, commit, retry)
    log.info("published %s@%s (commit %s)", repo_id, tag, commit)
    return PublishResult(repo_id, tag, commit, "hub")


def _tag_commit(hub: HubApi, repo_id: str, tag: str, commit: str, retry: dict[str, Any]) -> None:
    from huggingface_hub.errors import HfHubHTTPError

    try:
        call_with_retries(
            lambda: hub.create_tag(
                repo_id,
                tag=tag,
                tag_message=f"lengthwise release {tag}",
                revision=commit,
                repo_type=REPO_TYPE,
            ),
            "create tag",
            **retry,
        )
    except HfHubHTTPError as exc:
        # A retried request may have created the tag already: fine if it is on our commit.
        if _tag_target(hub, repo_id, tag, **retry) != commit:
            raise PublishRefused(
                f"uploaded commit {commit} to {repo_id} but could not tag it {tag}: {exc}"
            ) from None
