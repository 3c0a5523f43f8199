"""What every publish target checks first: the folder is a valid release of that version."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from lengthwise.releases.release.layout import ReleaseError, normalise_version
from lengthwise.releases.release.manifest import VerifiedRelease
from lengthwise.releases.release.validate import validate_release


class PublishRefused(ReleaseError):
    """Publishing would overwrite a version or push an invalid folder; nothing was sent."""


def check_before_publish(
    folder: Path,
    version: str,
    environ: Mapping[str, str] | None = None,
    extra_secret_names: Iterable[str] = (),
    work_dir: Path | None = None,
) -> VerifiedRelease:
    """Validate again right before upload: the environment now may hold new secrets.

    `work_dir` holds the validation's temporary files (WORK/tmp/)."""
    if not folder.is_dir():
        raise PublishRefused(
            f"{folder}: no release folder; run `lengthwise release SPEC.toml --version "
            f"{normalise_version(version)}` first"
        )
    try:
        return validate_release(
            folder,
            normalise_version(version),
            os.environ if environ is None else environ,
            extra_secret_names,
            work_dir=work_dir,
        )
    except ReleaseError as exc:
        raise PublishRefused(f"nothing was published: {exc}") from None
