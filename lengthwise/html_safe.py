"""The one way the project puts text and data into HTML.

Everything that writes HTML (the evaluation viewer, Label Studio task pages and chapter
pages) goes through these helpers, so a book title, a model answer, a reference or a
run name is always text, never markup or script:

- `escape`: a value between tags or inside a quoted attribute (``& < > " '`` escaped);
- `paragraphs`: plain text as ``<p>`` elements, one per non-blank line;
- `json_script`: data for a page's script, as ``<script type="application/json">``
  holding JSON whose ``<``, ``>``, ``&``, U+2028 and U+2029 are written ``\\uXXXX``. The
  HTML parser then never sees ``</script>``, ``<!--`` or ``<script`` inside the block (a
  model answer ``<!--<script>`` used to swallow the viewer's own script), and
  ``JSON.parse(element.textContent)`` gives the data back unchanged;
- `inline_script`: the page's own code (a packaged asset), refused if it could end or
  escape its element.

No other module writes a ``<script`` element (tests/core/test_html_safe.py checks the
sources).
"""

from __future__ import annotations

import html
import json
from typing import Final

# JSON string escapes for what the HTML parser reads inside <script> (and JavaScript's
# two line terminators that JSON allows raw). Outside strings JSON has none of these.
_SCRIPT_ESCAPES: Final = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def escape(value: object) -> str:
    """`value` as HTML text, safe between tags and inside a quoted attribute."""
    return html.escape(str(value), quote=True)


def paragraphs(text: str, separator: str = "\n") -> str:
    """Each non-blank line of `text` as an escaped ``<p>``, joined by `separator` (any
    line break starts a paragraph here: this is display, not a record format)."""
    lines = (line.strip() for line in text.splitlines())
    return separator.join(f"<p>{escape(line)}</p>" for line in lines if line)


def script_json(value: object) -> str:
    """`value` as JSON that is inert inside a ``<script>`` element (see the module doc)."""
    return json.dumps(value, ensure_ascii=False).translate(_SCRIPT_ESCAPES)


def json_script(element_id: str, value: object) -> str:
    """A ``<script type="application/json">`` element holding `value`; read it in the
    page with ``JSON.parse(document.getElementById(element_id).textContent)``."""
    return (
        f'<script id="{escape(element_id)}" type="application/json">{script_json(value)}</script>'
    )


def inline_script(code: str) -> str:
    """The page's own JavaScript in a ``<script>`` element."""
    lowered = code.lower()
    if "</script" in lowered or "<!--" in lowered or "<script" in lowered:
        raise ValueError("inline script contains </script, <script or <!--")
    return f"<script>{code}</script>"
