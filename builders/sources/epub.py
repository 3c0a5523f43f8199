"""EPUB -> text, metadata and the book's own table of contents.

Library: `ebooklib` reads the container, OPF metadata, spine and TOC (EPUB 3 nav document,
or the EPUB 2 NCX when there is no nav); each spine document goes through the HTML extractor
in `formats`.

Text is the linear spine documents in reading order (the nav document itself is left out: its
list of titles would duplicate every chapter heading), less the front matter the package
names as such (landmarks, guide, `epub:type`: `epub_front_matter`), so a title or copyright
page never becomes chapter 1; the documents left out are named in the warnings.

Each TOC entry's text runs from its target to the next entry's target in reading order.
Targets with a fragment (``ch.xhtml#s2``) split inside a file; a fragment that names no
element falls back to the start of its file, with a warning.
"""

from __future__ import annotations

import io
import posixpath
import re
import warnings
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import ebooklib
from ebooklib import epub

from lengthwise.builders.sources.epub_front_matter import front_matter_files
from lengthwise.builders.sources.errors import SourceError
from lengthwise.builders.sources.formats import decode_markup, html_to_text, primary_language
from lengthwise.limits import LimitExceeded, check_archive
from lengthwise.records import TocEntry

# Private-use characters bracket entry markers: they never occur in extracted book text.
_MARKER = re.compile("\ue000(\\d+)\ue001")


@dataclass
class EpubDocument:
    text: str
    title: str | None = None
    author: str | None = None
    language: str | None = None  # primary subtag of dc:language, e.g. "zh"
    toc: list[TocEntry] = field(default_factory=list)
    encoding: str = "utf-8"
    undecodable_bytes: int = 0
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Target:
    title: str
    file: str
    fragment: str | None


def read_epub(data: bytes, name: str) -> EpubDocument:
    """Read an EPUB from its bytes; `SourceError` (key "bad-epub") if it cannot be read,
    key "too-large" if it would inflate beyond the archive limits (lengthwise.limits)."""
    try:
        check_archive(data, name)  # before ebooklib inflates every member
    except LimitExceeded as exc:
        raise SourceError(name, str(exc).removeprefix(f"{name}: "), "too-large") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ebooklib warns about its own future defaults
            book = epub.read_epub(io.BytesIO(data), {"ignore_ncx": True})
    except Exception as exc:  # ebooklib raises bare KeyError/IndexError/lxml errors on bad input
        reason = f"not a readable EPUB ({type(exc).__name__}: {exc})"
        raise SourceError(name, reason, "bad-epub") from None
    result = EpubDocument(text="")
    result.title = _metadata(book, "title", name, result.warnings)
    result.author = _metadata(book, "creator", name, result.warnings, joiner=", ")
    language = _metadata(book, "language", name, result.warnings)
    result.language = primary_language(language) if language else None

    documents = _spine_documents(book, name, result.warnings)
    if not documents:
        raise SourceError(name, "EPUB has no readable documents in its spine", "bad-epub")
    targets = _toc_targets(book.toc, set(documents))
    marked = _marked_text(documents, targets, name, result)
    segments = _MARKER.split(marked)
    # segments = [front matter, id0, text0, id1, text1, ...] in reading order
    result.text = _tidy("".join(segments[0::2]))
    pairs = zip(segments[1::2], segments[2::2], strict=True)
    texts = {int(marker): _tidy(text) for marker, text in pairs}
    result.toc = [
        TocEntry(title=target.title, text=texts[number])
        for number, target in enumerate(targets)
        if texts.get(number)
    ]
    if not result.text:
        raise SourceError(name, "EPUB contains no text", "bad-epub")
    return result


def _metadata(
    book: Any, key: str, name: str, notes: list[str], joiner: str | None = None
) -> str | None:
    try:
        values = [str(value).strip() for value, _ in book.get_metadata("DC", key) if value]
    except (KeyError, TypeError, ValueError) as exc:
        notes.append(f"{name}: unreadable dc:{key} metadata ({exc})")
        return None
    values = [value for value in values if value]
    if not values:
        return None
    return joiner.join(values) if joiner else values[0]


