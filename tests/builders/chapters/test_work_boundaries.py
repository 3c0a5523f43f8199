"""Where a work ends when the next one in the file starts its numbering again."""

from __future__ import annotations

from lengthwise.builders.chapters.work_boundaries import MAX_TITLE_LINES, end_of_work

BODY = "CHAPTER XII\n\nShe woke, and it had all been a dream.\n\n"


def _cut(tail: str, toc: str = "") -> str:
    """What `end_of_work` leaves out of the chapter: from the cut to the next heading."""
    text = BODY + tail + toc + "CHAPTER I\n\nIt began again."
    next_start = text.rindex("CHAPTER I\n")
    toc_starts = [text.index(toc)] if toc else []
    return text[end_of_work(text, len("CHAPTER XII"), next_start, toc_starts) : next_start]


def test_the_title_page_before_the_next_heading_is_cut() -> None:
    assert _cut("THE END\n\n\nTOM SAWYER\n\nBy Mark Twain\n\n") == (
        "THE END\n\n\nTOM SAWYER\n\nBy Mark Twain\n\n"
    )


def test_a_contents_list_and_the_preface_after_it_are_cut() -> None:
    toc = "CHAPTER I. Tom\nCHAPTER II. Huck\n\nPREFACE\n\nMost of these adventures occurred.\n\n"
    assert _cut("TOM SAWYER\n\nCONTENTS\n\n", toc) == "TOM SAWYER\n\nCONTENTS\n\n" + toc


def test_the_work_s_own_last_sentence_stays() -> None:
    assert _cut("") == ""
    assert _cut("“Never,” said she.\n\n") == ""


def test_a_title_page_is_short() -> None:
    lines = "".join(f"Line {i}\n" for i in range(MAX_TITLE_LINES + 3))
    assert _cut(lines).count("\n") == MAX_TITLE_LINES


def test_chinese_title_page() -> None:
    text = (
        "第一百回 结局\n\n从此天下太平。\n\n（全书完）\n\n《西游记》\n吴承恩\n\n"
        "第一回 开端\n\n正文。"
    )
    next_start = text.index("第一回")
    cut = end_of_work(text, len("第一百回 结局"), next_start, [])
    assert text[cut:next_start] == "（全书完）\n\n《西游记》\n吴承恩\n\n"
