"""The card names the repository it is published to.

`release` writes the card before anyone says where it will go: it names
`[release] repo_id` or the placeholder `ORG/NAME`. `publish --repo ORG/NAME` puts the
real id into the card's loading lines (`load_dataset("…"`, `lengthwise fetch …@`) and
the card's sha256 into manifest.json, in the local release folder, before the folder is
checked and sent: what is published is what the folder holds.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from lengthwise.releases.release.layout import CARD, MANIFEST, SPLIT, tag_for
from lengthwise.storage import atomic_write_json, atomic_write_text, sha256_bytes

_LOADED = re.compile(r'load_dataset\("([^"]+)"')


def card_repo_id(card: str) -> str | None:
    """The repository the card's `load_dataset` line names, if any."""
    found = _LOADED.search(card)
    return found.group(1) if found else None


def name_repo_in_card(folder: Path, repo_id: str) -> bool:
    """Make the card of `folder` name `repo_id`; True when it changed.

    The manifest's entry for the card is written first: a run killed between the two
    writes leaves a card that still names the old repository, so the next publish
    writes both again.
    """
    card_path = folder / CARD
    if not card_path.is_file():
        return False  # not a release folder: the publish checks say so
    card = card_path.read_text(encoding="utf-8")
    named = card_repo_id(card)
    if named is None or named == repo_id:
        return False
    card = card.replace(f'load_dataset("{named}"', f'load_dataset("{repo_id}"')
    card = card.replace(f"lengthwise fetch {named}@", f"lengthwise fetch {repo_id}@")
    data = card.encode("utf-8")
    manifest_path = folder / MANIFEST
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["files"][CARD] = {"sha256": sha256_bytes(data), "bytes": len(data)}
    atomic_write_json(manifest_path, manifest)
    atomic_write_text(card_path, card)
    for path in (manifest_path, card_path):
        path.chmod(0o644)
    return True


def load_line(repo_id: str, config: str, version: str) -> str:
    """The exact line that loads one config of a published version."""
    return f'load_dataset("{repo_id}", "{config}", split="{SPLIT}", revision="{tag_for(version)}")'
