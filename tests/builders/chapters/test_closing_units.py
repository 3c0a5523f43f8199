"""Letters numbered by bare numerals, then the narrator's CONCLUSION: a unit of its own.

Lady Susan's form (41 letters headed `I` … `XLI`, then `CONCLUSION`) printed with Pride and
Prejudice's chapters; before, the conclusion stayed inside the last letter. A closing
line in capitals with fewer blank lines above it than the headings have (a letter's own
`POSTSCRIPT`-like line, a speaker's name) stays in the text.
"""

from __future__ import annotations

from pathlib import Path

from lengthwise.builders.chapters import detect_chapters
from tests.fixtures.reprinting import processed, read_shared

ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII"]


def _bodies(shared_corpora: Path) -> list[str]:
    doc = read_shared(shared_corpora, "en_pg_stripped", "pride_and_prejudice.txt")
    return [c.text.strip() for c in processed(doc).chapters[:9]]


def test_conclusion_after_numbered_letters_is_a_unit(shared_corpora: Path) -> None:
    bodies = _bodies(shared_corpora)
    text = "LADY SUSAN\n\n\n\n" + "".join(
        f"{numeral}\n\n{body}\n\n\n\n" for numeral, body in zip(ROMAN, bodies, strict=False)
    )
    text += f"CONCLUSION\n\n{bodies[8]}\n"
    detection = detect_chapters(text, "en")
    assert [c.heading for c in detection.chapters] == [*ROMAN, "CONCLUSION"]
    assert [c.text.strip() for c in detection.chapters] == bodies
    assert detection.numbers == [1, 2, 3, 4, 5, 6, 7, 8, None]


def test_a_capitals_line_spaced_like_text_stays(shared_corpora: Path) -> None:
    bodies = _bodies(shared_corpora)
    text = "\n\n\n\n".join(f"{n}\n\n{b}" for n, b in zip(ROMAN, bodies, strict=False))
    text += f"\n\nTHE END OF THE LETTER\n\n{bodies[8]}\n"
    detection = detect_chapters(text, "en")
    assert [c.heading for c in detection.chapters] == ROMAN


def test_a_signature_initial_is_no_chapter_one_hundred(shared_corpora: Path) -> None:
    """`C. VERNON.` signing the last letter read as a bare `C.` (100) after letter VIII:
    it is the letter's signature (a single roman letter worth 50 or more, far past the
    count), and the CONCLUSION after it is found again."""
    bodies = _bodies(shared_corpora)
    text = "\n\n\n\n".join(f"{n}\n\n{b}" for n, b in zip(ROMAN, bodies, strict=False))
    text += f"\n\nC. VERNON.\n\n\n\nCONCLUSION\n\n{bodies[8]}\n"
    detection = detect_chapters(text, "en")
    assert [c.heading for c in detection.chapters] == [*ROMAN, "CONCLUSION"]
    assert detection.chapters[7].text.endswith("C. VERNON.")
    assert detection.gaps == []
