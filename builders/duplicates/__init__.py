"""Duplicate works: exact copies, near duplicates across scripts and encodings, partial
editions, and chapters printed twice inside one book (MinHash + LSH over shingles)."""

from lengthwise.builders.duplicates.clusters import BookFacts, Cluster, Member
from lengthwise.builders.duplicates.matching import ChapterMatches
from lengthwise.builders.duplicates.overlap import CopyMap, select_avoiding_copies
from lengthwise.builders.duplicates.repeated_chapters import RepeatedChapter
from lengthwise.builders.duplicates.stage import (
    DuplicateFindings,
    find_duplicate_works,
    noise_per_char,
    remove_repeated_chapters,
)

__all__ = [
    "BookFacts",
    "ChapterMatches",
    "Cluster",
    "CopyMap",
    "DuplicateFindings",
    "Member",
    "RepeatedChapter",
    "find_duplicate_works",
    "noise_per_char",
    "remove_repeated_chapters",
    "select_avoiding_copies",
]
