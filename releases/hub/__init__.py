"""Publishing releases (Hugging Face Hub or a local git mirror) and fetching them by tag."""

from lengthwise.releases.hub.checks import PublishRefused, check_before_publish
from lengthwise.releases.hub.fetch import fetch_release, parse_release_ref
from lengthwise.releases.hub.publish_git import mirror_repo_path, publish_to_git_mirror
from lengthwise.releases.hub.publish_hub import PublishResult, publish_to_hub

__all__ = [
    "PublishRefused",
    "PublishResult",
    "check_before_publish",
    "fetch_release",
    "mirror_repo_path",
    "parse_release_ref",
    "publish_to_git_mirror",
    "publish_to_hub",
]
