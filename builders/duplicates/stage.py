"""The duplicates stage: repeated chapters inside books, then copies of one work.

``remove_repeated_chapters`` runs inside the corpus stage (the books stored in
``corpus/books.jsonl`` are the ones samples index into); ``find_duplicate_works`` runs
after it, before screening and sampling. Both read signatures from ``cache_dir`` when the
same chapters were hashed before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from typing_extensions import TypedDict

from lengthwise.builders.duplicates.clusters import (
    BookFacts,
    Cluster,
    ClusterJson,
    build_clusters,
    find_links,
)
from lengthwise.builders.duplicates.editions import edition_links
from lengthwise.builders.duplicates.matching import (
    ChapterMatches,
    chapter_matches,
    near_book_pairs,
)
from lengthwise.builders.duplicates.repeated_chapters import (
    RepeatedChapter,
    drop_repeats,
    find_repeats,
    kept_rows,
)
from lengthwise.builders.duplicates.signatures import (
    BookSignatures,
    signature_key,
    signatures_for,
    store,
)
from lengthwise.builders.sampling.number_gaps import missing_numbers
from lengthwise.executors import Executor
from lengthwise.records import Book
from lengthwise.spec import DuplicatesConfig
from lengthwise.storage import canonical_hash


class DuplicatesJson(TypedDict):
    """`DuplicateFindings` as the build report holds it (`duplicates`)."""

    keep: str
    clusters: list[ClusterJson]
    repeated_chapters: list[RepeatedChapter]


class DuplicateOfJson(TypedDict):
    """A dropped or kept-anyway copy in `inspect --json`."""

    cluster: str
    kept: str
    similarity: float
    chapter_share: float
    kind: str
    dropped: bool


@dataclass
class DuplicateFindings:
    """Clusters of copies and what was done with them (``keep`` = "one" drops the others)."""

    keep: str
    clusters: list[Cluster] = field(default_factory=list)
    repeated_chapters: list[RepeatedChapter] = field(default_factory=list)

    @property
    def dropped(self) -> dict[str, str]:
        """Book id -> reason, for the books left out of sampling."""
        if self.keep != "one":
            return {}
        return {m.book_id: m.reason(c.id) for c in self.clusters for m in c.others}

    def duplicate_of(self, book_id: str) -> DuplicateOfJson | None:
        """The ``inspect --json`` entry: which cluster, which kept book, how similar."""
        for cluster in self.clusters:
            for member in cluster.others:
                if member.book_id == book_id:
                    return {
                        "cluster": cluster.id,
                        "kept": cluster.id,
                        "similarity": round(member.similarity, 3),
                        "chapter_share": round(member.chapter_share, 3),
                        "kind": member.kind,
                        "dropped": self.keep == "one",
                    }
        return None

    def to_dict(self) -> DuplicatesJson:
        return {
            "keep": self.keep,
            "clusters": [c.to_dict(dropped=self.keep == "one") for c in self.clusters],
            "repeated_chapters": list(self.repeated_chapters),
        }


def _cache(cache_dir: Path | None) -> Path | None:
    return None if cache_dir is None else cache_dir / "duplicates"


def remove_repeated_chapters(
    books: Sequence[Book],
    config: DuplicatesConfig,
    cache_dir: Path | None,
    runner: Executor | None = None,
) -> tuple[list[Book], list[RepeatedChapter]]:
    """Books with later copies of a repeated chapter dropped, and what was dropped.

    Signatures missing from the cache are computed on ``runner`` (default: this process).
    """
    if not config.drop_repeated_chapters:
        return list(books), []
    cache = _cache(cache_dir)
    result: list[Book] = []
    repeated: list[RepeatedChapter] = []
    every = signatures_for(books, config.shingle_size, config.num_perm, cache, runner)
    for book, signatures in zip(books, every, strict=True):
        repeats = find_repeats(book, signatures, config.chapter_threshold)
        deduped = drop_repeats(book, repeats)
        if repeats and cache is not None:
            # Store the reduced signatures so the next stage finds them without hashing.
            rows = kept_rows(book, repeats)
            key = signature_key(deduped, config.shingle_size, config.num_perm)
            store(signatures.select(rows, book.id, signatures.book_size), cache / f"{key[:32]}.npz")
        repeated += repeats
        result.append(deduped)
    return result, repeated


def text_hash(book: Book) -> str:
    """Hash of the cleaned chapter texts: equal for two files that clean to the same book."""
    return canonical_hash([c.sha256 for c in book.chapters])


def find_duplicate_works(
    books: Sequence[Book],
    config: DuplicatesConfig,
    cache_dir: Path | None,
    noise: Mapping[str, float] | None = None,
    repeated: Sequence[RepeatedChapter] = (),
    runner: Executor | None = None,
) -> DuplicateFindings:
    """Clusters of copies among ``books``; ``noise``: book id -> noise per character.

    Signatures missing from the cache are computed on ``runner`` (default: this process).
    """
    cache = _cache(cache_dir)
    every = signatures_for(books, config.shingle_size, config.num_perm, cache, runner)
    signatures: dict[str, BookSignatures] = {b.id: s for b, s in zip(books, every, strict=True)}
    facts = [
        BookFacts(
            b.id,
            b.title,
            b.raw_sha256,
            text_hash(b),
            len(b.chapters),
            missing_numbers(b.chapters),
            (noise or {}).get(b.id, 0.0),
        )
        for b in books
    ]
    ordered = [signatures[b.id] for b in books]
    near = near_book_pairs(ordered, config.near_threshold, config.num_perm)
    matches = chapter_matches(ordered, config.chapter_threshold, config.num_perm)
    editions = edition_links(books, signatures, sorted({*near, *matches}))
    kinds = {pair: evidence for pair, (evidence, _) in editions.items()}
    links = find_links(facts, near, matches, config.partial_share, kinds)
    # Linked editions map chapter ranges through their aligned chapters (`keep = "all"`).
    for pair, (_, aligned) in editions.items():
        matches[pair] = _merged(matches.get(pair), aligned)
    clusters = build_clusters(facts, signatures, links, matches)
    return DuplicateFindings(config.keep, clusters, list(repeated))


def _merged(found: ChapterMatches | None, aligned: ChapterMatches) -> ChapterMatches:
    """The chapter matches LSH found with the editions' aligned chapters added."""
    if found is None:
        return aligned
    seen = {(i, j) for i, j, _ in found.pairs}
    extra = [pair for pair in aligned.pairs if (pair[0], pair[1]) not in seen]
    return ChapterMatches(found.a, found.b, sorted(found.pairs + extra))


def noise_per_char(undecodable_bytes: int, removals: Mapping[str, int], chars: int) -> float:
    """Undecodable bytes plus cleaning removals per character of kept text."""
    return (undecodable_bytes + sum(removals.values())) / max(chars, 1)
