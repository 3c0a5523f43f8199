"""The demo corpus's synopses sidecar: what each synthetic chapter narrates, known by construction.

`lengthwise demo-corpus` writes ``corpus/demo_synopses.json`` next to the books: per
book file its sha256 and per printed chapter number the synopsis sentences (the first
event of each paragraph, retold in the book's language). It is labelled synthetic.

`synopses_for_demo_books` is the only way to read it back, and it refuses anything that
is not the demo corpus: every book must come from a folder holding the sidecar, and its
raw bytes must be exactly what the generator writes for the sidecar's seed (the corpus
is regenerated in memory and compared), so a real corpus can never get synthetic
references, not even with a copied or edited sidecar.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from lengthwise.builders.demo_corpus import DemoBook, demo_books, event_synopsis
from lengthwise.errors import UserError
from lengthwise.records import Book
from lengthwise.storage import atomic_write_text

SIDECAR_NAME: Final = "demo_synopses.json"
SIDECAR_FORMAT: Final = "lengthwise-demo-synopses/1"
SYNTHETIC_LABEL: Final = "synthetic reference (demo)"
_NOTICE: Final = (
    "Synthetic chapter synopses written by the lengthwise demo generator from the events it "
    "narrated. They are not human summaries; real builds never use them."
)


class NotDemoCorpusError(UserError):
    """The work dir's corpus is not the synthetic demo corpus."""


def _book_entry(book: DemoBook) -> dict[str, Any]:
    return {
        "file": book.name,
        "sha256": hashlib.sha256(book.data).hexdigest(),
        "language": book.language,
        "chapters": [
            {
                "number": chapter.number,
                "heading": chapter.heading,
                "synopsis": [event_synopsis(e, book.language) for e in chapter.events],
            }
            for chapter in book.chapters
        ],
    }


def sidecar_document(books: Sequence[DemoBook], seed: int) -> dict[str, Any]:
    return {
        "format": SIDECAR_FORMAT,
        "synthetic": True,
        "label": SYNTHETIC_LABEL,
        "notice": _NOTICE,
        "seed": seed,
        "books": [_book_entry(book) for book in books],
    }


def write_synopses(folder: Path, books: Sequence[DemoBook], seed: int) -> Path:
    """Write the sidecar (same bytes for the same seed; untouched when unchanged)."""
    path = folder / SIDECAR_NAME
    text = json.dumps(sidecar_document(books, seed), ensure_ascii=False, indent=1) + "\n"
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        atomic_write_text(path, text)
    return path


def _read_sidecar(path: Path, book_id: str) -> dict[str, Any]:
    if not path.is_file():
        raise NotDemoCorpusError(
            f"book {book_id!r}: no {SIDECAR_NAME} beside its source ({path.parent}); only the "
            "synthetic demo corpus (`lengthwise demo-corpus DIR`) has synthetic references"
        )
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise NotDemoCorpusError(f"{path}: not a readable synopses sidecar: {exc}") from None
    if not isinstance(document, dict) or document.get("format") != SIDECAR_FORMAT:
        raise NotDemoCorpusError(f"{path}: not a {SIDECAR_FORMAT} file")
    if not isinstance(document.get("seed"), int) or document.get("synthetic") is not True:
        raise NotDemoCorpusError(f"{path}: key 'seed' (integer) or 'synthetic': true missing")
    return document


def synopses_for_demo_books(
    books: Sequence[Book],
) -> dict[str, dict[int, list[str]]]:
    """book id -> printed chapter number -> synopsis sentences, for the work dir's books
    (WORK/corpus/books.jsonl). Raises NotDemoCorpusError for any other corpus."""
    if not books:
        raise NotDemoCorpusError("the work dir has no books; run `lengthwise build` first")
    regenerated: dict[int, dict[str, dict[str, Any]]] = {}
    found: dict[str, dict[int, list[str]]] = {}
    for book in books:
        book_id, source = book.id, book.source
        sidecar = _read_sidecar(Path(source).parent / SIDECAR_NAME, book_id)
        seed = int(sidecar["seed"])
        if seed not in regenerated:
            regenerated[seed] = {b.name: _book_entry(b) for b in demo_books(seed)}
        expected = regenerated[seed].get(Path(source).name)
        if expected is None or expected["sha256"] != book.raw_sha256:
            raise NotDemoCorpusError(
                f"book {book_id!r} ({source}) is not a file of the synthetic demo corpus "
                f"(seed {seed}): its bytes differ from what the generator writes"
            )
        listed = [b for b in sidecar.get("books", []) if b.get("file") == expected["file"]]
        if listed != [expected]:
            raise NotDemoCorpusError(
                f"{Path(source).parent / SIDECAR_NAME}: the entry for {expected['file']} is "
                "missing or edited; rerun `lengthwise demo-corpus`"
            )
        found[book_id] = {c["number"]: list(c["synopsis"]) for c in expected["chapters"]}
    return found
