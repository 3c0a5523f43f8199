"""The copies-of-one-work findings, kept in WORK/cache/duplicates between builds.

A rebuild that changes only sampling settings has the same books, settings, noise figures
and repeated chapters, so the LSH indexes (and their parameter search) need not be built
again. The key covers everything `find_duplicate_works` reads; a missing or unreadable
file is recomputed.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping, Sequence
from pathlib import Path

from lengthwise.builders.duplicates.repeated_chapters import RepeatedChapter
from lengthwise.builders.duplicates.stage import DuplicateFindings, find_duplicate_works
from lengthwise.executors import Executor
from lengthwise.records import Book
from lengthwise.sealed import read_sealed, write_sealed
from lengthwise.spec import DuplicatesConfig
from lengthwise.storage import canonical_hash

FINDINGS_VERSION = 2  # bump when find_duplicate_works changes what it finds


def cached_duplicate_works(
    books: Sequence[Book],
    config: DuplicatesConfig,
    cache_dir: Path,
    noise: Mapping[str, float],
    repeated: Sequence[RepeatedChapter],
    runner: Executor | None = None,
) -> DuplicateFindings:
    path = cache_dir / "duplicates" / f"findings-{_key(books, config, noise, repeated)[:32]}.pickle"
    # Our own cache file, written below by this function, sealed with its sha256: a file
    # edited since is discarded before it is unpickled.
    body = read_sealed(path, "finding duplicate works")
    if body is not None:
        try:
            found = pickle.loads(body)
            if isinstance(found, DuplicateFindings):
                return found
        except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
            pass
    found = find_duplicate_works(books, config, cache_dir, noise, repeated, runner)
    write_sealed(path, pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL))
    return found


def _key(
    books: Sequence[Book],
    config: DuplicatesConfig,
    noise: Mapping[str, float],
    repeated: Sequence[RepeatedChapter],
) -> str:
    return canonical_hash(
        {
            "version": FINDINGS_VERSION,
            "config": config.model_dump(mode="json"),
            "noise": dict(noise),
            "repeated": [r.to_json() for r in repeated],
            "books": [
                [
                    b.id,
                    b.title,
                    b.raw_sha256,
                    [[c.sha256, c.heading, c.number, c.title, c.part] for c in b.chapters],
                ]
                for b in books
            ],
        }
    )
