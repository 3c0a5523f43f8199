"""The foundation issue's acceptance checks via `inspect --json` on the real corpora."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lengthwise.cli import main

pytestmark = pytest.mark.slow


def inspect_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["inspect", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def by_file(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {Path(b["path"]).name: b for b in result["books"]}


def test_zh_four_classics(shared_corpora: Path, capsys: pytest.CaptureFixture[str]) -> None:
    books = by_file(
        inspect_json(
            capsys, str(shared_corpora / "zh_simplified_four_classics"), "--tokenizer", "qwen2.5"
        )
    )
    expected = {
        "hongloumeng_utf8.txt": 120,
        "xiyouji_utf8.txt": 100,
        "sanguo_utf8.txt": 120,
        "shuihu_utf8.txt": 120,
    }
    assert {name: b["chapters"] for name, b in books.items()} == expected
    for name, book in books.items():
        assert book["language"] == "zh" and book["encoding"] in {"utf-8", "utf_8"}, name
        assert book["numbers"] == list(range(1, expected[name] + 1)), name
        assert book["gaps"] == [] and book["duplicates"] == [] and book["excluded"] is None, name
        assert book["tokens"] > 0
    # 水浒传's 楔子 sits outside the 120 回: reported as front matter, not lost silently.
    assert books["shuihu_utf8.txt"]["front_matter_headings"][0].startswith("楔子")
    # 西游记's site advert, 三国's watermark and 红楼梦's nav bar are removed and listed.
    assert sum(books["xiyouji_utf8.txt"]["removed"].values()) >= 1
    assert sum(books["sanguo_utf8.txt"]["removed"].values()) >= 2
    assert sum(books["hongloumeng_utf8.txt"]["removed"].values()) >= 1
    examples = json.dumps(books["xiyouji_utf8.txt"]["removed_examples"], ensure_ascii=False)
    assert "shuyaya" in examples
    # Characters per token under Qwen2.5 on these classics (PROBES.md: about 1.20).
    chars = (
        sum((shared_corpora / "zh_simplified_four_classics" / n).stat().st_size for n in books) / 3
    )
    ratio = chars / sum(b["tokens"] for b in books.values())
    assert 1.0 < ratio < 1.4


def test_false_heading_is_not_a_chapter(shared_corpora: Path) -> None:
    from lengthwise.builders.corpus import CorpusSettings, process_document
    from lengthwise.builders.sources.local import read_local
    from lengthwise.spec import ChaptersConfig, CleaningConfig

    (doc,) = list(
        read_local(shared_corpora / "zh_simplified_four_classics" / "hongloumeng_utf8.txt", None)
    )
    book, _ = process_document(doc, CorpusSettings("zh", CleaningConfig(), ChaptersConfig()))  # type: ignore[arg-type]
    assert book is not None
    assert not any(c.heading.startswith("第四回中") for c in book.chapters)
    # The line opens the body of 第五回, recalling what 第四回 told.
    fifth = book.chapters[4]
    assert fifth.number == 5 and fifth.text.lstrip().startswith("第四回中既将")


def test_en_gutenberg_novels(shared_corpora: Path, capsys: pytest.CaptureFixture[str]) -> None:
    books = by_file(inspect_json(capsys, str(shared_corpora / "en_pg_stripped")))
    counts = {name: b["chapters"] for name, b in books.items()}
    assert counts == {
        "pride_and_prejudice.txt": 61,
        "moby_dick.txt": 136,  # 135 chapters plus the epilogue
        "alice_in_wonderland.txt": 12,
        "tom_sawyer.txt": 35,
        "sherlock.txt": 12,
        "war_and_peace.txt": 365,
    }
    assert books["moby_dick.txt"]["numbers"] == list(range(1, 136))
    assert books["moby_dick.txt"]["kinds"][-1] == "epilogue"
    # The file prints "CHAPTER XVI" where XXVI belongs: reported, not silently corrected.
    tom = books["tom_sawyer.txt"]
    assert tom["numbers"] == [*range(1, 26), 16, *range(27, 36)]
    assert tom["gaps"] == [[26, 26]] and tom["duplicates"] == [16]
    assert books["sherlock.txt"]["story_collection"] is True
    for name, book in books.items():
        assert book["language"] == "en", name
        if name != "tom_sawyer.txt":
            assert book["duplicates"] == [] and book["gaps"] == [], name
