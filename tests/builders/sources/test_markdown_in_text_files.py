"""A `.txt` file written as Markdown (`## Chapter 1`): once every heading hid behind its `#`
and the book was excluded ("no chapter headings found"). Written against a Pride and
Prejudice copy; tested on Alice and Tom Sawyer."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.sources.formats import markdown_headings
from lengthwise.builders.sources.local import read_local_file
from lengthwise.records import SourceDocument
from tests.fixtures.reprinting import processed, read_shared, reprint_headings


@pytest.mark.parametrize("name", ["alice_in_wonderland.txt", "tom_sawyer.txt"])
def test_markdown_headings_in_a_text_file(shared_corpora: Path, tmp_path: Path, name: str) -> None:
    doc = read_shared(shared_corpora, "en_pg_stripped", name)
    original = processed(doc)
    marked = reprint_headings(doc, original, lambda c: "## " + c.heading.split("\n")[0])
    path = tmp_path / name
    path.write_text(marked.text, encoding="utf-8")
    read = read_local_file(path)
    assert isinstance(read, SourceDocument)
    assert any("read as Markdown" in warning for warning in read.warnings)
    book = processed(read)
    assert [c.number for c in book.chapters] == [c.number for c in original.chapters]
    assert [c.text for c in book.chapters] == [c.text for c in original.chapters]


def test_a_stray_hash_line_is_not_markdown(tmp_path: Path) -> None:
    text = "# not a heading\n\nA story.\n\n# nor this\n\nThe end.\n"
    path = tmp_path / "story.txt"
    path.write_text(text, encoding="utf-8")
    read = read_local_file(path)
    assert isinstance(read, SourceDocument)
    assert read.text.replace("\r\n", "\n") == text and not read.warnings


def test_markdown_headings_counts_heading_lines_only() -> None:
    text = "# a\n## b\ntext # c\n   ### d\n    #### indented code\n#no-space\n"
    assert markdown_headings(text) == 3
    assert markdown_headings("no hash at all\n") == 0
