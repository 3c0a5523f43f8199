"""`common/html-tag`: markup left in a plain-text book by a careless conversion.

Scraped and converted texts keep tags: `<br>`, `<br />`, `<p>`, `</p>`, `<i>…</i>`,
`<font color=red>`. Only tags of HTML element names are taken (a `<grin>` or a
`<Name>` placeholder is not markup), and only in a book with `MIN_TAGS` of them or
more: one stray `<b>` is more likely text than markup. A tag that breaks the line
(`<br>`, `<p>`, `<div>`, `<hr>`, headings, list items, table rows) becomes a line
break (a paragraph break for paragraph-level ones), unless a line break already stands
beside it; an inline tag (`<i>`, `<span …>`, `<a href=…>`) goes without a trace. Runs
before `common/html-entity`, so an escaped `&lt;i&gt;` stays as the text `<i>`.
"""

from __future__ import annotations

import re
from itertools import islice

from lengthwise.builders.cleaning.rules import Rule

MIN_TAGS = 3
_PARAGRAPH_BREAKING = (
    *("p", "div", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "dl", "dt"),
    *("dd", "tr", "table", "blockquote", "center", "pre"),
)
_INLINE = (
    r"i|b|u|s|em|strong|span|font|a|sup|sub|small|big|tt|cite|code|strike|del|ins|mark|q"
    r"|abbr|img|td|th|tbody|thead|html|body|head|title|meta|section|article|nav|header"
    r"|footer|aside|main|figure|figcaption"
)
_TAG = re.compile(
    rf"</?(?P<name>br|{'|'.join(_PARAGRAPH_BREAKING)}|{_INLINE})"
    r"(?:[ \t]+[^<>\n]*?)?[ \t]*/?>",
    re.IGNORECASE,
)
_BREAKS = {"br": "\n"} | dict.fromkeys(_PARAGRAPH_BREAKING, "\n\n")


def _has_markup(text: str) -> bool:
    return "<" in text and len(list(islice(_TAG.finditer(text), MIN_TAGS))) == MIN_TAGS


def _replacement(match: re.Match[str]) -> str:
    br = _BREAKS.get(match.group("name").lower(), "")
    if not br:
        return ""
    text, start, end = match.string, match.start(), match.end()
    # Beside a line break already (a tag alone on its line, or ending one): no new one.
    if start == 0 or end == len(text) or text[start - 1] == "\n" or text[end] == "\n":
        return ""
    return br


HTML_TAG = Rule(
    name="common/html-tag",
    description=f"HTML tags left by a conversion (<br>, <p>, <i>, <span …>; element names "
    f"only, in a book with {MIN_TAGS} or more) are removed; <br> and paragraph-level tags "
    "become a line or paragraph break where none stands beside them.",
    pattern=_TAG,
    replacement=_replacement,
    triggers=("<",),
    gate=_has_markup,
)
