"""Summary lengths count characters where words are not spaced (issue 36: Japanese)."""

from __future__ import annotations

from lengthwise.releases.release.subset_rows import summary_length


def test_japanese_summaries_are_measured_in_characters_like_chinese() -> None:
    summary = "三四郎は東京へ出て、美禰子に出会う。"
    assert summary_length(summary, "ja") == len(summary) == summary_length(summary, "zh")
    assert summary_length("Sanshiro goes to Tokyo.", "en") == 4
