"""Another edition of a work in the corpus is one cluster with it, with its evidence.

Found in held-out books: a second edition of a novel already in the corpus (the same 120
chapters and titles, different wording: per-chapter 5-gram Jaccard 0.37-0.70 after script
folding) was never linked, and both were sampled in every subset. Here the shared 三国演义
is set against itself converted to traditional script with light edits (about one
ideograph in nine replaced: chapters 0.3-0.5 alike, under the chapter threshold) and
against 水浒传 (another work, same form: 120 回).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from lengthwise.builders.corpus import CorpusSettings, process_corpus
from lengthwise.builders.duplicates import find_duplicate_works
from lengthwise.builders.sources.local import SourceFailure, read_local
from lengthwise.records import Book
from lengthwise.spec import ChaptersConfig, CleaningConfig, DuplicatesConfig
from tests.builders.duplicates.corpus_files import ZH, byte_copy

pytestmark = pytest.mark.slow
_HEADING = re.compile(r"^\s*第[一二三四五六七八九十百零〇]+回.*$", re.MULTILINE)
_IDEOGRAPH = re.compile(r"[\u4e00-\u9fff]")


def edited_traditional_edition(source: Path, target: Path, seed: int = 7) -> Path:
    """`source` in traditional script with about one body ideograph in nine replaced by
    another (headings and their titles kept, as another edition prints them)."""
    import opencc

    rng = random.Random(seed)
    text = source.read_text(encoding="utf-8")
    headings = {m.start(): m.end() for m in _HEADING.finditer(text)}
    out, at = [], 0
    for start, end in sorted(headings.items()):
        out.append(_edit(text[at:start], rng))
        out.append(text[start:end])
        at = end
    out.append(_edit(text[at:], rng))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(opencc.OpenCC("s2t").convert("".join(out)), encoding="utf-8")
    return target


def _edit(part: str, rng: random.Random) -> str:
    replacement = "之乃其而也矣焉哉"
    return _IDEOGRAPH.sub(
        lambda m: rng.choice(replacement) if rng.random() < 0.11 else m.group(), part
    )


def _books(folder: Path) -> dict[str, Book]:
    docs = [d for d in read_local(folder, None) if not isinstance(d, SourceFailure)]
    settings = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())
    found = process_corpus(docs, settings, [], cache_dir=None, workers=2)
    return {book.id: book for book, _ in found if book is not None}


def test_another_edition_is_one_cluster_with_its_evidence(
    shared_corpora: Path, tmp_path: Path
) -> None:
    books_dir = tmp_path / "books"
    sanguo = byte_copy(shared_corpora / ZH / "sanguo_utf8.txt", books_dir / "sanguo.txt")
    edited_traditional_edition(sanguo, books_dir / "sanguo_trad.txt")
    byte_copy(shared_corpora / ZH / "shuihu_utf8.txt", books_dir / "shuihu.txt")
    books = _books(books_dir)
    assert len(books["sanguo_trad"].chapters) == len(books["sanguo"].chapters) == 120
    findings = find_duplicate_works(list(books.values()), DuplicatesConfig(), None)
    assert len(findings.clusters) == 1  # 水浒传 stays apart
    cluster = findings.clusters[0]
    assert sorted(cluster.book_ids) == ["sanguo", "sanguo_trad"]
    (member,) = cluster.others
    assert member.kind.startswith("edition: same 120 chapter titles in order")
    assert member.similarity < DuplicatesConfig().near_threshold  # no near duplicate
    assert member.reason(cluster.id) in findings.dropped.values()
    # With keep = "all", sample ranges map across the editions chapter for chapter.
    kept, other = cluster.id, member.book_id
    pair = (min(kept, other), max(kept, other))
    assert cluster.matches[pair].mapped(kept, 10, 19) == set(range(10, 20))


def test_the_aligned_chapters_alone_link_editions_without_titles(
    shared_corpora: Path, tmp_path: Path
) -> None:
    books_dir = tmp_path / "books"
    sanguo = byte_copy(shared_corpora / ZH / "sanguo_utf8.txt", books_dir / "sanguo.txt")
    edited_traditional_edition(sanguo, books_dir / "sanguo_trad.txt")
    books = _books(books_dir)
    untitled = {
        book_id: Book(**{**vars(book), "chapters": [
            type(c)(**{**vars(c), "title": None}) for c in book.chapters
        ]})
        for book_id, book in books.items()
    }  # fmt: skip
    findings = find_duplicate_works(list(untitled.values()), DuplicatesConfig(), None)
    (member,) = findings.clusters[0].others
    assert member.kind.startswith("edition: 120 chapters aligned"), member.kind


def test_books_written_from_one_vocabulary_are_not_editions(tmp_path: Path) -> None:
    """The synthetic demo books share their word lists, so any two of their chapters are
    about as alike (0.26-0.36) whatever the pairing: that is no edition (an absolute
    threshold alone dropped three of the six demo books as editions of one another)."""
    from lengthwise.builders.demo_corpus import write_demo_corpus

    write_demo_corpus(tmp_path / "demo")
    books = _books(tmp_path / "demo")
    assert len(books) == 6
    findings = find_duplicate_works(list(books.values()), DuplicatesConfig(), None)
    assert findings.clusters == []
