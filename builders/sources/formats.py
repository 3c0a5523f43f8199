"""Markup formats -> plain text: HTML/XHTML and Markdown (EPUB lives in `epub.py`).

Library: BeautifulSoup 4 with the `lxml` parser (libxml2: fast, tolerant of broken web pages,
and it understands XHTML self-closing tags such as ``<title/>`` that would swallow a page under
an HTML5 parser). Markdown is read as text; only ATX heading markers are removed so that
headings stay plain lines for chapter detection - no Markdown library is needed for that.

HTML block structure becomes line structure: paragraphs and headings are separated by a blank
line, other blocks (div, li, tr) and ``<br>`` end a line; whitespace inside a line collapses as
a browser would (except in ``<pre>``). script/style/nav and ruby annotations are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from bs4 import BeautifulSoup
from bs4.dammit import EncodingDetector
from bs4.element import CData, NavigableString, Tag

from lengthwise.builders.sources.decoding import DecodedText, decode_bytes, decode_declared

__all__ = [
    "HtmlText",
    "decode_markup",
    "html_to_text",
    "markdown_headings",
    "markdown_to_text",
    "primary_language",
]

# Elements whose content is not book text.
_DROPPED = frozenset(
    {"script", "style", "nav", "noscript", "template", "head", "iframe", "svg", "rt", "rp"}
)
# Separators emitted at block boundaries, resolved to newlines after whitespace collapsing.
_PARAGRAPH = "\x1e"  # blank line
_LINE = "\x1f"  # line break, idempotent (nested divs give one break)
_BREAK = "\x1d"  # <br>: each one counts, so <br><br> gives a blank line
_PARAGRAPH_TAGS = frozenset(
    {"p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "section", "article"}
    | {"header", "footer", "aside", "main", "figure", "table", "ul", "ol", "dl", "hr", "body"}
)
_LINE_TAGS = frozenset(
    {"div", "li", "dt", "dd", "tr", "caption", "figcaption", "address", "center", "title"}
)
_CELL_TAGS = frozenset({"td", "th"})
_SPACES = re.compile(r"[ \t\n\r\f\v]+")
_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_LINE_BREAK = re.compile(rf"(?<=[{_CJK}])[ \t\r\f\v]*\n[ \t\n\r\f\v]*(?=[{_CJK}])")
_SEPARATOR_RUN = re.compile(r"[ \x1d\x1e\x1f]*[\x1d\x1e\x1f][ \x1d\x1e\x1f]*")
_EDGE_SPACES = " \t\u00a0"
_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


@dataclass
class HtmlText:
    """Text of an HTML document plus what its markup says about it."""

    text: str
    title: str | None = None
    language: str | None = None  # primary subtag of <html lang>, e.g. "zh"
    warnings: list[str] = field(default_factory=list)


def decode_markup(data: bytes, name: str, declared: str | None = None) -> DecodedText:
    """Decode HTML/XHTML bytes: a declared charset (HTTP header, <meta>, XML declaration) wins,
    otherwise the encoding is detected."""
    declared = declared or EncodingDetector.find_declared_encoding(data[:8192], is_html=True)
    if declared:
        return decode_declared(data, declared, name)
    return decode_bytes(data, name)


def html_to_text(markup: str, anchors: Mapping[str, str] | None = None) -> HtmlText:
    """Plain text of an HTML document with its block structure kept as line breaks.

    `anchors` maps element ids to marker strings inserted where that element starts
    (used to split an EPUB file at its table-of-contents anchors).
    """
    soup = BeautifulSoup(markup, "lxml")
    title = _title_of(soup)
    language = None
    html = soup.find("html")
    if isinstance(html, Tag):
        lang = html.get("lang") or html.get("xml:lang")
        if isinstance(lang, str) and lang.strip():
            language = primary_language(lang)
    text = _resolve_separators(_collect_text(soup, anchors or {}))
    return HtmlText(text=text, title=title, language=language)


def markdown_to_text(text: str) -> tuple[str, str | None]:
    """Markdown as plain text with heading markers removed; returns (text, first h1 or None)."""
    lines = text.split("\n")
    title: str | None = None
    in_fence = False
    for number, line in enumerate(lines):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        heading = _ATX_HEADING.match(line)
        if heading:
            lines[number] = (heading.group(1) or "").strip()
            if title is None and line.lstrip().startswith("# ") and lines[number]:
                title = lines[number]
    return "\n".join(lines), title


# A plain-text file with this many `#` heading lines was written as Markdown.
MARKDOWN_HEADINGS_IN_TEXT = 3
_ATX_WITH_TEXT = re.compile(r" {0,3}#{1,6}[ \t]+\S")
# A literal newline first: sre jumps from line to line instead of trying `^` everywhere.
_ATX_AFTER_NEWLINE = re.compile(r"\n {0,3}#{1,6}[ \t]+\S")


def markdown_headings(text: str) -> int:
    """How many lines of `text` are Markdown `#` headings with text (`## Chapter 1`); a book
    never starts a line with `#` and a space otherwise."""
    if "#" not in text:  # most books: one C scan
        return 0
    first = 1 if _ATX_WITH_TEXT.match(text) else 0
    return first + sum(1 for _ in _ATX_AFTER_NEWLINE.finditer(text))


def primary_language(tag: str) -> str:
    """'zh-Hans-CN' -> 'zh', 'en_US' -> 'en'."""
    return re.split(r"[-_]", tag.strip(), maxsplit=1)[0].lower()


def _title_of(soup: BeautifulSoup) -> str | None:
    """The <h1> when the <title> merely adds a site name to it, else <title>, else <h1>."""
    title, heading = (_text_of(soup.find(tag)) for tag in ("title", "h1"))
    if title and heading and heading in title:
        return heading
    return title or heading


def _text_of(element: object) -> str | None:
    if not isinstance(element, Tag):
        return None
    return " ".join(element.get_text(" ").split()) or None


def _collect_text(soup: BeautifulSoup, anchors: Mapping[str, str]) -> str:
    """Text and block separators in document order.

    Iterative, not recursive: deeply nested web pages would overflow Python's recursion limit.
    """
    pieces: list[str] = []
    # Stack items: a node to visit, or a string to emit when a block closes.
    stack: list[object] = [soup]
    pre_depth = 0
    while stack:
        item = stack.pop()
        if isinstance(item, str) and not isinstance(item, NavigableString):
            if item == "</pre>":
                pre_depth -= 1
            else:
                pieces.append(item)
            continue
        if isinstance(item, NavigableString):
            if type(item) is NavigableString or type(item) is CData:
                # Inside <pre> line breaks are content; elsewhere they are layout whitespace.
                pieces.append(str(item).replace("\n", _BREAK) if pre_depth else str(item))
            continue
        if not isinstance(item, Tag):
            continue
        name = item.name
        if name in _DROPPED:
            continue
        element_id = item.get("id")
        marker = anchors.get(element_id) if isinstance(element_id, str) else None
        if name == "br":
            pieces.append(_BREAK)
            continue
        separator = _PARAGRAPH if name in _PARAGRAPH_TAGS else _LINE if name in _LINE_TAGS else None
        if separator:
            pieces.append(separator)
            stack.append(separator)
        elif name in _CELL_TAGS:
            stack.append(" ")
        if marker:
            pieces.append(marker)
        if name == "pre":
            pre_depth += 1
            stack.append("</pre>")
        stack.extend(reversed(item.contents))
    return "".join(pieces)


def _resolve_separators(raw: str) -> str:
    # A source line break between two CJK characters is layout, not a word space.
    collapsed = _SPACES.sub(" ", _CJK_LINE_BREAK.sub("", raw))

    def newlines(match: re.Match[str]) -> str:
        run = match.group(0)
        count = run.count(_BREAK)
        if _PARAGRAPH in run:
            count = max(count, 2)
        elif _LINE in run:
            count = max(count, 1)
        return "\n" * min(count, 2)

    text = _SEPARATOR_RUN.sub(newlines, collapsed)
    lines = [line.strip(_EDGE_SPACES) for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")
