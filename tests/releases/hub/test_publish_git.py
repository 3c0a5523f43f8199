"""Publishing into a local git repository laid out as a Hub dataset repo (what olah serves)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest
from release_helpers import read_rows, write_rows

from lengthwise.cli import main
from lengthwise.releases.hub import (
    PublishRefused,
    check_before_publish,
    fetch_release,
    mirror_repo_path,
    publish_to_git_mirror,
)
from lengthwise.releases.release import ManifestError, build_release
from lengthwise.spec import Spec


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", f"--git-dir={repo}", *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def _tree(repo: Path, revision: str) -> dict[str, str]:
    """Path -> blob content hash (git's) at a revision."""
    listing = _git(repo, "ls-tree", "-r", revision)
    return {line.split("\t")[1]: line.split()[2] for line in listing.splitlines()}


def _hash_object(path: Path) -> str:
    return subprocess.run(
        ["git", "hash-object", str(path)], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_publish_commits_and_tags_and_never_reuses_a_version(
    demo_spec: Spec, annotated_work: Path, tmp_path: Path
) -> None:
    mirror = tmp_path / "mirror"
    first = build_release(demo_spec, annotated_work, "1.0.0").folder
    published = publish_to_git_mirror(first, mirror, "acme/demo", "1.0.0")
    repo = mirror_repo_path(mirror, "acme/demo")
    assert repo == mirror / "datasets" / "acme" / "demo"
    assert _git(repo, "rev-parse", "v1.0.0^{commit}") == published.commit
    assert _git(repo, "rev-parse", "main") == published.commit
    assert _git(repo, "cat-file", "-t", "v1.0.0") == "tag"  # annotated
    files = sorted(p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file())
    tree = _tree(repo, "v1.0.0")
    assert sorted(tree) == files
    assert all(tree[f] == _hash_object(first / f) for f in files)

    with pytest.raises(PublishRefused, match=r"already has tag v1.0.0"):
        publish_to_git_mirror(first, mirror, "acme/demo", "1.0.0")
    assert _git(repo, "rev-list", "--count", "main") == "1"  # nothing was added

    # A second version moves main; the first tag stays on its commit.
    samples = annotated_work / "samples" / "S.parquet"
    write_rows(samples, read_rows(samples)[1:])
    second = build_release(demo_spec, annotated_work, "1.1.0").folder
    moved = publish_to_git_mirror(second, mirror, "acme/demo", "1.1.0")
    assert _git(repo, "rev-parse", "main") == moved.commit
    assert _git(repo, "rev-parse", "v1.0.0^{commit}") == published.commit
    assert _git(repo, "rev-parse", f"{moved.commit}^") == published.commit
    assert _tree(repo, "v1.0.0") == tree


def test_files_dropped_from_a_release_are_gone_from_its_commit(
    demo_spec: Spec, annotated_work: Path, tmp_path: Path
) -> None:
    mirror = tmp_path / "mirror"
    publish_to_git_mirror(
        build_release(demo_spec, annotated_work, "1.0.0").folder, mirror, "acme/demo", "1.0.0"
    )
    write_rows(annotated_work / "samples" / "L.parquet", [])  # L becomes empty: not released
    publish_to_git_mirror(
        build_release(demo_spec, annotated_work, "2.0.0").folder, mirror, "acme/demo", "2.0.0"
    )
    repo = mirror_repo_path(mirror, "acme/demo")
    assert "L/test-00000-of-00001.parquet" in _tree(repo, "v1.0.0")
    assert "L/test-00000-of-00001.parquet" not in _tree(repo, "v2.0.0")


def test_tampered_folder_is_refused_before_anything_is_sent(
    demo_spec: Spec, annotated_work: Path, tmp_path: Path
) -> None:
    folder = build_release(demo_spec, annotated_work, "1.0.0").folder
    card = folder / "README.md"
    card.write_text(card.read_text(encoding="utf-8") + "\nedited\n", encoding="utf-8")
    with pytest.raises(PublishRefused, match=r"(?s)nothing was published: .*README.md: sha256"):
        check_before_publish(folder, "1.0.0", environ={})
    with pytest.raises(PublishRefused, match=r"no release folder"):
        check_before_publish(tmp_path / "missing", "1.0.0", environ={})


def test_cli_publish_to_mirror_and_refusal(
    demo_spec_path: Path,
    demo_spec: Spec,
    annotated_work: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    build_release(demo_spec, annotated_work, "1.0.0")
    args = ["publish", str(demo_spec_path), "--version", "1.0.0", "--work", str(annotated_work)]
    target = ["--repo", "acme/demo", "--mirror-root", str(tmp_path / "mirror")]
    # $TMPDIR names no folder: anything put there would fail. Validation's datasets cache
    # and the git index go to WORK/tmp/ instead, and are gone afterwards.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no-system-tmp"))
    assert main([*args, *target]) == 0
    assert "published acme/demo@v1.0.0" in capsys.readouterr().out
    assert list((annotated_work / "tmp").iterdir()) == []
    assert main([*args, *target]) == 2
    assert "already has tag v1.0.0" in capsys.readouterr().err
    assert main(args) == 2  # the demo spec names no repo_id
    assert "release.repo_id is not set" in capsys.readouterr().err


def test_fetch_accepts_a_local_release_folder(
    demo_spec: Spec, annotated_work: Path, tmp_path: Path
) -> None:
    folder = build_release(demo_spec, annotated_work, "1.0.0").folder
    assert fetch_release(str(folder), "v1.0.0") == folder
    copied = fetch_release(str(folder), "v1.0.0", out=tmp_path / "copy")
    assert (copied / "manifest.json").read_bytes() == (folder / "manifest.json").read_bytes()
    with pytest.raises(ManifestError, match=r"expected 1.1.0"):
        fetch_release(str(folder), "v1.1.0")


def test_publish_with_relative_paths_from_the_spec_folder(
    demo_spec: Spec, annotated_work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a user types it, from the spec's folder: relative work dir and mirror root (the
    temporary git index in WORK/tmp was once handed to git relative to the wrong folder)."""
    first = build_release(demo_spec, annotated_work, "1.0.0").folder
    monkeypatch.chdir(annotated_work.parent)
    work = annotated_work.relative_to(annotated_work.parent)
    published = publish_to_git_mirror(
        first.relative_to(annotated_work.parent), Path("mirror"), "acme/demo", "1.0.0", work
    )
    repo = mirror_repo_path(annotated_work.parent / "mirror", "acme/demo")
    assert _git(repo, "rev-parse", "v1.0.0^{commit}") == published.commit
    assert not list((annotated_work / "tmp").glob("git-index-*"))
