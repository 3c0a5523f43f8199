"""What changed between two release versions, sample by sample.

A sample is identified by its id (book and chapter range). "changed" means the same
id with a different row hash; the context and summary hashes say which part moved.
"""

from __future__ import annotations

from lengthwise.releases.release.manifest_record import (
    ChangedSampleJson,
    DiffJson,
    ManifestJson,
    SampleEntryJson,
    SubsetDiffJson,
)

MAX_IDS_IN_CARD = 20


def _samples(manifest: ManifestJson | None, subset: str) -> dict[str, SampleEntryJson]:
    if manifest is None or subset not in manifest["subsets"]:
        return {}
    return {s["id"]: s for s in manifest["subsets"][subset]["samples"]}


def _changed_parts(old: SampleEntryJson, new: SampleEntryJson) -> list[str]:
    parts = []
    if old["context_sha256"] != new["context_sha256"]:
        parts.append("context")
    if old["summary_sha256"] != new["summary_sha256"]:
        parts.append("summary")
    return parts or ["metadata"]


def diff_manifests(previous: ManifestJson | None, current: ManifestJson) -> DiffJson:
    """Added, removed and changed sample ids per subset between two manifests."""
    names = list(current["subsets"])
    if previous is not None:
        names += [n for n in previous["subsets"] if n not in names]
    subsets: dict[str, SubsetDiffJson] = {}
    for name in names:
        old, new = _samples(previous, name), _samples(current, name)
        changed: list[ChangedSampleJson] = [
            {"id": sid, "parts": _changed_parts(old[sid], new[sid])}
            for sid in new
            if sid in old and old[sid]["sha256"] != new[sid]["sha256"]
        ]
        subsets[name] = {
            "added": [sid for sid in new if sid not in old],
            "removed": [sid for sid in old if sid not in new],
            "changed": changed,
            "unchanged": sum(
                1 for sid in new if sid in old and old[sid]["sha256"] == new[sid]["sha256"]
            ),
        }
    return {
        "from": previous["version"] if previous is not None else None,
        "to": current["version"],
        "subsets": subsets,
        "totals": {
            "added": sum(len(s["added"]) for s in subsets.values()),
            "removed": sum(len(s["removed"]) for s in subsets.values()),
            "changed": sum(len(s["changed"]) for s in subsets.values()),
        },
    }


def _ids(ids: list[str]) -> str:
    shown = ", ".join(f"`{i}`" for i in ids[:MAX_IDS_IN_CARD])
    more = len(ids) - MAX_IDS_IN_CARD
    return shown + (f" and {more} more (see diff.json)" if more > 0 else "") if ids else "-"


def diff_markdown(diff: DiffJson) -> str:
    """The card section body: a count table and the ids that moved."""
    if diff["from"] is None:
        return f"First release ({diff['to']}): no earlier version to compare with."
    lines = [
        f"Compared with v{diff['from']} (full lists in `diff.json`). A changed sample keeps "
        "its id (book and chapter range) but its released row differs.",
        "",
        "| subset | added | removed | changed | unchanged |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, s in diff["subsets"].items():
        lines.append(
            f"| {name} | {len(s['added'])} | {len(s['removed'])} | {len(s['changed'])} "
            f"| {s['unchanged']} |"
        )
    for name, s in diff["subsets"].items():
        if not (s["added"] or s["removed"] or s["changed"]):
            continue
        changed = [f"{c['id']} ({'+'.join(c['parts'])})" for c in s["changed"]]
        lines += [
            "",
            f"**{name}** — added: {_ids(s['added'])}; removed: {_ids(s['removed'])}; "
            f"changed: {_ids(changed)}",
        ]
    return "\n".join(lines)
