"""Audits combined from cached per-chapter pieces equal the full-text audit, record for record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from lengthwise.builders.audit import audit_sample
from lengthwise.builders.audit.piece_cache import PieceStore
from lengthwise.builders.audit.reuse import audit_rows
from lengthwise.builders.audit.stage import PIECES_FILE, read_audits
from lengthwise.builders.build import run_build
from lengthwise.builders.samples import sample_row
from lengthwise.records import Book, Chapter, Sample
from lengthwise.spec import AuditConfig, SubsetSpec, load_spec

CONFIG = AuditConfig(repeated_line_min=2, toc_run_min=2, snippets_per_class=5)


def book(language: str, chapters: list[tuple[str, str]]) -> Book:
    return Book(
        id="b",
        title="t",
        language=language,
        source="s",
        raw_sha256="0",
        encoding="utf-8",
        chapters=[
            Chapter("b", i, heading, i + 1, "", text) for i, (heading, text) in enumerate(chapters)
        ],
    )


def every_run(b: Book) -> list[Sample]:
    subset = SubsetSpec(name="S", target=10, lower=1, upper=100, count=1)
    n = len(b.chapters)
    return [
        sample_row(b, first, last, subset, {"chars": 1}, "chars")
        for first in range(n)
        for last in range(first, n)
    ]


def assert_same_as_full_text(b: Book, tmp_path: Path) -> list[dict[str, Any]]:
    rows = every_run(b)
    expected = [audit_sample(r, CONFIG).to_dict() for r in rows]
    for attempt in ("cold", "cached"):  # pieces computed, then read back from SQLite
        store = PieceStore(tmp_path / PIECES_FILE)
        got = [a.to_dict() for a in audit_rows(rows, {b.id: b}, CONFIG, store)]
        store.close()
        assert got == expected, attempt
    return expected


def test_findings_that_depend_on_neighbouring_chapters(tmp_path: Path) -> None:
    ad = "Read it on www.example.com today"
    b = book(
        "en",
        [
            # `5` is a page marker unless, as here, a heading of the same sample
            # a weak term ("licence") at the end, its strong term in the next chapter
            ("CHAPTER I.", "He walked.\n\n5\n\nRunning Head\n\nIt was late. Under the licence"),
            ("CHAPTER II.", "Project Gutenberg text.\n\nRunning Head\n\n12\n\nCHAPTER III."),
            # the page-marker-like line `12` is not a heading; the line equal to the next
            # chapter's heading is not a repeated line; the heading ends a contents run
            ("CHAPTER III.", f"{ad}\n\nRunning Head\n\nIV. Home\n\nV. Away"),
            ("CHAPTER IV.", "The end came. Ｗｗｗ．ｅｘａｍｐｌｅ．ｃｏｍ"),
            ("5", "Mail me at a．b．com please, said he.Me"),
        ],
    )
    expected = assert_same_as_full_text(b, tmp_path)
    whole = expected[len(b.chapters) - 1]  # chapters 0..n-1
    for kind in ("url", "copyright", "repeated_line", "toc_run", "page_marker"):
        assert whole["counts"][kind] >= 1, kind  # the book exercises every combination rule


def test_chinese_chapters(tmp_path: Path) -> None:
    b = book(
        "zh",
        [
            ("第一回", "话说天下大势。\n本站首发\n第二回"),
            ("第二回", "小说网更新最快。首页|原创书库|言情|武侠\n宝玉?黛玉\n第12页"),
            ("第三回 一个很长很长很长很长很长很长很长很长很长很长很长很长的标题", "□□话说。"),
        ],
    )
    assert_same_as_full_text(b, tmp_path)


def test_a_term_across_a_join_falls_back_to_the_text(tmp_path: Path) -> None:
    b = book("en", [("CHAPTER I.", "He read the terms"), ("of use", "and signed.")])
    expected = assert_same_as_full_text(b, tmp_path)
    assert expected[1]["counts"]["copyright"] + expected[1]["counts"]["site"] >= 1


@pytest.mark.slow
def test_shared_corpus_build_and_rebuild_audits_match_full_text(
    shared_corpora: Path, tmp_path: Path
) -> None:
    spec_file = tmp_path / "spec.toml"
    sources = "".join(
        f'[[sources]]\nkind = "files"\npath = "{shared_corpora / folder}"\nglob = "*.txt"\n'
        for folder in ("zh_simplified_four_classics", "en_pg_raw")
    )
    spec_file.write_text(
        'name = "reuse"\nlanguage = "auto"\n'
        + sources
        + '[tokenizers]\nprimary = "chars"\n'
        + "[cleaning]\nrulesets = []\nlearned_boilerplate = false\n"
        + "[audit]\nrepeated_line_min = 2\ntoc_run_min = 2\nsnippets_per_class = 5\n"
        + '[[subsets]]\nname = "S"\ntarget = 8000\nlower = 6000\nupper = 10000\ncount = 40\n'
        + '[[subsets]]\nname = "M"\ntarget = 40000\nlower = 30000\nupper = 50000\ncount = 12\n',
        encoding="utf-8",
    )
    spec = load_spec(spec_file)
    work = tmp_path / "w"
    for policy in ("first-fit", "closest"):  # cold build, then a sampling-only rebuild
        changed = spec.model_copy(
            update={"sampling": spec.sampling.model_copy(update={"policy": policy})}
        )
        run_build(changed, work, progress=False)
        rows = [
            r
            for p in sorted((work / "samples").glob("*.parquet"))
            for r in pq.read_table(p).to_pylist()
        ]
        expected = {
            r["id"]: audit_sample(Sample.from_row(r, "test"), spec.audit).to_dict() for r in rows
        }
        got = {a.id: a.to_dict() for a in read_audits(work)}
        assert got == expected
        assert sum(a["total"] for a in got.values()) > 0
