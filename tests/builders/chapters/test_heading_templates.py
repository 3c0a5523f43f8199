"""Plays: heading templates learned from the book, speaker labels and directions kept.

A held-out play came out with 11 "chapters" headed by speaker labels (`1 Citizen.`)
instead of its 24 scenes, 54 stage directions removed as learned boilerplate and 9 speaker
labels removed as repeated headings. ACT and SCENE are in no list of heading words: the
scenes are found as a line shape that recurs with a counter, starting again at one under
each act (`chapters/templates.py`). Written against A Doll's House (Gutenberg 2542),
Hamlet (Gutenberg 1524 as saved in AigulBulatova/hamlet) and Les Précieuses ridicules
(Gutenberg 5318); the plays here are Pride and Prejudice's chapters printed as scenes, with
speeches in the shapes those plays print them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.chapters import detect_chapters
from lengthwise.builders.chapters.model import DetectedChapter
from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.cleaning.repeated_headings import repeated_heading_edits
from lengthwise.records import Book
from lengthwise.spec import CleaningConfig
from tests.fixtures.reprinting import processed, read_shared, with_text

ROMAN = ["I", "II", "III", "IV", "V"]


def _bodies(shared_corpora: Path, count: int) -> list[str]:
    doc = read_shared(shared_corpora, "en_pg_stripped", "pride_and_prejudice.txt")
    return [c.text.strip() for c in processed(doc).chapters[:count]]


def _speeches(body: str, labels: list[str], direction: str) -> str:
    """The chapter's paragraphs as speeches under labels taking turns, a direction
    after every fourth."""
    paragraphs = [p for p in body.split("\n\n") if p.strip()]
    out = []
    for index, paragraph in enumerate(paragraphs):
        out.append(f"{labels[index % len(labels)]}\n{paragraph}")
        if index % 4 == 3:
            out.append(direction)
    return "\n\n".join(out)


def _play(shared_corpora: Path) -> tuple[str, list[str], list[str]]:
    """Three acts of four scenes, with a contents list and dramatis personae."""
    bodies = _bodies(shared_corpora, 12)
    contents = "\n".join(f"ACT {ROMAN[a]}. Scene {ROMAN[s]}." for a in range(3) for s in range(4))
    text = f"THE PLAY\n\nCONTENTS\n\n{contents}\n\n\nDRAMATIS PERSONAE\n\nELIZABETH.\nDARCY.\n\n\n"
    headings = []
    for act in range(3):
        text += f"ACT {ROMAN[act]}\n\n\n"
        for scene in range(4):
            heading = f"SCENE {ROMAN[scene]}.--A ROOM AT LONGBOURN"
            headings.append(heading)
            body = bodies[4 * act + scene]
            text += f"{heading}\n\n{body}\n\n\n"
    return text, headings, bodies


def test_scenes_under_acts_are_the_chapters(shared_corpora: Path) -> None:
    text, headings, bodies = _play(shared_corpora)
    doc = read_shared(shared_corpora, "en_pg_stripped", "pride_and_prejudice.txt")
    book = processed(with_text(doc, text))
    assert [c.heading for c in book.chapters] == headings
    assert [c.part for c in book.chapters] == [
        f"ACT {ROMAN[a]}" for a in range(3) for _ in range(4)
    ]
    assert [c.number for c in book.chapters] == [1, 2, 3, 4] * 3
    assert [c.text.strip() for c in book.chapters] == bodies


def test_an_act_line_that_opens_its_first_scene(shared_corpora: Path) -> None:
    """Hamlet as Gutenberg 1524 prints it: `ACT I. Scene I.`, then `Scene II.`."""
    bodies = _bodies(shared_corpora, 6)
    text = "HAMLET\n\n\n"
    for act in range(2):
        for scene in range(3):
            heading = f"ACT {ROMAN[act]}. Scene I." if scene == 0 else f"Scene {ROMAN[scene]}."
            text += f"{heading}\nA room in the castle.\n\n{bodies[3 * act + scene]}\n\n\n"
    detection = detect_chapters(text, "en")
    assert [c.heading.split("\n")[0] for c in detection.chapters] == [
        f"Scene {ROMAN[s]}." for _ in range(2) for s in range(3)
    ]
    assert [c.part for c in detection.chapters] == ["ACT I."] * 3 + ["ACT II."] * 3


def test_ordinal_acts_with_speaker_labels_and_directions_kept(shared_corpora: Path) -> None:
    """The Importance of Being Earnest's shape: `FIRST ACT`, labels alone on their line,
    bracketed directions; Les Précieuses ridicules' framed labels (`- Mascarille -`)."""
    bodies = _bodies(shared_corpora, 3)
    labels = ["ALGERNON.", "JACK.", "- Lady Bracknell -", "1 Citizen."]
    text = "THE PLAY\n\n\n"
    for act, word in enumerate(["FIRST", "SECOND", "THIRD"]):
        text += f"{word} ACT\n\n\n{_speeches(bodies[act], labels, '[Exit.]')}\n\n\n"
    doc = read_shared(shared_corpora, "en_pg_stripped", "pride_and_prejudice.txt")
    book = processed(with_text(doc, text))
    assert [c.heading for c in book.chapters] == ["FIRST ACT", "SECOND ACT", "THIRD ACT"]
    for line in [*labels, "[Exit.]"]:
        assert _lines(book, line) == text.count(f"\n{line}\n"), line


