"""The one reader and writer of the records a work directory holds.

Samples and books (the build), drafts (`lengthwise draft`) and annotations
(`lengthwise annotate pull`).

Stages read another stage's files only through a `WorkStore`; which samples file a
subset is read from ("the annotated samples when annotation has been finalised")
is decided here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lengthwise.errors import InputFileError, MissingInputError
from lengthwise.human_records import Annotation, Draft
from lengthwise.jsonl import numbered_rows, write_jsonl
from lengthwise.records import Book, Sample
from lengthwise.storage import read_json
from lengthwise.task_checks import ChunkLabels, TaskValidation
from lengthwise.task_records import TaskInstance
from lengthwise.workdir import WorkDir


class MissingRecords(MissingInputError):
    """A stage's input is not there: the message says which command makes it."""


@dataclass(frozen=True)
class WorkStore:
    work: WorkDir

    def subsets(self, spec_order: Iterable[str] = ()) -> list[str]:
        """Subsets with a built samples file: the spec's order first, then the others."""
        found = sorted(p.stem for p in self.work.samples.glob("*.parquet"))
        ordered = [s for s in spec_order if s in found]
        return ordered + [s for s in found if s not in ordered]

    def samples_file(self, subset: str, annotated: bool | None = None) -> Path | None:
        """The file a subset's samples are read from, None when it does not exist.

        annotated=None: WORK/samples_annotated/<subset>.parquet when annotation has been
        finalised, else the build's WORK/samples/<subset>.parquet; True: only the
        annotated file; False: only the build's file.
        """
        candidates = {
            None: [self.work.subset_annotated(subset), self.work.subset_samples(subset)],
            True: [self.work.subset_annotated(subset)],
            False: [self.work.subset_samples(subset)],
        }[annotated]
        return next((path for path in candidates if path.is_file()), None)

    def samples(self, subset: str, annotated: bool | None = None) -> list[Sample]:
        """The samples of `subset`, in file order (see `samples_file` for `annotated`)."""
        path = self.samples_file(subset, annotated)
        if path is None:
            wanted = self.work.subset_annotated(subset) if annotated else None
            raise MissingRecords(
                f"{wanted or self.work.subset_samples(subset)}: samples missing; run "
                + ("`lengthwise annotate review`" if annotated else "`lengthwise build SPEC`")
                + " first"
            )
        return read_samples_file(path)

    def all_samples(self, subsets: Iterable[str], annotated: bool | None = False) -> list[Sample]:
        """The samples of every subset in turn; an error when there are none at all."""
        found = [s for subset in subsets for s in self.samples(subset, annotated)]
        if not found:
            raise MissingRecords(
                f"{self.work.samples}: no samples; run `lengthwise build SPEC` first"
            )
        return found

    def books(self, wanted: Iterable[str] | None = None) -> dict[str, Book]:
        """Books of WORK/corpus/books.jsonl by id (only `wanted` ids when given)."""
        return read_books_file(self.work.books, None if wanted is None else set(wanted))

    def sampled_books(self) -> dict[str, Book]:
        """The books samples were cut from (after duplicate removal and probe exclusion), as
        the build recorded them in build_report.json's `sampled_books`, by id."""
        report = self.work.build_report
        if not report.is_file():
            raise MissingRecords(f"{report}: no build report; run `lengthwise build SPEC` first")
        ids = read_json(report).get("sampled_books")
        if not isinstance(ids, list):
            raise MissingRecords(
                f"{report}: no `sampled_books` (written by an older version); "
                "rerun `lengthwise build SPEC`"
            )
        books = self.books(ids)
        return {book_id: books[book_id] for book_id in ids if book_id in books}

    def task_instances(self, task: str, length: str | None = None) -> list[TaskInstance]:
        """WORK/tasks/<task>/<length>.parquet in file order; every length of the task (in
        length-name order) when `length` is None."""
        if length is None:
            files = sorted((self.work.tasks / task).glob("*.parquet"))
            return [instance for path in files for instance in read_task_file(path)]
        path = self.work.task_file(task, length)
        if not path.is_file():
            raise MissingRecords(f"{path}: task instances missing; run `lengthwise tasks SPEC`")
        return read_task_file(path)

    def drafts(self, required: bool = True) -> dict[str, Draft]:
        """WORK/drafts/samples.jsonl by sample id; {} when absent and not `required`."""
        path = self.work.drafts.samples
        if not path.is_file():
            if not required:
                return {}
            raise MissingRecords(f"{path}: no drafts found; run `lengthwise draft SPEC` first")
        return read_drafts_file(path)

    def write_drafts(self, drafts: Iterable[Draft]) -> None:
        write_jsonl(self.work.drafts.samples, (d.to_row() for d in drafts))

    def annotations(self) -> list[Annotation]:
        """WORK/annotations/annotations.jsonl (empty when no pull happened yet)."""
        path = self.work.annotations.annotations
        if not path.is_file():
            return []
        records = []
        for number, row in numbered_rows(path):
            try:
                records.append(Annotation.from_dict(row))
            except (TypeError, ValueError) as exc:
                raise InputFileError(f"{path}:{number}: not an annotation row: {exc}") from None
        return records

    def write_annotations(self, records: Iterable[Annotation]) -> None:
        """Rewrites WORK/annotations/annotations.jsonl, ordered by sample and annotation id."""
        ordered = sorted(records, key=lambda r: (r.sample_id, r.annotation_id))
        write_jsonl(self.work.annotations.annotations, (r.to_dict() for r in ordered))

    # task families (lengthwise.task_records) and their human checks (lengthwise.task_checks)
    def chunk_labels(self, task: str) -> list[ChunkLabels]:
        """WORK/tasks/<task>/chunk_labels.jsonl (empty when the task wrote none)."""
        path = self.work.task_chunk_labels(task)
        if not path.is_file():
            return []
        return [
            ChunkLabels.from_dict(row, f"{path}:{number}") for number, row in numbered_rows(path)
        ]

    def write_chunk_labels(self, task: str, labels: Iterable[ChunkLabels]) -> None:
        ordered = sorted(labels, key=lambda r: (r.length, r.id))
        write_jsonl(self.work.task_chunk_labels(task), (r.to_dict() for r in ordered))

    def task_validations(self, task: str) -> list[TaskValidation]:
        """WORK/tasks/<task>/validations.jsonl (empty before the first pull)."""
        path = self.work.task_validations(task)
        if not path.is_file():
            return []
        return [
            TaskValidation.from_dict(row, f"{path}:{number}") for number, row in numbered_rows(path)
        ]

    def write_task_validations(self, task: str, records: Iterable[TaskValidation]) -> None:
        ordered = sorted(records, key=lambda r: (r.item_id, r.annotation_id))
        write_jsonl(self.work.task_validations(task), (r.to_dict() for r in ordered))


