"""Volume labels on a chapter's own heading line (`第一卷 风起 第３章：…`), as many sites
print them: the chapters are the same as without the labels, nothing is left dangling at
the end of the previous chapter, and a label that starts a new volume names the part.
Written against a 水浒传 copy; these tests use 西游记, which was not looked at for it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lengthwise.builders.chapters import detect_chapters

_HEADING = re.compile(r"(?m)^第[一二三四五六七八九十百]+回")
_NUMERALS = "零一二三四五六七八九"


def _cn(n: int) -> str:
    return (
        _NUMERALS[n]
        if n < 10
        else f"{_NUMERALS[n // 10] if n >= 20 else ''}十{_NUMERALS[n % 10] if n % 10 else ''}"
    )


def _xiyouji(shared_corpora: Path) -> str:
    path = shared_corpora / "zh_simplified_four_classics" / "xiyouji_utf8.txt"
    return path.read_text(encoding="utf-8").replace("\r\n", "\n")


def _labelled(text: str, label: str, every: int, only_first: bool) -> str:
    """`label` (formatted with the volume number) put before chapter headings."""
    starts = [m.start() for m in _HEADING.finditer(text)]
    pieces, last = [], 0
    for index, start in enumerate(starts):
        if only_first and index % every:
            continue
        pieces += [text[last:start], label.format(_cn(index // every + 1)) + " "]
        last = start
    return "".join(pieces) + text[last:]


@pytest.mark.parametrize("only_first", [False, True])
def test_volume_labels_on_heading_lines(shared_corpora: Path, only_first: bool) -> None:
    plain = _xiyouji(shared_corpora)
    labelled = _labelled(plain, "第{}部 西行", 25, only_first)
    before = detect_chapters(plain, "zh")
    after = detect_chapters(labelled, "zh")
    assert len(after.chapters) == len(before.chapters) == 100
    assert [c.text for c in after.chapters] == [c.text for c in before.chapters]
    assert not after.inner_headings
    assert [c.part for c in after.chapters[::25]] == [f"第{_cn(v)}部 西行" for v in (1, 2, 3, 4)]
