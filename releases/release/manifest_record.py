"""manifest.json and diff.json as typed records (TypedDicts: the files' JSON objects).

The manifest is built in steps (statistics, then the file checksums, then the secret-scan
decision once the folder is validated), so the keys added late are not required; a
manifest read back is validated against these types (`read_typed_manifest`).
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict


class ChangedSampleJson(TypedDict):
    id: str
    parts: list[str]  # context, summary or metadata


class SubsetDiffJson(TypedDict):
    added: list[str]
    removed: list[str]
    changed: list[ChangedSampleJson]
    unchanged: int


DiffJson = TypedDict(
    "DiffJson",
    {
        "from": str | None,  # the previous version, None for the first release
        "to": str,
        "subsets": dict[str, SubsetDiffJson],
        "totals": dict[str, int],  # added, removed, changed
    },
)


class ToolJson(TypedDict):
    name: str
    version: str


class ManifestSpecJson(TypedDict):
    name: str
    version: str
    sha256: str
    primary_tokenizer: str  # public tokenizer ids (release.schema)
    tokenizers: list[str]


class BuildIdentityJson(TypedDict):
    fingerprint: str | None
    tool_version: str | None


class CorpusEntryJson(TypedDict):
    book_id: str
    title: str
    language: str
    raw_sha256: str
    source: str


class AnnotationCountsJson(TypedDict):
    samples: int
    with_summary: int


class SampleEntryJson(TypedDict):
    id: str
    sha256: str  # of the whole released row
    context_sha256: str
    summary_sha256: str | None


class SubsetEntryJson(TypedDict):
    data_file: str
    rows: int
    samples: list[SampleEntryJson]


class TaskEntryJson(SubsetEntryJson):
    """A task config (`<task>-<length>`): what it is, besides its file and rows."""

    task: str
    family: str
    length: str


class StatisticsEntryJson(TypedDict):
    file: str
    stale: bool


class FileEntryJson(TypedDict):
    sha256: str
    bytes: int


class AcceptedFindingJson(TypedDict):
    key: str
    digest: str | None
    pattern: str
    file: str
    where: str
    snippet: str


class SecretScanJson(TypedDict):
    accepted: list[AcceptedFindingJson]


class ManifestJson(TypedDict):
    format: str
    name: NotRequired[str]
    version: str
    tag: NotRequired[str]
    tool: NotRequired[ToolJson]
    spec: NotRequired[ManifestSpecJson]
    seed: NotRequired[int]
    build: NotRequired[BuildIdentityJson]
    corpus: NotRequired[list[CorpusEntryJson]]
    annotation: NotRequired[AnnotationCountsJson]
    subsets: dict[str, SubsetEntryJson]
    tasks: NotRequired[dict[str, TaskEntryJson]]  # task configs (releases/release/task_configs)
    statistics: NotRequired[StatisticsEntryJson | None]
    files: NotRequired[dict[str, FileEntryJson]]
    secret_scan: NotRequired[SecretScanJson]  # secret_decisions.MANIFEST_KEY
