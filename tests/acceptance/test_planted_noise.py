"""One instance of each noise class planted into a real book: all removed, counted, story intact.

A copy of the shared Scarlet Letter (raw Gutenberg, hard-wrapped, chapters `I.` + title)
gets, at once: a site signature line before every chapter heading, a page marker every
2,000 characters, a 6-line disclaimer block, a footnote block with its marker, and a
wrapped paragraph. Through the whole corpus stage (cleaning, chapters), each plant must be
removed (or, for the paragraph, unwrapped) and counted, and every chapter must read
exactly as it does in the book without the plants.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from lengthwise.builders.corpus import CorpusSettings, process_document
from lengthwise.builders.sources.local import read_local_file
from lengthwise.records import Book, SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig

SIGNATURE = "Scanned and proofread by the Old Harbour E-Texts team (www.oldharbour-etexts.net)"
DISCLAIMER = """DISCLAIMER: This electronic edition is provided for personal use only.
The publisher makes no warranty as to the accuracy of the text and
accepts no liability for errors. All rights in the illustrations are
reserved by their respective copyright holders. Reproduction of this
file for commercial purposes requires the written permission of the
publisher and of the copyright holders, 1998."""
FOOTNOTE = "[9] The cup was of pewter, as the\nhouse-keeping of the jail required."
PARAGRAPH = (
    "The wharf was quiet that morning, and the clerks who came down the long street one "
    "after another found the doors of the old building shut, the windows dim with the salt "
    "of a hundred winters, and nobody at all to tell them why the Surveyor had not come."
)
HEADING = re.compile(r"(?m)^ +[IVXL]+\.\n")
STORY_START = "A throng of bearded men"


def _process(path: Path) -> tuple[Book, dict[str, int]]:
    document = read_local_file(path)
    assert isinstance(document, SourceDocument)
    book, report = process_document(
        document, CorpusSettings("en", CleaningConfig(), ChaptersConfig())
    )
    assert book is not None, report.excluded
    return book, report.removed


def _plant(raw: str) -> tuple[str, int]:
    """The raw book with every plant; the number of page markers planted."""
    story, end = raw.index(STORY_START), raw.index("*** END OF THE PROJECT GUTENBERG")
    head, body, tail = raw[:story], raw[story:end], raw[end:]
    # Signature lines before every chapter heading of the story.
    body = HEADING.sub(lambda m: f"{SIGNATURE}\n\n{m.group()}", body)
    # One page marker at the paragraph break after every 2,000 characters.
    pieces, markers, last = [], 0, 0
    for match in re.finditer(r"\n\n(?=[A-Z“])", body):
        if match.start() - last >= 2000:
            markers += 1
            pieces += [body[last : match.start()], f"\n\n- {100 + markers} -"]
            last = match.start()
    body = "".join([*pieces, body[last:]])
    # A disclaimer, a footnote block with its marker, a wrapped paragraph, mid-story.
    anchor = body.index("\n\nHe presented the cup to Hester")
    wrapped = textwrap.fill(PARAGRAPH, width=68)
    body = body[:anchor] + f"\n\n{DISCLAIMER}\n\n{wrapped}" + body[anchor:]
    # The footnote follows the paragraph that carries its marker, as printed books have it.
    body = body.replace("the cup to Hester, who", "the cup to Hester,[9] who", 1)
    after = body.index("\n\n", body.index("Hester,[9]"))
    body = body[:after] + f"\n\n{FOOTNOTE}" + body[after:]
    return head + body + tail, markers


@pytest.mark.slow
def test_every_planted_noise_class_is_removed_counted_and_the_story_kept(
    shared_corpora: Path, tmp_path: Path
) -> None:
    raw = (shared_corpora / "en_pg_raw" / "pg25344.txt").read_text(encoding="utf-8")
    original = tmp_path / "original" / "scarlet.txt"
    planted = tmp_path / "planted" / "scarlet.txt"
    for path in (original, planted):
        path.parent.mkdir()
    original.write_text(raw, encoding="utf-8")
    noisy, markers = _plant(raw)
    assert markers >= 100 and noisy.count(SIGNATURE) == 23  # before chapters II-XXIV
    planted.write_text(noisy, encoding="utf-8")

    base, base_removed = _process(original)
    book, removed = _process(planted)

    def added(rule: str) -> int:
        return removed.get(rule, 0) - base_removed.get(rule, 0)

    assert added("learned/page-marker") == markers
    assert added("learned/boilerplate-line") + added("en-web/credit-line") == 23
    assert added("en/notice-block") == 1
    assert added("en/footnote-block") + added("en/footnote-text") == 1
    assert added("en/footnote-marker") == 1
    wrapped_lines = textwrap.fill(PARAGRAPH, width=68).count("\n")
    assert added("common/unwrap-paragraphs") == wrapped_lines

    # Chapter by chapter, the planted book reads as the original (the paragraph aside).
    assert [c.heading for c in book.chapters] == [c.heading for c in base.chapters]
    for chapter, expected in zip(book.chapters, base.chapters, strict=True):
        text = chapter.text.replace(PARAGRAPH + "\n\n", "", 1)
        assert text == expected.text, chapter.heading
    story = "\n".join(c.text for c in book.chapters)
    assert PARAGRAPH in story
    for gone in ("oldharbour", "warranty", "The cup was of pewter", "[9]", "- 150 -"):
        assert gone not in story