def read_task_file(path: Path) -> list[TaskInstance]:
    import pyarrow.parquet as pq

    try:
        rows = pq.read_table(path).to_pylist()
    except Exception as exc:  # pyarrow raises several types for damaged files
        raise InputFileError(f"{path}: cannot read task instances: {exc}") from None
    return [TaskInstance.from_row(row, f"{path}: row {number}") for number, row in enumerate(rows)]


def read_drafts_file(path: Path) -> dict[str, Draft]:
    """A drafts JSONL file by sample id; errors name the file, line and key."""
    drafts: dict[str, Draft] = {}
    for number, row in numbered_rows(path):
        draft = Draft.from_row(row, f"{path}:{number}")
        drafts[draft.sample_id] = draft
    return drafts


def read_samples_file(path: Path) -> list[Sample]:
    import pyarrow.parquet as pq

    try:
        rows = pq.read_table(path).to_pylist()
    except Exception as exc:  # pyarrow raises several types for damaged files
        raise InputFileError(f"{path}: cannot read samples: {exc}") from None
    return [Sample.from_row(row, f"{path}: row {number}") for number, row in enumerate(rows)]


def read_books_file(path: Path, wanted: set[str] | None = None) -> dict[str, Book]:
    if not path.is_file():
        raise MissingRecords(f"{path}: corpus missing; run `lengthwise build SPEC` first")
    books: dict[str, Book] = {}
    for number, row in numbered_rows(path):
        try:
            if wanted is None or row.get("id") in wanted:
                books[row["id"]] = Book.from_dict(row)
        except (TypeError, KeyError, AttributeError) as exc:
            raise InputFileError(f"{path}:{number}: not a valid book row: {exc}") from None
    return books
