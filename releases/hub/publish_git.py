"""Publishing into a local git repository laid out like a Hub dataset repository.

The repository lives at ``MIRROR_ROOT/datasets/ORG/NAME`` (bare), the layout that the
``olah`` server reads with ``mirrors-path = [MIRROR_ROOT]`` and ``offline = true``:
pointing ``HF_ENDPOINT`` at that server lets the real ``huggingface_hub`` and
``datasets`` download code fetch releases by tag, fully offline.

Same rules as the Hub: an existing tag refuses, the release becomes ONE commit on
``main`` built from the folder alone (a temporary index; no working tree is touched),
``main`` moves by compare-and-swap, and the annotated tag is created last.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from lengthwise.names import check_repo_id
from lengthwise.releases.hub.checks import PublishRefused
from lengthwise.releases.hub.publish_hub import PublishResult
from lengthwise.releases.release.layout import ReleaseError, tag_for
from lengthwise.stage_state import scratch_folder

BRANCH = "refs/heads/main"
ZERO_OID = "0" * 40
_IDENTITY = {
    "GIT_AUTHOR_NAME": "lengthwise",
    "GIT_AUTHOR_EMAIL": "lengthwise@localhost",
    "GIT_COMMITTER_NAME": "lengthwise",
    "GIT_COMMITTER_EMAIL": "lengthwise@localhost",
}


def mirror_repo_path(mirror_root: Path, repo_id: str) -> Path:
    """Where olah looks for a dataset repository: ROOT/datasets/ORG/NAME."""
    org, _, name = check_repo_id(repo_id).partition("/")
    return mirror_root / "datasets" / org / name


def _git(repo: Path, *args: str, env: dict[str, str] | None = None, check: bool = True) -> str:
    full_env = {**os.environ, **_IDENTITY, "GIT_CONFIG_NOSYSTEM": "1", **(env or {})}
    try:
        done = subprocess.run(
            ["git", f"--git-dir={repo}", *args],
            capture_output=True,
            text=True,
            env=full_env,
            check=False,
        )
    except FileNotFoundError:
        raise ReleaseError("the `git` program is needed for a local publish target") from None
    if check and done.returncode != 0:
        raise ReleaseError(f"git {' '.join(args[:2])} failed in {repo}: {done.stderr.strip()}")
    return done.stdout.strip()


def _ref(repo: Path, ref: str) -> str | None:
    return _git(repo, "rev-parse", "-q", "--verify", f"{ref}^{{commit}}", check=False) or None


def ensure_repo(repo: Path) -> None:
    if (repo / "HEAD").is_file():
        return
    repo.mkdir(parents=True, exist_ok=True)
    _git(repo, "init", "--bare", "--quiet", "--initial-branch=main")


def publish_to_git_mirror(
    folder: Path, mirror_root: Path, repo_id: str, version: str, work_dir: Path | None = None
) -> PublishResult:
    """Commit the release folder to main of ROOT/datasets/ORG/NAME and tag it vX.Y.Z.

    The temporary git index lives in WORK/tmp/ (`scratch_folder`) when `work_dir` is
    given, else in the system's temporary folder.
    """
    tag = tag_for(version)
    repo = mirror_repo_path(mirror_root, repo_id)
    ensure_repo(repo)
    existing = _ref(repo, f"refs/tags/{tag}")
    if existing is not None:
        raise PublishRefused(
            f"{repo} already has tag {tag} (commit {existing}); a published version is never "
            "replaced: release a new version number"
        )
    parent = _ref(repo, BRANCH)
    scratch = (
        scratch_folder(work_dir, "git-index")
        if work_dir is not None
        else tempfile.TemporaryDirectory(prefix="lengthwise-index-")
    )
    with scratch as tmp:
        index = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        _git(repo, f"--work-tree={folder}", "add", "--all", "--force", ".", env=index)
        tree = _git(repo, "write-tree", env=index)
    parents = ["-p", parent] if parent else []
    commit = _git(repo, "commit-tree", tree, *parents, "-m", f"Release {tag}")
    # Compare-and-swap: fails if main moved since we read it (a concurrent publish).
    _git(repo, "update-ref", "-m", f"release {tag}", BRANCH, commit, parent or ZERO_OID)
    _git(repo, "tag", "-a", tag, "-m", f"lengthwise release {tag}", commit)
    return PublishResult(repo_id, tag, commit, str(repo))
