"""Where the human reference summaries come from: one small function to change.

The annotation stage (`lengthwise annotate pull`) writes the finished summaries back
next to the samples. The work store (`lengthwise.store`) decides
where: ``WORK/samples_annotated/<subset>.parquet`` when present, otherwise a
``summary`` column in ``WORK/samples/<subset>.parquet``. Every other column of such
a row that the build did not write is annotation metadata; it is released as JSON
after user names (annotator/reviewer columns, and e-mail addresses anywhere) are
replaced by stable pseudonyms. LLM drafts (synopsis columns) are not released.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lengthwise.records import SAMPLE_COLUMNS, Sample
from lengthwise.store import WorkStore
from lengthwise.workdir import WorkDir

# Columns written by `lengthwise build` (lengthwise.records.SAMPLE_COLUMNS).
BUILD_COLUMNS = frozenset(SAMPLE_COLUMNS)
# LLM drafts are working material for annotators, not references: never released.
_WORKING_MATERIAL = re.compile(r"draft|synops", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


@dataclass(frozen=True)
class Annotation:
    summary: str
    metadata: dict[str, Any] = field(default_factory=dict)


def annotated_samples_path(work_root: Path, subset: str) -> Path:
    return WorkDir(work_root).subset_annotated(subset)


def summaries_source(work_root: Path, subset: str) -> Path:
    """The file a subset's summaries are read from."""
    work = WorkDir(work_root)
    return WorkStore(work).samples_file(subset) or work.subset_samples(subset)


def load_annotations(
    work_root: Path, subset: str, samples: Sequence[Sample]
) -> dict[str, Annotation]:
    """Sample id -> human annotation, for the samples of `subset` that have a summary."""
    store = WorkStore(WorkDir(work_root))
    annotated = store.samples_file(subset, annotated=True) is not None
    rows = store.samples(subset, annotated=True) if annotated else samples
    found: dict[str, Annotation] = {}
    for row in rows:
        if row.summary is None:
            continue
        metadata = {
            key: _pseudonymise(value, _names_people(key))
            for key, value in row.extra.items()
            if key != "summary" and value is not None and not _WORKING_MATERIAL.search(key)
        }
        found[row.id] = Annotation(summary=row.summary.strip(), metadata=metadata)
    return found


def _names_people(key: str) -> bool:
    """Columns such as annotators, summary_annotator, reviewer hold user names."""
    return "annotator" in key or "reviewer" in key


def _pseudonymise(value: Any, whole_strings: bool = False) -> Any:
    """Replace e-mail addresses (Label Studio user names) by stable pseudonyms.

    With `whole_strings`, every string is a user name and is replaced as a whole.
    """
    if isinstance(value, str):
        if whole_strings and value:
            return _pseudonym(value)
        return _EMAIL.sub(lambda m: _pseudonym(m.group(0)), value)
    if isinstance(value, list):
        return [_pseudonymise(v, whole_strings) for v in value]
    if isinstance(value, dict):
        return {k: _pseudonymise(v, whole_strings or _names_people(k)) for k, v in value.items()}
    return value


def _pseudonym(name: str) -> str:
    return "annotator-" + hashlib.sha256(name.strip().lower().encode("utf-8")).hexdigest()[:8]


def synthetic_references(rows: Sequence[Mapping[str, Any]]) -> int:
    """Released rows whose summary no person wrote (the demo's synthetic references):
    their annotation says ``reference_origin`` other than "human"."""
    count = 0
    for row in rows:
        raw = row.get("annotation")
        origin = json.loads(raw).get("reference_origin") if isinstance(raw, str) else None
        count += row.get("summary") is not None and origin not in (None, "human")
    return count
