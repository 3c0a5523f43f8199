"""en, en-web and gutenberg rules on hand-written (synthetic) texts."""

from __future__ import annotations

from lengthwise.builders.cleaning import RULES_BY_NAME, clean_text, select_rulesets
from lengthwise.spec import CleaningConfig

BODY = "\n\n".join(f"Paragraph {i} of the story, where the hero walks on." for i in range(40))

NEW_STYLE_PG = (
    "The Project Gutenberg EBook of A Tale, by Some Author\n\n"
    "This eBook is for the use of anyone anywhere at no cost.\n\n"
    "*** START OF THIS PROJECT GUTENBERG EBOOK A TALE ***\n\n\n\n\n"
    "Produced by Jane Doe and the Online Distributed\nProofreading Team at http://www.pgdp.net\n\n\n"
    "A TALE\n\nCHAPTER I.\n\n" + BODY + "\n\nThe end.\n\n"
    "End of the Project Gutenberg EBook of A Tale, by Some Author\n\n"
    "*** END OF THIS PROJECT GUTENBERG EBOOK A TALE ***\n\n"
    "***** This file should be named 12345.txt *****\nSection 1. General Terms of Use\n"
)

OLD_STYLE_PG = (
    "Project Gutenberg's Etext of A Tale\n\n"
    "**Welcome To The World of Free Plain Vanilla Electronic Texts**\n\n"
    "**START**THE SMALL PRINT!**FOR PUBLIC DOMAIN ETEXTS**START**\nlicence text\n"
    "*END*THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*\n\n\n"
    "This etext was prepared by John Smith.\n\n\nA TALE\n\n" + BODY + "\n\nThe end.\n\n"
    "End of Project Gutenberg's Etext of A Tale\n"
)


def apply(name: str, text: str) -> tuple[str, int]:
    outcome = RULES_BY_NAME[name].apply(text)
    return outcome.text, outcome.count


def test_new_style_gutenberg_header_footer_and_credits_are_cut() -> None:
    result = clean_text(NEW_STYLE_PG, "en", CleaningConfig())
    assert "gutenberg" in result.rulesets
    assert result.text == "A TALE\n\nCHAPTER I.\n\n" + BODY + "\n\nThe end.\n"
    assert {k: v for k, v in result.removed.items() if k.startswith("gutenberg/")} == {
        "gutenberg/header": 1,
        "gutenberg/footer": 1,
        "gutenberg/produced-by": 1,
    }


def test_old_style_small_print_licence_is_cut() -> None:
    result = clean_text(OLD_STYLE_PG, "en", CleaningConfig())
    assert result.text == "A TALE\n\n" + BODY + "\n\nThe end.\n"
    assert result.removed["gutenberg/header"] == 1
    assert result.removed["gutenberg/footer"] == 1
    assert result.removed["gutenberg/produced-by"] == 1


def test_a_marker_quoted_mid_book_does_not_cut_the_story() -> None:
    text = BODY + "\n\nEnd of the Project Gutenberg EBook, she read aloud.\n\n" + BODY + "\n"
    assert apply("gutenberg/footer", text) == (text, 0)
    assert apply("gutenberg/header", text) == (text, 0)


def test_wrapped_story_line_starting_with_produced_by_is_kept() -> None:
    text = "A TALE\n\nThe noise\nproduced by the servants was great.\n\n" + BODY
    assert apply("gutenberg/produced-by", text) == (text, 0)


def test_transcriber_notes_bracketed_and_as_a_section() -> None:
    text = (
        "TITLE\n\n\n\nOriginal Transcriber's Notes:\n\nThis text combines two etexts.\n\n"
        "We replaced the pound sign.\n\n\n\nCHAPTER 1\n\nStory [Transcriber's Note: typo fixed] "
        "goes on.\n"
    )
    cleaned, count = apply("en/transcriber-note", text)
    assert count == 2
    assert "etexts" not in cleaned and "pound" not in cleaned and "typo" not in cleaned
    assert "CHAPTER 1\n\nStory  goes on.\n" in cleaned


def test_illustrations_alone_on_lines_or_inline() -> None:
    text = (
        "CHAPTER I.\n\n[Illustration: The hero at\nhis desk.]\n\nHe sat down.\n\n[Illustration]\n\n"
        "She came [Illustration: a cat] in.\n"
    )
    assert apply("en/illustration", text) == ("CHAPTER I.\n\nHe sat down.\n\nShe came in.\n", 3)


def test_footnotes_bodies_and_markers_but_not_stage_directions() -> None:
    text = (
        "He said it twice.[1] Then twice[A] more.\n\n[Footnote 1: An editor's remark.]\n\n"
        "[Applausive titter.] [1] stays: it is not glued to a word.\n"
    )
    cleaned_body, bodies = apply("en/footnote-text", text)
    cleaned, markers = apply("en/footnote-marker", cleaned_body)
    assert (bodies, markers) == (1, 2)
    assert cleaned == (
        "He said it twice. Then twice more.\n\n"
        "[Applausive titter.] [1] stays: it is not glued to a word.\n"
    )


def test_underscore_emphasis_keeps_the_words() -> None:
    text = "She was _very_ sure, _quite\ncertain_ of it; snake_case_name and __init__ stay.\n"
    assert apply("en/underscore-emphasis", text) == (
        "She was very sure, quite\ncertain of it; snake_case_name and __init__ stay.\n",
        2,
    )


def test_en_web_rules_and_their_auto_selection() -> None:
    text = (
        "Chapter 12: The Duel\n\nTranslator: Foo  Editor: Bar\n\n"
        "A/N: Sorry for the late chapter!\n\nThe duel began at dawn.\n\n"
        "Support me on Patreon for advance chapters!\n\n"
        "Read the latest chapters at novelsite.com\n\nThere was discord among the brothers.\n"
    )
    assert "en-web" in select_rulesets("en", "files", text)
    assert "en-web" not in select_rulesets("en", "files", BODY)
    result = clean_text(text, "en", CleaningConfig())
    assert result.text == (
        "Chapter 12: The Duel\n\nThe duel began at dawn.\n\nThere was discord among the brothers.\n"
    )
    assert {k: v for k, v in result.removed.items() if k.startswith("en-web/")} == {
        "en-web/credit-line": 1,
        "en-web/author-note": 1,
        "en-web/support-plea": 1,
        "en-web/site-advert": 1,
    }
