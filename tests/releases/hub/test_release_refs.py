"""Release references on the command line: ORG/NAME@vX.Y.Z."""

from __future__ import annotations

import pytest

from lengthwise.releases.hub import parse_release_ref
from lengthwise.releases.release import ReleaseError, tag_for


def test_parse_release_ref() -> None:
    assert parse_release_ref("acme/demo@v1.2.0") == ("acme/demo", "v1.2.0")
    assert parse_release_ref("acme/demo") == ("acme/demo", None)
    with pytest.raises(ReleaseError, match=r"expected ORG/NAME@REVISION"):
        parse_release_ref("acme/demo@")


def test_tags_are_v_plus_semver() -> None:
    assert tag_for("1.2.3") == tag_for("v1.2.3") == "v1.2.3"
    for bad in ("1.2", "01.2.3", "1.2.3-rc1", "latest"):
        with pytest.raises(ReleaseError, match=r"not of the form X\.Y\.Z"):
            tag_for(bad)
