"""Local files and folders -> `SourceDocument`s (or `SourceFailure`s saying why not).

Folders are read recursively in sorted order of their relative paths, so ids and order do not
depend on the file system. Hidden files and folders (names starting with ".") are skipped
silently: they are editor and OS litter (.DS_Store), not books. A symlink loop or a broken link
is a failure that names it; symlinked folders are not followed (rglob), so loops cannot recur.
A folder that cannot be listed (permissions) is a failure too, never an empty folder.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from lengthwise.builders.sources.documents import FORMAT_BY_EXTENSION, build_document
from lengthwise.builders.sources.errors import SourceError, SourceFailure
from lengthwise.builders.sources.input_checks import path_problem
from lengthwise.builders.sources.stat_cache import SourceStatCache, file_stat
from lengthwise.records import SourceDocument

__all__ = ["SUPPORTED_EXTENSIONS", "SourceFailure", "read_local", "read_local_file"]

SUPPORTED_EXTENSIONS = tuple(FORMAT_BY_EXTENSION)


def read_local(
    path: Path,
    language: str | None = None,
    glob: str | None = None,
    stat_cache: SourceStatCache | None = None,
) -> Iterator[SourceDocument | SourceFailure]:
    """Read one file, or every file under a folder (optionally only names matching `glob`).

    `language` ("zh", "en") overrides hints found in the files; None keeps them. With a
    `stat_cache`, files whose stat is unchanged come back as header documents (no text).
    """
    problem = path_problem(path)
    if problem is not None:
        yield SourceFailure(str(path), *problem)
        return
    if path.is_file():
        yield read_local_file(path, language, stat_cache)
        return
    unreadable = unreadable_folders(path)
    if path in unreadable:
        yield SourceFailure(str(path), unreadable.pop(path), "unreadable-folder")
        return
    for folder, reason in unreadable.items():  # reported, never silently skipped
        yield SourceFailure(str(folder), reason, "unreadable-folder")
    files = sorted(
        (
            candidate
            for candidate in path.rglob(glob or "*")
            # Dangling and looping links are no files, but must be reported, not skipped.
            if (candidate.is_file() or path_problem(candidate) is not None)
            and not any(part.startswith(".") for part in candidate.relative_to(path).parts)
        ),
        key=lambda candidate: candidate.relative_to(path).as_posix(),
    )
    if not files:
        matching = f" matching {glob!r}" if glob else ""
        yield SourceFailure(str(path), f"folder has no files{matching}", "no-files")
        return
    for file in files:
        problem = path_problem(file)
        yield (
            read_local_file(file, language, stat_cache)
            if problem is None
            else SourceFailure(str(file), *problem)
        )


def unreadable_folders(path: Path) -> dict[Path, str]:
    """Folders under `path` (itself included) that cannot be listed, with why. `rglob` skips
    them without a word, which made an unreadable folder look empty ("no files")."""
    found: dict[Path, str] = {}

    def note(error: OSError) -> None:
        found[Path(error.filename)] = f"cannot read folder: {error.strerror or error}"

    for _, folders, _ in os.walk(path, onerror=note):
        folders[:] = [name for name in folders if not name.startswith(".")]  # hidden: skipped
    return found


def read_local_file(
    path: Path, language: str | None = None, stat_cache: SourceStatCache | None = None
) -> SourceDocument | SourceFailure:
    """One file -> a document; unsupported, unreadable, empty or binary files -> a failure.

    With a `stat_cache`: the cached header document when the file's stat is unchanged;
    otherwise the file is read and the document remembered (failures never are)."""
    if stat_cache is None:
        return _read_file(path, language)
    cached = stat_cache.lookup(path, language)
    if cached is not None:
        return cached
    try:
        stat = file_stat(path)  # taken before reading: a write while reading shows next time
    except OSError:
        return _read_file(path, language)
    document = _read_file(path, language)
    if isinstance(document, SourceDocument):
        stat_cache.remember(path, language, stat, document)
    return document


def _read_file(path: Path, language: str | None) -> SourceDocument | SourceFailure:
    fmt = FORMAT_BY_EXTENSION.get(path.suffix.lower())
    if fmt is None:
        shown = path.suffix or "(none)"
        return SourceFailure(
            str(path),
            f"unsupported extension {shown} (supported: {' '.join(SUPPORTED_EXTENSIONS)})",
            "unsupported-extension",
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        return SourceFailure(
            str(path), f"cannot read file: {exc.strerror or exc}", "unreadable-file"
        )
    try:
        return build_document(
            data,
            name=str(path),
            source=str(path),
            doc_id=path.stem,
            fallback_title=path.stem,
            fmt=fmt,
            language=language,
        )
    except SourceError as error:
        return SourceFailure.from_error(error)
