"""Disguised site watermarks glued into sentences are learned by their skeleton and
removed wherever they are printed, however separated.

Found in held-out scraped books: `（奇*书*网^.^整*理*提*供）`, `ｗωｗ奇Qisuu書com网`,
`|奇-_-书^_^网|` and `SJTXT小说下载网+sjtxt.Com` survived cleaning (20.8 % of the samples
of those books carried furniture) and the audit filed them as `ascii_symbol` or nothing.
Here they are planted into shared classics at random places inside sentences, half of
the printings with other separators. Written against the first two forms; the last two
and the invented ones below were the held-out check.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.cleaning.watermark_skeletons import clusters, skeleton
from lengthwise.records import Book
from lengthwise.spec import CleaningConfig
from tests.fixtures.reprinting import processed, read_shared, with_text

ZH = "zh_simplified_four_classics"
WRITTEN_AGAINST = ["（奇*书*网^.^整*理*提*供）", "ｗωｗ奇Qisuu書com网"]
HELD_OUT = [
    "|奇-_-书^_^网|",
    "SJTXT小说下载网+sjtxt.Com",
    "【看★书★阁ｗｗｗ.ｋａｎｓｈｕｇｅ.ｌａ】",
    "~顶~点~小~说~",
]
_SEPARATORS = ["*", "^_^", "~", "-", ".", "#", "☆", "", "^.^"]
_INSIDE = re.compile(r"(?<=[\u4e00-\u9fff])(?=[\u4e00-\u9fff])")


def reseparated(form: str, rng: random.Random) -> str:
    """The watermark with each separator run replaced by another one (or none)."""
    return re.sub(r"(?<=\w)(?:[^\w（）【】|]|_)+(?=\w)", lambda _: rng.choice(_SEPARATORS), form)


def plant(text: str, forms: list[str], times: int, seed: int) -> str:
    """`text` with each form glued `times` times between two ideographs of a sentence."""
    rng = random.Random(seed)
    body = text.index("第一回")
    spots = [m.start() for m in _INSIDE.finditer(text, body)]
    chosen = sorted(rng.sample(spots, len(forms) * times), reverse=True)
    printings = [f if i % 2 == 0 else reseparated(f, rng) for f in forms for i in range(times)]
    rng.shuffle(printings)
    for at, printed in zip(chosen, printings, strict=True):
        text = text[:at] + printed + text[at:]
    return text


def _chapters(book: Book) -> list[str]:
    return ["".join(c.text.split()) for c in book.chapters]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "forms", "seed"),
    [
        ("sanguo_utf8.txt", WRITTEN_AGAINST + HELD_OUT[:2], 1),
        ("shuihu_utf8.txt", HELD_OUT, 2),
    ],
)
def test_planted_watermarks_are_gone_after_the_build(
    shared_corpora: Path, name: str, forms: list[str], seed: int
) -> None:
    doc = read_shared(shared_corpora, ZH, name)
    reference = processed(doc)
    planted = plant(doc.text, forms, 12, seed)
    book = processed(with_text(doc, planted))
    # Every chapter reads as the clean build's, character for character (whitespace aside).
    assert _chapters(book) == _chapters(reference)
    skeletons = {skeleton(f) for f in forms}
    left = [c.text for ch in book.chapters for c in clusters(ch.text) if c.skeleton in skeletons]
    assert left == []


def test_a_watermark_naming_a_site_goes_even_once() -> None:
    story = "却说玄德闻言，便与关张二人商议。" * 40
    text = story + "玄德ｗωｗ奇Qisuu書com曰：" + story
    result = clean_text(text, "zh", CleaningConfig())
    assert "Qisuu" not in result.text and "玄德曰：" in result.text
    assert result.removed.get("common/disguised-watermark") == 1


def test_latin_words_and_dates_in_chinese_are_not_watermarks() -> None:
    story = "他穿着T-shirt来见CEO的助理，1998年3月到了上海，买了3-5本书。" * 30
    result = clean_text(story, "zh", CleaningConfig())
    assert "common/disguised-watermark" not in result.removed
