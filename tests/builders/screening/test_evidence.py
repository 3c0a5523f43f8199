"""Title/author mentions and unsupported names, the probe's two kinds of evidence."""

from __future__ import annotations

from lengthwise.builders.screening.entities import check_names
from lengthwise.builders.screening.mentions import find_mentions, title_variants


def test_title_and_author_are_found_after_normalisation() -> None:
    chapter = "Ishmael went down to the harbour and met Queequeg."
    found = find_mentions(
        "A scene from MOBY-DICK by H. Melville.",
        chapter,
        "Moby Dick; or, The Whale",
        "Herman Melville",
    )
    assert [(m.kind, m.name) for m in found] == [("title", "Moby Dick"), ("author", "Melville")]
    assert (
        find_mentions("《红楼梦》第三回，作者曹雪芹。", "宝玉见了黛玉。", "红楼梦", "曹雪芹") != []
    )
    assert find_mentions("红 楼 梦 里的一段", "宝玉见了黛玉。", "红楼梦", None)[0].kind == "title"
    # File-name titles read as words.
    assert find_mentions("the pride and prejudice story", "x", "pride_and_prejudice", None)


def test_names_the_chapter_itself_contains_prove_nothing() -> None:
    chapter = "Sherlock Holmes sat in Baker Street reading a letter."
    assert find_mentions("Sherlock Holmes reads a letter.", chapter, "Sherlock Holmes", None) == []
    # Whole words only: "Emma" is not found inside "Emmanuel".
    assert find_mentions("Emmanuel walks home.", "He walks.", "Emma", None) == []


def test_title_variants_drop_subtitles_and_articles_but_not_to_nothing() -> None:
    assert "Lantern Road" in title_variants("The Lantern Road: A Tale")
    assert title_variants("It") == []  # too short to match safely


def test_english_names_outside_the_chapter_are_unsupported() -> None:
    chapter = "Elizabeth walked to Netherfield. Mr. Darcy did not speak to her."
    output = (
        "Elizabeth Bennet walks to Netherfield, where Mr. Darcy ignores her. "
        "Later Colonel Fitzwilliam and Lady Catherine arrive from Rosings. "
        "She is tired."
    )
    result = check_names(output, chapter, "en", ignore=[])
    assert {"Elizabeth Bennet", "Netherfield", "Mr Darcy"} <= set(result.names)
    assert set(result.unsupported) == {"Colonel Fitzwilliam", "Lady Catherine", "Rosings"}
    assert "She" not in result.names and "Later" not in result.names


def test_chinese_names_outside_the_chapter_are_unsupported() -> None:
    chapter = "宝玉同黛玉在园中读书，袭人送茶来。"
    result = check_names("贾宝玉和林黛玉读书，王熙凤与刘姥姥在荣国府说笑。", chapter, "zh", [])
    assert "贾宝玉" in result.names and "贾宝玉" not in result.unsupported
    assert "林黛玉" not in result.unsupported
    assert "刘姥姥" in result.unsupported or "荣国府" in result.unsupported
    assert check_names("《红楼梦》里宝玉读书。", chapter, "zh", ["红楼梦"]).unsupported == []
