"""Where the human reference summaries come from: one small function to change.

The annotation stage (`lengthwise annotate pull`) writes the finished summaries back
next to the samples. This module is the only place in the release code that knows
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

from lengthwise.errors import InputFileError

# Columns written by `lengthwise build` (lengthwise.builders.samples.sample_row).
BUILD_COLUMNS = frozenset(
    {
        "id",
        "subset",
        "book_id",
        "book_title",
        "language",
        "first_chapter",
        "last_chapter",
        "chapter_titles",
        "chapter_sha256",
        "text",
        "tokens",
        "tokenizer",
        "token_counts",
        "target",
        "lower",
        "upper",
        "parent_id",
        "source",
    }
)
# LLM drafts are working material for annotators, not references: never released.
_WORKING_MATERIAL = re.compile(r"draft|synops", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


@dataclass(frozen=True)
class Annotation:
    summary: str
    metadata: dict[str, Any] = field(default_factory=dict)


def annotated_samples_path(work_root: Path, subset: str) -> Path:
    return work_root / "samples_annotated" / f"{subset}.parquet"


def summaries_source(work_root: Path, subset: str) -> Path:
    """The file a subset's summaries are read from."""
    annotated = annotated_samples_path(work_root, subset)
    return annotated if annotated.is_file() else work_root / "samples" / f"{subset}.parquet"


def load_annotations(
    work_root: Path, subset: str, samples: Sequence[Mapping[str, Any]]
) -> dict[str, Annotation]:
    """Sample id -> human annotation, for the samples of `subset` that have a summary."""
    path = annotated_samples_path(work_root, subset)
    rows: Sequence[Mapping[str, Any]] = _read_rows(path) if path.is_file() else samples
    found: dict[str, Annotation] = {}
    for row in rows:
        summary = row.get("summary")
        if not isinstance(summary, str) or not summary.strip():
            continue
        metadata = {
            key: _pseudonymise(value, _names_people(key))
            for key, value in row.items()
            if key not in BUILD_COLUMNS
            and key != "summary"
            and value is not None
            and not _WORKING_MATERIAL.search(key)
        }
        found[str(row["id"])] = Annotation(summary=summary.strip(), metadata=metadata)
    return found


def _read_rows(path: Path) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    try:
        rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    except Exception as exc:  # pyarrow raises several types for unreadable files
        raise InputFileError(f"{path}: cannot read annotated samples: {exc}") from None
    if rows and "id" not in rows[0]:
        raise InputFileError(f"{path}: annotated samples have no 'id' column")
    return rows


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