def _spine_documents(book: Any, name: str, notes: list[str]) -> dict[str, bytes]:
    """Linear spine XHTML documents in reading order, keyed by their path inside the OPF folder."""
    documents: dict[str, bytes] = {}
    for idref, linear in book.spine:
        item = book.get_item_with_id(idref)
        if item is None:
            notes.append(f"{name}: spine entry {idref!r} names no manifest item; skipped")
            continue
        if linear == "no" or isinstance(item, epub.EpubNav):
            continue
        if item.get_type() != ebooklib.ITEM_DOCUMENT:
            continue
        documents[posixpath.normpath(unquote(item.get_name()))] = item.get_content()
    front = front_matter_files(book, list(documents), _match_file)
    if front and len(front) < len(documents):
        left_out = "; ".join(f"{file} ({reason})" for file, reason in front.items())
        notes.append(f"{name}: front matter left out of the text: {left_out}")
        documents = {file: content for file, content in documents.items() if file not in front}
    return documents


def _toc_targets(toc: list[Any], spine_files: set[str]) -> list[_Target]:
    """Flatten the nested TOC (depth first = reading order of titles) into resolved targets."""
    targets: list[_Target] = []

    def visit(entries: Any) -> None:
        for entry in entries:
            if _is_section(entry):
                section, children = entry
                add(getattr(section, "title", ""), getattr(section, "href", None))
                visit(children)
            elif isinstance(entry, tuple | list):
                visit(entry)
            else:
                add(getattr(entry, "title", ""), getattr(entry, "href", None))

    def add(title: str | None, href: str | None) -> None:
        if not href:
            return
        path, _, fragment = href.partition("#")
        file = _match_file(posixpath.normpath(unquote(path)), spine_files)
        if file is not None:
            targets.append(_Target(" ".join((title or "").split()), file, fragment or None))

    visit(toc)
    return targets


def _is_section(entry: Any) -> bool:
    """ebooklib nests a section as (Section, [children]); a plain list is just a group."""
    return (
        isinstance(entry, tuple | list)
        and len(entry) == 2
        and not isinstance(entry[0], tuple | list)
        and isinstance(entry[1], tuple | list)
    )


def _match_file(path: str, spine_files: set[str]) -> str | None:
    if path in spine_files:
        return path
    # NCX hrefs are relative to the NCX file, which may sit in another folder than the OPF.
    matches = [f for f in spine_files if f.endswith("/" + path) or path.endswith("/" + f)]
    return matches[0] if len(matches) == 1 else None


def _marked_text(
    documents: dict[str, bytes], targets: list[_Target], name: str, result: EpubDocument
) -> str:
    """All spine text with a marker where each TOC target starts."""
    parts: list[str] = []
    for file, content in documents.items():
        here = [(n, t) for n, t in enumerate(targets) if t.file == file]
        at_start = [n for n, t in here if t.fragment is None]
        anchors: dict[str, str] = {}
        for number, target in here:
            if target.fragment is not None:
                anchors.setdefault(target.fragment, "")
                anchors[target.fragment] += _marker(number)
        where = f"{name}!{file}"
        try:
            decoded = decode_markup(content, where)
        except SourceError:
            continue  # an empty page (cover placeholder, blank separator) holds no text
        result.warnings.extend(decoded.warnings)
        result.undecodable_bytes += decoded.undecodable_bytes
        if decoded.encoding not in ("utf-8", "utf-8-sig"):
            result.encoding = decoded.encoding
        text = html_to_text(decoded.text, anchors).text
        for fragment, markers in anchors.items():
            if markers not in text:
                result.warnings.append(
                    f"{where}: TOC anchor #{fragment} not found; its entry starts at the file start"
                )
                at_start.extend(int(n) for n in _MARKER.findall(markers))
        parts.append("".join(_marker(n) for n in sorted(at_start)) + text)
    return "\n\n".join(parts)


def _marker(number: int) -> str:
    return f"\ue000{number}\ue001"


def _tidy(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text).strip()
