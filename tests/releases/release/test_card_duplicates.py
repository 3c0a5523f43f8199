"""The card's corpus section lists duplicate books with their reasons."""

from __future__ import annotations

from lengthwise.builders.duplicates import Cluster, DuplicateFindings, Member, RepeatedChapter
from lengthwise.releases.release.card_duplicates import duplicate_books_lines


def _findings(keep: str) -> DuplicateFindings:
    kept = Member("xiyouji", "西游记", 100, "kept", 1.0, 1.0, 0)
    copy = Member("xiyouji_big5", "西遊記", 100, "near duplicate", 0.97, 1.0, 100)
    repeat = RepeatedChapter("sanguo", 39, "第三十九回", 38, "第三十八回", 1.0)
    return DuplicateFindings(keep, [Cluster("xiyouji", kept, (copy,))], [repeat])


def test_dropped_copies_are_listed_with_the_reason() -> None:
    lines = "\n".join(duplicate_books_lines(_findings("one").to_dict()))
    assert (
        "| xiyouji_big5 | xiyouji | 0.97 | 100 (100%) | dropped: duplicate of xiyouji "
        "(similarity 0.97, 100 chapters match, 100% of the smaller book; near duplicate) |"
    ) in lines
    assert "sanguo #39 repeats #38" in lines


def test_kept_copies_are_listed_as_kept_and_nothing_without_duplicates() -> None:
    lines = duplicate_books_lines(_findings("all").to_dict())
    assert any(line.endswith("| kept |") for line in lines)
    assert duplicate_books_lines(DuplicateFindings("one").to_dict()) == []
