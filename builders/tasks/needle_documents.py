"""Documents and questions for the needles family (SWiM's layout, or the corpus's chapters).

A folder task set is read as SWiM ships it: question files (`*.json`, an object of
``{"question", "answer", "answer_doc"}`` entries, answer_doc naming a document's file name)
and documents as `.txt` files under the folder (each top-level subfolder a collection,
e.g. SWiM's `data/`) or inside `.tar.gz`/`.tgz`/`.tar` archives (each archive a
collection). A question's distractors come from its answering document's collection.
"""

from __future__ import annotations

import json
import tarfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from lengthwise.builders.joining import render_chapter
from lengthwise.builders.language import detect_language
from lengthwise.errors import InputFileError, MissingInputError
from lengthwise.records import Book
from lengthwise.reports import StageReport

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar")


@dataclass(frozen=True)
class Document:
    id: str  # "<collection>/<file name>", or a chapter's sha256
    collection: str  # distractors come from the same collection
    text: str
    language: str
    book_id: str = ""
    name: str = ""  # the file name a question's answer_doc refers to


@dataclass(frozen=True)
class NeedleQuestion:
    question: str
    answers: list[str]
    document: Document
    key: str  # where it came from: "<question file>#<entry>" or the chapter's sha256
    extra: dict[str, str] = field(default_factory=dict)


def chapter_documents(books: dict[str, Book]) -> list[Document]:
    """Every chapter of the build's books as a document; one collection per language."""
    return [
        Document(
            id=chapter.sha256,
            collection=book.language,
            text=render_chapter(chapter),
            language=book.language,
            book_id=book.id,
            name=f"{book.id}#{chapter.index}",
        )
        for book in books.values()
        for chapter in book.chapters
    ]


def folder_documents(folder: Path, language: str) -> list[Document]:
    """The `.txt` documents of a SWiM-style folder (files and archives), sorted by id."""
    if not folder.is_dir():
        raise MissingInputError(f"{folder}: needles documents folder not found")
    found: dict[str, Document] = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if path.is_file() and path.name.endswith(ARCHIVE_SUFFIXES):
            for name, text in _archive_texts(path):
                collection = _archive_collection(path, name)
                _add(found, collection, PurePosixPath(name).name, text, language)
        elif path.is_file() and path.suffix == ".txt":
            collection = relative.parts[0] if len(relative.parts) > 1 else "."
            _add(found, collection, path.name, _read_text(path), language)
    return [found[key] for key in sorted(found)]


def _add(found: dict[str, Document], collection: str, name: str, text: str, lang: str) -> None:
    doc_id = f"{collection}/{name}"
    language = detect_language(text) if lang == "auto" else lang
    found[doc_id] = Document(doc_id, collection, text.strip(), language, name=name)


def _archive_collection(archive: Path, member: str) -> str:
    parts = PurePosixPath(member).parts
    stem = archive.name
    for suffix in ARCHIVE_SUFFIXES:
        stem = stem.removesuffix(suffix)
    return parts[0] if len(parts) > 1 else stem


def _archive_texts(archive: Path) -> list[tuple[str, str]]:
    texts = []
    try:
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                if not (member.isfile() and member.name.endswith(".txt")):
                    continue
                handle = tar.extractfile(member)
                if handle is not None:
                    texts.append((member.name, _decode(handle.read(), f"{archive}:{member.name}")))
    except (tarfile.TarError, OSError) as exc:
        raise InputFileError(f"{archive}: cannot read the archive: {exc}") from None
    return texts


def _read_text(path: Path) -> str:
    return _decode(path.read_bytes(), str(path))


def _decode(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{where}: not UTF-8 text: {exc}") from None


def folder_questions(
    folder: Path, documents: list[Document], drops: StageReport
) -> list[NeedleQuestion]:
    """Questions of every `*.json` question file in the folder, each with its document;
    a question whose answer_doc is missing (or names files in two collections) is dropped."""
    by_name: dict[str, list[Document]] = {}
    for document in documents:
        by_name.setdefault(document.name, []).append(document)
    questions = []
    for path in sorted(folder.rglob("*.json")):
        for key, entry in _question_entries(path):
            where = f"{path.name}#{key}"
            matches = by_name.get(str(entry["answer_doc"]), [])
            if len(matches) != 1:
                reason = "answer_doc not found" if not matches else "answer_doc in two collections"
                drops.drop(reason, f"{where}: {entry['answer_doc']!r}")
                continue
            questions.append(
                NeedleQuestion(str(entry["question"]), [str(entry["answer"])], matches[0], where)
            )
    return questions


def _question_entries(path: Path) -> list[tuple[str, dict[str, object]]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputFileError(f"{path}: not a JSON question file: {exc}") from None
    items = data.items() if isinstance(data, dict) else enumerate(data)
    entries = []
    for key, entry in items:
        if not isinstance(entry, dict):
            raise InputFileError(f"{path}: entry {key!r}: not an object")
        missing = [k for k in ("question", "answer", "answer_doc") if not entry.get(k)]
        if missing:
            raise InputFileError(f"{path}: entry {key!r}: missing or empty {missing}")
        entries.append((str(key), entry))
    return entries
