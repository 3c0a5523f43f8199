"""Which spine documents of an EPUB are front matter, as the package itself says.

An EPUB names its parts in three places, and any of them decides:

* the EPUB 3 navigation document's landmarks (`<nav epub:type="landmarks">`: links typed
  `titlepage`, `copyright-page`, `cover`, `toc`, `frontmatter`, ..., and `bodymatter`
  where the story starts);
* the EPUB 2 OPF guide (`<reference type="title-page" href=…>`, `copyright-page`,
  `cover`, `toc`, ..., and `text` where the story starts);
* the documents' own semantics: `epub:type="frontmatter"`, `titlepage`,
  `copyright-page`, ... on their `<body>` or first `<section>`.

A document named front matter is left out of the text and the table of contents, and so
is every spine document before the one the landmarks or guide name as the start of the
body. A title page or copyright page thus never becomes chapter 1. (`linear="no"` spine
entries are left out by the reader itself.)
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

# Landmark / guide / epub:type values that mark a document as front matter (EPUB 3
# structural semantics vocabulary and the EPUB 2 guide's reference types).
FRONT_MATTER_TYPES = frozenset(
    {
        "frontmatter", "titlepage", "title-page", "halftitlepage", "copyright-page",
        "copyright", "cover", "toc", "loi", "lot", "colophon", "imprint", "imprimatur",
        "seriespage", "dedication", "epigraph", "acknowledgments", "contributors",
        "other-credits", "errata", "index", "landmarks",
    }
)  # fmt: skip
BODY_START_TYPES = frozenset({"bodymatter", "text"})
_NAV_LANDMARKS = re.compile(
    rb"<nav\b[^>]*epub:type\s*=\s*[\"'][^\"']*\blandmarks\b[^\"']*[\"'][^>]*>(.*?)</nav>",
    re.DOTALL | re.IGNORECASE,
)
_LINK = re.compile(rb"<a\b([^>]*)>", re.IGNORECASE)
_ATTRIBUTE = re.compile(rb"([\w:-]+)\s*=\s*[\"']([^\"']*)[\"']")
# The first element that can carry a document's own semantics.
_OPENING = re.compile(rb"<(?:body|section)\b([^>]*)>", re.IGNORECASE)
_SEMANTICS_SEARCH_BYTES = 4096


def front_matter_files(
    book: Any, spine_files: list[str], match_file: Callable[[str, set[str]], str | None]
) -> dict[str, str]:
    """Spine documents (paths as in `spine_files`, in reading order) that are front
    matter, each with the reason given (`landmarks: titlepage`, `guide: copyright-page`,
    `epub:type frontmatter`, `before the body start`)."""
    files = set(spine_files)
    found: dict[str, str] = {}
    body_start: str | None = None
    for source, kind, href in [*_landmarks(book), *_guide(book)]:
        file = match_file(posixpath.normpath(unquote(href.partition("#")[0])), files)
        if file is None:
            continue
        if kind in BODY_START_TYPES:
            body_start = body_start or file
        elif kind in FRONT_MATTER_TYPES:
            found.setdefault(file, f"{source}: {kind}")
    for file in spine_files:
        semantics = _own_semantics(book, file)
        if semantics and file not in found:
            found[file] = f"epub:type {semantics}"
    if body_start is not None:
        for file in spine_files[: spine_files.index(body_start)]:
            found.setdefault(file, "before the body start")
        found.pop(body_start, None)  # where the story starts is never front matter
    return found


def _landmarks(book: Any) -> list[tuple[str, str, str]]:
    """(`landmarks`, type, href) of the navigation document's landmark links."""
    import ebooklib

    found: list[tuple[str, str, str]] = []
    for item in book.get_items_of_type(ebooklib.ITEM_NAVIGATION):
        found += _landmark_links(item)
    for item in book.get_items_of_type(ebooklib.ITEM_DOCUMENT):
        if "nav" in (getattr(item, "properties", None) or []) or type(item).__name__ == "EpubNav":
            found += _landmark_links(item)
    return found


def _landmark_links(item: Any) -> list[tuple[str, str, str]]:
    content = item.get_content() or b""
    found: list[tuple[str, str, str]] = []
    nav_folder = posixpath.dirname(item.get_name())
    for nav in _NAV_LANDMARKS.finditer(content):
        for link in _LINK.finditer(nav.group(1)):
            attributes = {k.lower(): v for k, v in _ATTRIBUTE.findall(link.group(1))}
            href = attributes.get(b"href", b"").decode("utf-8", "replace")
            kinds = attributes.get(b"epub:type", b"").decode("utf-8", "replace").split()
            if href and kinds:
                path = posixpath.normpath(posixpath.join(nav_folder, href)) if nav_folder else href
                found += [("landmarks", kind.lower(), path) for kind in kinds]
    return found


def _guide(book: Any) -> list[tuple[str, str, str]]:
    return [
        ("guide", str(entry.get("type") or "").lower(), str(entry.get("href") or ""))
        for entry in getattr(book, "guide", None) or []
        if entry.get("href") and entry.get("type")
    ]


def _own_semantics(book: Any, file: str) -> str | None:
    """The front-matter type a document gives itself on its body or first section."""
    item = book.get_item_with_href(file)
    if item is None:
        return None
    content = (item.get_content() or b"")[:_SEMANTICS_SEARCH_BYTES]
    opening = _OPENING.search(content)
    while opening is not None:
        attributes = {k.lower(): v for k, v in _ATTRIBUTE.findall(opening.group(1))}
        kinds = attributes.get(b"epub:type", b"").decode("utf-8", "replace").lower().split()
        if kinds:
            front = [kind for kind in kinds if kind in FRONT_MATTER_TYPES]
            return " ".join(front) if front else None
        opening = _OPENING.search(content, opening.end())
    return None
