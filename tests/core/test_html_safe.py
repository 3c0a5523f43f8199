"""Data and text go into HTML one way (lengthwise.html_safe), and nothing else writes scripts."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest

from lengthwise.html_safe import escape, inline_script, json_script, paragraphs, script_json

ROOT = Path(__file__).resolve().parents[2]
AREAS = ("lengthwise", "builders", "annotation", "releases", "evaluation")
HOME = Path("lengthwise/html_safe.py")
HOSTILE = [
    "<!--<script>",
    "</script><script>alert(1)</script>",
    "\u2028\u2029",
    "&lt;b&gt;",
    "]]><!-- -->",
    "</SCRIPT >",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_script_json_is_inert_in_html_and_parses_back(text: str) -> None:
    value = {"answer": text, "nested": [text, {"k": text}]}
    encoded = script_json(value)
    for character in ("<", ">", "&", "\u2028", "\u2029"):
        assert character not in encoded
    assert json.loads(encoded) == value
    element = json_script("data", value)
    assert element.startswith('<script id="data" type="application/json">')
    assert element.count("<") == 2 and element.endswith("</script>")


def test_escape_and_paragraphs_leave_no_markup() -> None:
    assert escape('"><img src=x onerror=alert(1)>') == (
        "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"
    )
    assert escape("it's &lt;") == "it&#x27;s &amp;lt;"
    assert paragraphs("one <b>\n\n two\u2028three") == (
        "<p>one &lt;b&gt;</p>\n<p>two</p>\n<p>three</p>"
    )


@pytest.mark.parametrize("code", ["a = '</script>'", "b = '<!--'", "c = '<SCRIPT>'"])
def test_inline_script_refuses_code_that_could_leave_its_element(code: str) -> None:
    with pytest.raises(ValueError, match="inline script"):
        inline_script(code)


def test_no_module_but_html_safe_writes_a_script_element() -> None:
    offenders = []
    for area in AREAS:
        for folder, _, files in os.walk(ROOT / area):  # symlinked area folders not followed
            for name in files:
                path = (Path(folder) / name).relative_to(ROOT)
                if not name.endswith(".py") or path == HOME:
                    continue
                tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
                offenders += [
                    f"{path}:{node.lineno}"
                    for node in ast.walk(tree)
                    if isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and "<script" in node.value.lower()
                ]
    assert offenders == [], "embed data with lengthwise.html_safe.json_script"
