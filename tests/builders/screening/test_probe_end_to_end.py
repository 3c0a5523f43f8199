"""`lengthwise probe` end to end: the shared corpora's books through `transformers serve`.

The tiny random model answers nonsense, so no decision is meaningful here; what is checked
is the plumbing a user relies on: every book probed on its seeded chapters, every output
and decision in the report, nothing asked twice.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lengthwise.builders.corpus import CorpusSettings, process_corpus
from lengthwise.builders.screening import choose_chapters, flagged_books
from lengthwise.builders.sources.local import SourceFailure, read_local
from lengthwise.cli import main
from lengthwise.records import Book
from lengthwise.spec import ChaptersConfig, CleaningConfig
from lengthwise.storage import atomic_write_jsonl
from tests.fixtures.llm_server import LocalOpenAIServer

pytestmark = pytest.mark.slow
PER_BOOK = 2


def write_corpus(shared_corpora: Path, work: Path) -> list[dict[str, object]]:
    """WORK/corpus/books.jsonl as the build's corpus stage writes it (no token counts)."""
    folders = [shared_corpora / "zh_simplified_four_classics", shared_corpora / "en_pg_stripped"]
    docs = [
        doc
        for folder in folders
        for doc in read_local(folder, None)
        if not isinstance(doc, SourceFailure)
    ]
    settings = CorpusSettings(language="auto", cleaning=CleaningConfig(), chapters=ChaptersConfig())
    books = [b for b, _ in process_corpus(docs, settings, [], None, workers=1) if b]
    rows = [book.to_dict() for book in books]
    atomic_write_jsonl(work / "corpus" / "books.jsonl", rows)
    return rows


def test_probe_reports_outputs_and_decision_per_book(
    openai_server: LocalOpenAIServer,
    shared_corpora: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    work = tmp_path / "work"
    rows = write_corpus(shared_corpora, work)
    assert len(rows) == 10
    spec = tmp_path / "probe.toml"
    spec.write_text(
        'name = "probe-e2e"\nseed = 3\n'
        f'[[sources]]\nkind = "files"\npath = "{shared_corpora.as_posix()}"\n'
        f'[llm.probe]\nmodel = "{openai_server.model}"\nbase_url = "{openai_server.base_url}"\n'
        "max_tokens = 8\ncontext_window = 1024\nconcurrency = 2\n",
        encoding="utf-8",
    )
    before = openai_server.requests_seen()
    command = ["probe", str(spec), "--work", str(work), "--chapters-per-book", str(PER_BOOK)]
    assert main(command) == 0
    assert "of 10 books flagged" in capsys.readouterr().out
    assert openai_server.requests_seen() - before == 10 * PER_BOOK

    report = json.loads((work / "screening" / "contamination.json").read_text(encoding="utf-8"))
    assert report["status"] == "run" and report["model"] == openai_server.model
    by_id = {str(r["id"]): Book.from_dict(r) for r in rows}
    assert [b["book_id"] for b in report["books"]] == list(by_id)
    for entry in report["books"]:
        book = by_id[entry["book_id"]]
        assert [o["chapter_index"] for o in entry["outputs"]] == choose_chapters(book, PER_BOOK, 3)
        for output in entry["outputs"]:
            assert output["outcome"] in {"ok", "length"} and isinstance(output["text"], str)
            assert output["usage"]["prompt_tokens"] > 0
        assert isinstance(entry["flagged"], bool) and isinstance(entry["reasons"], list)
        assert entry["flagged"] == (entry["book_id"] in report["flagged"])
    assert flagged_books(work) == report["flagged"]
    markdown = (work / "screening" / "contamination.md").read_text(encoding="utf-8")
    assert all(f"| {book_id} |" in markdown for book_id in by_id)

    assert main(command) == 0  # unchanged inputs: nothing asked again
    assert "up to date" in capsys.readouterr().out
    assert openai_server.requests_seen() - before == 10 * PER_BOOK
