"""Release folders: layout, dataset card, manifest, diff, validation and secret scan."""

from lengthwise.releases.release.build import ReleaseResult, build_release
from lengthwise.releases.release.layout import ReleaseError, release_folder, tag_for
from lengthwise.releases.release.manifest import ManifestError, VerifiedRelease, verify_release
from lengthwise.releases.release.secret_scan import SecretFinding, scan_folder
from lengthwise.releases.release.validate import ReleaseValidationError, validate_release

__all__ = [
    "ManifestError",
    "ReleaseError",
    "ReleaseResult",
    "ReleaseValidationError",
    "SecretFinding",
    "VerifiedRelease",
    "build_release",
    "release_folder",
    "scan_folder",
    "tag_for",
    "validate_release",
    "verify_release",
]
