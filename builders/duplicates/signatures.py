"""MinHash signatures per chapter and per book, cached per book content hash.

A book's signature is the element-wise minimum of its chapters' signatures, which is
exactly the MinHash of the union of their shingle sets, so each chapter is hashed once.
Signatures live in ``WORK/cache/duplicates/<key>.npz``, keyed by the chapters' text hashes,
the language and the signature settings: a rebuild reads them and hashes nothing.
``signatures_for`` reads the cached ones in this process and hashes the others on an
executor (local processes or Ray, a few books per call); the cache is written here.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from datasketch import LeanMinHash, MinHash

from lengthwise.builders.duplicates.normalize import SAMPLE_RATE, shingle_hashes
from lengthwise.executors import Executor, make_executor
from lengthwise.executors.batches import run_batched
from lengthwise.records import Book
from lengthwise.sealed import read_sealed, write_sealed
from lengthwise.storage import canonical_hash

SIGNATURE_VERSION = "dup-2"  # 2: sealed files
MINHASH_SEED = 1
SCHEME = "affine32"
# Below this many sampled shingles a chapter is too short to judge (a few lines of verse,
# a heading): it takes part in no chapter match.
MIN_CHAPTER_SHINGLES = 30
_BATCH = 16_384  # values per MinHash update: bounds the (values x permutations) temporary
BOOKS_BATCH_CHARS = 4_000_000  # book text per executor call


@dataclass(frozen=True)
class BookSignatures:
    """Chapter and book MinHash values of one book (rows follow ``Book.chapters``)."""

    book_id: str
    chapters: npt.NDArray[np.uint32]  # (chapters, num_perm)
    chapter_sizes: npt.NDArray[np.int64]  # sampled shingles per chapter
    book: npt.NDArray[np.uint32]  # (num_perm,)
    book_size: int  # distinct sampled shingles in the whole book

    def chapter_minhash(self, index: int) -> LeanMinHash:
        return _lean(self.chapters[index])

    def book_minhash(self) -> LeanMinHash:
        return _lean(self.book)

    def select(self, rows: list[int], book_id: str, book_size: int) -> BookSignatures:
        """Signatures of a book reduced to chapters ``rows`` (after dropping repeats)."""
        chapters = self.chapters[rows]
        book = chapters.min(axis=0) if len(rows) else self.book
        return BookSignatures(book_id, chapters, self.chapter_sizes[rows], book, book_size)


def _lean(values: npt.NDArray[np.uint32]) -> LeanMinHash:
    return LeanMinHash(seed=MINHASH_SEED, hashvalues=values, scheme=SCHEME)


def jaccard(a: npt.NDArray[np.uint32], b: npt.NDArray[np.uint32]) -> float:
    """Estimated Jaccard similarity: the share of equal MinHash values."""
    return float(np.count_nonzero(a == b)) / len(a)


def signature_key(book: Book, shingle_size: int, num_perm: int) -> str:
    return canonical_hash(
        {
            "version": SIGNATURE_VERSION,
            "rate": SAMPLE_RATE,
            "shingle": shingle_size,
            "perm": num_perm,
            "language": book.language,
            "chapters": [c.sha256 for c in book.chapters],
        }
    )


def _minhash_values(hashes: npt.NDArray[np.uint32], num_perm: int) -> npt.NDArray[np.uint32]:
    minhash = MinHash(num_perm=num_perm, seed=MINHASH_SEED, hashfunc=_identity, scheme=SCHEME)
    for start in range(0, len(hashes), _BATCH):
        minhash.update_batch(hashes[start : start + _BATCH])
    return np.asarray(minhash.hashvalues, dtype=np.uint32)


def _identity(value: np.uint32) -> np.uint32:
    return value  # the shingles are hashed already (normalize.shingle_hashes)


def compute_signatures(book: Book, shingle_size: int, num_perm: int) -> BookSignatures:
    per_chapter = [shingle_hashes(c.text, book.language, shingle_size) for c in book.chapters]
    rows = [_minhash_values(h, num_perm) for h in per_chapter]
    chapters = np.vstack(rows) if rows else np.zeros((0, num_perm), dtype=np.uint32)
    book_values = (
        chapters.min(axis=0) if rows else _minhash_values(np.zeros(0, np.uint32), num_perm)
    )
    union = np.unique(np.concatenate(per_chapter)) if per_chapter else np.zeros(0)
    sizes = np.asarray([len(h) for h in per_chapter], dtype=np.int64)
    return BookSignatures(book.id, chapters, sizes, book_values, len(union))


def signatures_for(
    books: Sequence[Book],
    shingle_size: int,
    num_perm: int,
    cache_dir: Path | None,
    runner: Executor | None = None,
) -> list[BookSignatures]:
    """Each book's signatures, in order: from ``cache_dir`` when present, else computed on
    ``runner`` (default: this process) and stored."""
    paths = [_cache_path(b, shingle_size, num_perm, cache_dir) for b in books]
    found = [_load(b, p) if p is not None else None for b, p in zip(books, paths, strict=True)]
    missing = [i for i, signatures in enumerate(found) if signatures is None]
    computed = run_batched(
        runner or make_executor(workers=1),
        signatures_batch,
        [books[i] for i in missing],
        [sum(len(c.text) for c in books[i].chapters) for i in missing],
        BOOKS_BATCH_CHARS,
        (shingle_size, num_perm),
    )
    result: list[BookSignatures] = []
    fresh = dict(zip(missing, computed, strict=True))
    for index, path in enumerate(paths):
        signatures = found[index] or fresh[index]
        if index in fresh and path is not None:
            store(signatures, path)
        result.append(signatures)
    return result


def signatures_batch(books: list[Book], shingle_size: int, num_perm: int) -> list[BookSignatures]:
    """``compute_signatures`` of each book: one executor call."""
    return [compute_signatures(book, shingle_size, num_perm) for book in books]


def _cache_path(
    book: Book, shingle_size: int, num_perm: int, cache_dir: Path | None
) -> Path | None:
    if cache_dir is None:
        return None
    return cache_dir / f"{signature_key(book, shingle_size, num_perm)[:32]}.npz"


def _load(book: Book, path: Path) -> BookSignatures | None:
    body = read_sealed(path, "hashing the book")  # edited since written: recomputed
    if body is None:
        return None
    try:
        with np.load(io.BytesIO(body)) as data:
            return BookSignatures(
                book.id,
                data["chapters"],
                data["chapter_sizes"],
                data["book"],
                int(data["book_size"]),
            )
    except (OSError, ValueError, KeyError):
        return None  # a damaged cache file is recomputed


def store(signatures: BookSignatures, path: Path) -> None:
    """Atomic write, sealed with its sha256 (`lengthwise.sealed`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    np.savez(
        buffer,
        chapters=signatures.chapters,
        chapter_sizes=signatures.chapter_sizes,
        book=signatures.book,
        book_size=np.int64(signatures.book_size),
    )
    write_sealed(path, buffer.getvalue())
