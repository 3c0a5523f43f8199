"""MinHash signatures per chapter and per book, cached per book content hash.

A book's signature is the element-wise minimum of its chapters' signatures, which is
exactly the MinHash of the union of their shingle sets, so each chapter is hashed once.
Signatures live in ``WORK/cache/duplicates/<key>.npz``, keyed by the chapters' text hashes,
the language and the signature settings: a rebuild reads them and hashes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from datasketch import LeanMinHash, MinHash

from lengthwise.builders.duplicates.normalize import SAMPLE_RATE, shingle_hashes
from lengthwise.records import Book
from lengthwise.storage import canonical_hash

SIGNATURE_VERSION = "dup-1"
MINHASH_SEED = 1
SCHEME = "affine32"
# Below this many sampled shingles a chapter is too short to judge (a few lines of verse,
# a heading): it takes part in no chapter match.
MIN_CHAPTER_SHINGLES = 30
_BATCH = 16_384  # values per MinHash update: bounds the (values x permutations) temporary


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


def load_or_compute(
    book: Book, shingle_size: int, num_perm: int, cache_dir: Path | None
) -> BookSignatures:
    """The book's signatures from ``cache_dir`` when present, else computed (and stored)."""
    if cache_dir is None:
        return compute_signatures(book, shingle_size, num_perm)
    path = cache_dir / f"{signature_key(book, shingle_size, num_perm)[:32]}.npz"
    if path.is_file():
        try:
            with np.load(path) as data:
                return BookSignatures(
                    book.id,
                    data["chapters"],
                    data["chapter_sizes"],
                    data["book"],
                    int(data["book_size"]),
                )
        except (OSError, ValueError, KeyError):
            pass  # a damaged cache file is recomputed below
    signatures = compute_signatures(book, shingle_size, num_perm)
    store(signatures, path)
    return signatures


def store(signatures: BookSignatures, path: Path) -> None:
    """Atomic write: a crash never leaves a half file that looks complete."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp.npz")
    np.savez(
        temporary,
        chapters=signatures.chapters,
        chapter_sizes=signatures.chapter_sizes,
        book=signatures.book,
        book_size=np.int64(signatures.book_size),
    )
    temporary.replace(path)
