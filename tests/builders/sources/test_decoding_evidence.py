"""Decoding decides on evidence: one NUL byte in a UTF-8 English book once made it decode as
UTF-16BE garbage (the book was then dropped for having no chapter headings). A stray NUL or a
few bad bytes never flip a mostly-UTF-8 book to UTF-16/32; they are replaced and counted."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.sources.decoding import decode_bytes
from lengthwise.builders.sources.local import read_local_file
from lengthwise.records import SourceDocument

BAD = (b"\xff", b"\x80\x81", b"\xc3")  # a lone high byte, stray continuations, a cut lead


def _corrupt(data: bytes) -> bytes:
    """One NUL early (inside the first block the detector samples), bad bytes spread out."""
    step = len(data) // 4
    return (
        data[:200]
        + b"\x00"
        + data[200:step]
        + BAD[0]
        + data[step : 2 * step]
        + BAD[1]
        + data[2 * step : 3 * step]
        + BAD[2]
        + b" "  # keeps the cut lead byte from joining the next character
        + data[3 * step :]
    )


def test_a_nul_and_a_few_bad_bytes_keep_a_utf8_book_utf8(shared_corpora: Path) -> None:
    original = (shared_corpora / "en_pg_stripped" / "war_and_peace.txt").read_bytes()
    decoded = decode_bytes(_corrupt(original), "war_and_peace.txt")
    assert decoded.encoding == "utf-8"
    assert decoded.undecodable_bytes == 1 + sum(len(bad) for bad in BAD)
    assert len(decoded.warnings) == 1
    assert "war_and_peace.txt: 5 undecodable byte(s) (1 of them NUL)" in decoded.warnings[0]
    # Everything else is the book as it was; each bad byte is one U+FFFD where it stood.
    expected = _corrupt(original).decode("utf-8", errors="replace").replace("\x00", "\ufffd")
    assert decoded.text == expected.replace("\r\n", "\n")


def test_a_stray_nul_in_an_ascii_book_is_counted_and_the_book_kept(
    shared_corpora: Path, tmp_path: Path
) -> None:
    original = (shared_corpora / "en_pg_stripped" / "pride_and_prejudice.txt").read_bytes()
    book = tmp_path / "pride_and_prejudice.txt"
    book.write_bytes(original[:150] + b"\x00" + original[150:])
    document = read_local_file(book)
    assert isinstance(document, SourceDocument), document
    assert document.encoding == "utf-8"
    assert document.undecodable_bytes == 1  # the book's record counts it
    assert "Chapter 1" in document.text and "It is a truth universally acknowledged" in (
        document.text
    )


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le"])
def test_bom_less_utf16_and_32_are_still_recognised(codec: str, shared_corpora: Path) -> None:
    text = (shared_corpora / "en_pg_stripped" / "alice_in_wonderland.txt").read_text("utf-8")
    decoded = decode_bytes(text[:20_000].encode(codec), "alice.txt")
    assert decoded.encoding == codec
    assert decoded.text == text[:20_000].replace("\r\n", "\n")
