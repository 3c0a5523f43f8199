"""Partial editions are found; distinct books (with their shared boilerplate) are not."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import pytest

from lengthwise.builders.corpus import CorpusSettings, process_corpus
from lengthwise.builders.duplicates import find_duplicate_works
from lengthwise.builders.duplicates.signatures import compute_signatures, jaccard
from lengthwise.builders.sources.local import SourceFailure, read_local
from lengthwise.records import Book
from lengthwise.spec import ChaptersConfig, CleaningConfig, DuplicatesConfig
from tests.builders.duplicates.corpus_files import EN, ZH, byte_copy, partial_edition

pytestmark = pytest.mark.slow


def _books(*paths: Path) -> list[Book]:
    docs = [d for p in paths for d in read_local(p, None) if not isinstance(d, SourceFailure)]
    settings = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())
    found = process_corpus(docs, settings, [], cache_dir=None, workers=2)
    return [book for book, _ in found if book is not None]


def test_an_edition_with_60_percent_of_the_chapters_is_a_partial_duplicate(
    shared_corpora: Path, tmp_path: Path
) -> None:
    full = byte_copy(shared_corpora / ZH / "sanguo_utf8.txt", tmp_path / "books" / "sanguo.txt")
    partial_edition(full, tmp_path / "books" / "sanguo_72.txt", "第七十三回")
    byte_copy(shared_corpora / ZH / "shuihu_utf8.txt", tmp_path / "books" / "shuihu.txt")
    books = {b.id: b for b in _books(tmp_path / "books")}
    assert len(books["sanguo_72"].chapters) == 72
    findings = find_duplicate_works(list(books.values()), DuplicatesConfig(), tmp_path / "cache")
    assert len(findings.clusters) == 1
    cluster = findings.clusters[0]
    assert cluster.id == "sanguo"  # the most complete copy is kept
    (member,) = cluster.others
    assert member.book_id == "sanguo_72" and member.kind == "partial duplicate"
    # Every chapter of the smaller edition matches despite the edits; the books as wholes
    # are not near duplicates (the edition lacks 40 % of the text).
    assert member.matched_chapters >= 70 and member.chapter_share >= 0.95
    assert 0.4 < member.similarity < DuplicatesConfig().near_threshold
    assert findings.dropped == {"sanguo_72": member.reason("sanguo")}


def test_distinct_books_form_no_cluster_and_are_far_apart(shared_corpora: Path) -> None:
    books = _books(shared_corpora / ZH, shared_corpora / EN)
    assert len(books) == 10
    findings = find_duplicate_works(books, DuplicatesConfig(), None)
    assert findings.clusters == [] and findings.repeated_chapters == []
    signatures = {b.id: compute_signatures(b, 5, 128) for b in books}
    for a, b in itertools.combinations(sorted(signatures), 2):
        sa, sb = signatures[a], signatures[b]
        assert jaccard(sa.book, sb.book) < 0.05, (a, b)
        closest = max(jaccard(x, y) for x in sa.chapters for y in sb.chapters)
        assert closest < 0.1, (a, b, closest)


def test_gutenberg_licence_and_headers_do_not_make_raw_books_similar(
    shared_corpora: Path,
) -> None:
    """Held out while writing the rules: four raw Gutenberg files, licence text included."""
    books = _books(shared_corpora / "en_pg_raw")
    assert len(books) == 4
    findings = find_duplicate_works(books, DuplicatesConfig(), None)
    assert findings.clusters == []


def test_a_shared_licence_chapter_does_not_link_distinct_books(shared_corpora: Path) -> None:
    """Boilerplate left in two books matches as one chapter, which is no duplicate work."""
    raw = (shared_corpora / "en_pg_raw" / "pg1184.txt").read_text(encoding="utf-8-sig")
    licence = raw[raw.index("*** END OF") :]
    books = _books(
        shared_corpora / EN / "alice_in_wonderland.txt", shared_corpora / EN / "sherlock.txt"
    )
    for book in books:
        last = book.chapters[-1]
        book.chapters.append(replace(last, index=last.index + 1, text=licence, sha256=""))
        book.chapters[-1].__post_init__()
    findings = find_duplicate_works(books, DuplicatesConfig(), None)
    assert findings.clusters == []
    signatures = [compute_signatures(b, 5, 128) for b in books]
    assert jaccard(signatures[0].chapters[-1], signatures[1].chapters[-1]) > 0.9
