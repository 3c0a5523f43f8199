"""The Hub publish logic against an in-memory stand-in for HfApi (no network).

What this checks is our order of operations: refuse an existing tag before uploading,
one upload commit, a tag on exactly the returned commit, retries on transient
failures, and no tag when the upload fails. The real HfApi path is the opt-in live
test (test_live_hub.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest
from huggingface_hub.errors import HfHubHTTPError
from huggingface_hub.hf_api import CommitInfo, GitRefInfo, GitRefs

from lengthwise.releases.hub import PublishRefused, publish_to_hub


def _http_error(status: int) -> HfHubHTTPError:
    request = httpx2.Request("POST", "https://hub.invalid/api/datasets/acme/demo/commit/main")
    return HfHubHTTPError(f"{status} error", response=httpx2.Response(status, request=request))


@dataclass
class FakeHub:
    """Keeps commits and tags like a Hub repo; `failures` are raised by the next calls."""

    commits: list[str] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    failures: dict[str, list[BaseException]] = field(default_factory=dict)
    uploaded: list[dict[str, Any]] = field(default_factory=list)

    def _maybe_fail(self, name: str) -> None:
        self.calls.append(name)
        pending = self.failures.get(name)
        if pending:
            raise pending.pop(0)

    def create_repo(
        self, repo_id: str, *, repo_type: str | None = None, exist_ok: bool = False
    ) -> Any:
        self._maybe_fail("create_repo")
        assert repo_type == "dataset" and exist_ok

    def list_repo_refs(self, repo_id: str, *, repo_type: str | None = None) -> GitRefs:
        self._maybe_fail("list_repo_refs")
        return GitRefs(
            branches=[
                GitRefInfo(name="main", ref="refs/heads/main", target_commit=self.commits[-1])
            ]
            if self.commits
            else [],
            converts=[],
            tags=[
                GitRefInfo(name=t, ref=f"refs/tags/{t}", target_commit=c)
                for t, c in self.tags.items()
            ],
        )

    def upload_folder(self, **kwargs: Any) -> CommitInfo:
        self._maybe_fail("upload_folder")
        oid = f"{len(self.commits) + 1:040x}"
        self.commits.append(oid)
        self.uploaded.append(kwargs)
        return CommitInfo(
            commit_url=f"https://huggingface.co/datasets/acme/demo/commit/{oid}",
            commit_message=kwargs["commit_message"],
            commit_description="",
            oid=oid,
        )

    def create_tag(
        self, repo_id: str, *, tag: str, revision: str | None = None, **kwargs: Any
    ) -> None:
        self._maybe_fail("create_tag")
        if tag in self.tags:
            raise _http_error(409)
        assert revision is not None
        self.tags[tag] = revision


def _publish(hub: FakeHub, folder: Path, version: str = "1.0.0") -> Any:
    return publish_to_hub(
        folder, "acme/demo", version, api=hub, backoff_seconds=0, sleep=lambda s: None
    )


def test_uploads_one_commit_then_tags_exactly_it(tmp_path: Path) -> None:
    hub = FakeHub()
    result = _publish(hub, tmp_path)
    assert hub.calls == ["create_repo", "list_repo_refs", "upload_folder", "create_tag"]
    assert hub.tags == {"v1.0.0": result.commit} and hub.commits == [result.commit]
    upload = hub.uploaded[0]
    assert upload["folder_path"] == tmp_path and upload["repo_type"] == "dataset"
    assert upload["delete_patterns"] == "*"  # the commit replaces the previous release's files


def test_existing_tag_refuses_before_any_upload(tmp_path: Path) -> None:
    hub = FakeHub(commits=["a" * 40], tags={"v1.0.0": "a" * 40})
    with pytest.raises(PublishRefused, match=r"already has tag v1.0.0"):
        _publish(hub, tmp_path)
    assert "upload_folder" not in hub.calls
    assert hub.tags == {"v1.0.0": "a" * 40}


def test_transient_failures_are_retried(tmp_path: Path) -> None:
    hub = FakeHub(
        failures={
            "upload_folder": [_http_error(503), httpx2.ConnectError("connection reset")],
            "create_tag": [_http_error(429)],
        }
    )
    result = _publish(hub, tmp_path)
    assert hub.calls.count("upload_folder") == 3
    assert hub.tags == {"v1.0.0": result.commit}
    assert len(hub.commits) == 1


def test_failed_upload_leaves_the_previous_release_untouched(tmp_path: Path) -> None:
    hub = FakeHub(commits=["a" * 40], tags={"v1.0.0": "a" * 40})
    hub.failures["upload_folder"] = [_http_error(500)] * 4  # every attempt fails
    with pytest.raises(HfHubHTTPError):
        _publish(hub, tmp_path, "1.1.0")
    assert hub.tags == {"v1.0.0": "a" * 40}
    assert "create_tag" not in hub.calls


def test_client_errors_are_not_retried(tmp_path: Path) -> None:
    hub = FakeHub(failures={"upload_folder": [_http_error(403)]})
    with pytest.raises(HfHubHTTPError):
        _publish(hub, tmp_path)
    assert hub.calls.count("upload_folder") == 1 and hub.tags == {}


def test_no_token_refuses(tmp_path: Path) -> None:
    with pytest.raises(PublishRefused, match=r"set HF_TOKEN"):
        publish_to_hub(tmp_path, "acme/demo", "1.0.0", token=None)