def test_learned_boilerplate_never_takes_a_play_line(shared_corpora: Path) -> None:
    """Cleaning alone: a cast's labels and the directions recur like furniture."""
    bodies = _bodies(shared_corpora, 6)
    labels = ["- Mascarille -", "- Madelon -", "- Cathos -", "- Gorgibus -"]
    text = "\n\n\n".join(
        f"Scene {ROMAN[i % 5]}\n\n{_speeches(b, labels, '(Aside.)')}" for i, b in enumerate(bodies)
    )
    cleaned = clean_text(text, "en", CleaningConfig()).text
    for line in [*labels, "(Aside.)"]:
        assert cleaned.count(f"\n{line}\n") == text.count(f"\n{line}\n"), line


def test_furniture_in_brackets_and_navigation_lines_still_go(shared_corpora: Path) -> None:
    """The guard is for a play's lines only: a site's boxed line and its navigation block
    (name-shaped lines, but always together and never trading turns) stay furniture."""
    bodies = _bodies(shared_corpora, 8)
    furniture = "Previous Chapter\nTable of Contents\nNext Chapter"
    text = "\n\n".join(
        f"Chapter {i + 1}\n\n[Page Top]\n\n{b}\n\n{furniture}" for i, b in enumerate(bodies)
    )
    cleaned = clean_text(text, "en", CleaningConfig()).text
    assert "Next Chapter" not in cleaned and "[Page Top]" not in cleaned


@pytest.mark.parametrize(
    "labels", [["1 Citizen.", "2 Citizen."], ["FIRST CITIZEN.", "SECOND CITIZEN."]]
)
def test_numbered_speakers_are_no_headings(shared_corpora: Path, labels: list[str]) -> None:
    """`1 Citizen.` / `2 Citizen.` count, but the count never goes on: no template."""
    bodies = _bodies(shared_corpora, 5)
    text = "\n\n\n".join(
        f"ACT {ROMAN[i]}\n\n{_speeches(b, [*labels, 'ROMEO.'], '[Exeunt.]')}"
        for i, b in enumerate(bodies)
    )
    detection = detect_chapters(text, "en")
    assert [c.heading for c in detection.chapters] == [f"ACT {r}" for r in ROMAN]


def _lines(book: Book, line: str) -> int:
    return sum(f"\n{c.text}\n".count(f"\n{line}\n") for c in book.chapters)


def test_repeated_heading_removal_never_takes_a_speaker() -> None:
    """Defence in depth: chapters a detector headed with a speaker label (`1 Citizen.`,
    as the held-out play's were) are no pages of one another; their lines stay."""
    speech = "Why, then, the world's mine oyster, which I with sword will open. " * 5
    text = "".join(
        f"1 Citizen.\nSpeech {n}. {speech}\n\n2 Citizen.\nAnswer {n}. {speech}\n\n"
        for n in range(3)
    )
    starts = [i for i in range(len(text)) if text.startswith("1 Citizen.", i)]
    chapters = [
        DetectedChapter(
            heading="1 Citizen.",
            number=1,
            title="Citizen",
            text=text[start + 10 : stop],
            start=start,
            end=stop,
        )
        for start, stop in zip(starts, [*starts[1:], len(text)], strict=True)
    ]
    assert repeated_heading_edits(text, chapters) == ([], [])
