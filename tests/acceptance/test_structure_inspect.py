"""Issue 12 (structure) through `inspect --json` on the real corpora: every character
accounted for, books without line breaks chaptered, titles and where they came from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main

pytestmark = pytest.mark.slow


def inspect_books(capsys: pytest.CaptureFixture[str], *paths: Path) -> dict[str, dict[str, Any]]:
    assert main(["inspect", *map(str, paths), "--json", "--workers", "1"]) == 0
    books = json.loads(capsys.readouterr().out)["books"]
    return {Path(b["path"]).name: b for b in books}


def test_inspect_accounts_titles_and_flat_books(
    shared_corpora: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    books = inspect_books(
        capsys,
        shared_corpora / "zh_pg_flattened",
        shared_corpora / "en_pg_raw",
        shared_corpora / "en_pg_stripped",
    )
    for name, book in books.items():
        outside = book["outside_chapters"]
        assert outside["text_chars"] == (
            outside["chapter_chars"] + outside["outside_chars"] + outside["separator_chars"]
        ), name
        for span in outside["spans"]:
            assert set(span) == {"kind", "offset", "length", "first_words", "note"}
    assert {n: books[n]["chapters"] for n in books if n.endswith("_flat.txt")} == {
        "fengshen_flat.txt": 100,
        "guanchang_flat.txt": 60,
        "jinghuayuan_flat.txt": 100,
    }
    assert {n: (b["title"], b["title_source"]) for n, b in books.items() if "pg" in n} == {
        "pg1184.txt": ("The Count of Monte Cristo", "gutenberg-header"),
        "pg175.txt": ("The Phantom of the Opera", "gutenberg-header"),
        "pg25344.txt": ("The Scarlet Letter", "gutenberg-header"),
        "pg514.txt": ("Little Women", "gutenberg-header"),
    }
    assert books["war_and_peace.txt"]["title"] == "War and Peace"
    assert books["fengshen_flat.txt"]["title"] == "封神演義"
    assert books["moby_dick.txt"]["chapters"] == 136
    # The Custom-House (before chapter I) is front matter: listed and warned, not lost.
    scarlet = books["pg25344.txt"]
    assert scarlet["outside_chapters"]["spans"][0]["length"] > 80_000
    assert any("outside chapters" in w for w in scarlet["warnings"])


def test_file_name_is_the_last_resort_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = "It was a long day, and the road went on and on into the hills. " * 40
    book = tmp_path / "untitled_notes.txt"
    book.write_text("".join(f"Chapter {n}\n\n{body}\n\n" for n in range(1, 4)), encoding="utf-8")
    entry = inspect_books(capsys, book)["untitled_notes.txt"]
    assert (entry["title"], entry["title_source"]) == ("untitled_notes", "filename")
