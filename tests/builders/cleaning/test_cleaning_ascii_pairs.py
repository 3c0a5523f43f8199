"""`zh/ascii-quote-pairs`: ASCII stand-ins for CJK quote pairs, learned per book.

Written against 红楼梦 only; 三国演义 (planted) and 西游记 (negative) were held out.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.cleaning.ascii_pairs import NAME, repair_ascii_pairs
from lengthwise.spec import CleaningConfig

ZH = "zh_simplified_four_classics"
BETWEEN_CJK = re.compile(r"(?<=[\u4e00-\u9fff，。．：“”])[`^|>\-]+(?=[\u4e00-\u9fff，。．：“”])")


def private_copy(shared: Path, tmp_path: Path, name: str) -> str:
    copy = tmp_path / Path(name).name
    shutil.copyfile(shared / name, copy)
    return copy.read_text(encoding="utf-8").replace("\r\n", "\n")


@pytest.mark.slow
def test_hongloumeng_quote_pairs_are_learned_and_repaired(shared_corpora: Path) -> None:
    raw = (shared_corpora / ZH / "hongloumeng_utf8.txt").read_text(encoding="utf-8")
    raw = raw.replace("\r\n", "\n")
    result = clean_text(raw, "zh", CleaningConfig())
    learned = {line.line: line for line in result.learned if line.rule == NAME}
    assert set(learned) == {"`…- → ‘…’", "《…>> → 《…》"}
    assert result.removed[NAME] == sum(line.count for line in learned.values())
    # The examples of the issue, repaired; no backtick is left anywhere.
    assert "诸如这些‘西厢’‘琵琶’以及‘元人" in result.text
    assert "谓‘团圆之节’，想尊兄" in result.text
    assert "《西厢记》中" in result.text
    assert "`" not in result.text
    assert not [m for m in BETWEEN_CJK.finditer(result.text) if "`" in m.group()]


@pytest.mark.slow
def test_hongloumeng_narrative_is_unchanged_character_for_character(shared_corpora: Path) -> None:
    raw = (shared_corpora / ZH / "hongloumeng_utf8.txt").read_text(encoding="utf-8")
    raw = raw.replace("\r\n", "\n")
    outcome = repair_ascii_pairs(raw)
    before = raw.replace(">>", "》")  # the only change of length (6 in the book)
    assert len(before) == len(outcome.text)
    changed = [(a, b) for a, b in zip(before, outcome.text, strict=True) if a != b]
    assert set(changed) == {("`", "‘"), ("-", "’")}
    assert raw.count("`") == outcome.text.count("‘") - raw.count("‘")
    assert len(changed) + raw.count(">>") == outcome.count
    # Closers are only the dashes that close a quote: most dashes, not all.
    closers = outcome.text.count("’") - raw.count("’")
    assert 0.8 * raw.count("`") < closers < raw.count("-")


def plant_pairs(text: str, every: int, start: int = 50_000) -> tuple[str, str, int]:
    """`^…|` around two ideographs at every `every`-th line; also the expected repair."""
    lines = text.split("\n")
    planted, expected = list(lines), list(lines)
    count = 0
    for i in range(start // 40, len(lines), every):
        line = lines[i]
        match = re.search(r"[，。](?=[\u4e00-\u9fff]{2}[\u4e00-\u9fff，。])", line)
        if match is None:
            continue
        at = match.end()
        planted[i] = f"{line[:at]}^{line[at : at + 2]}|{line[at + 2 :]}"
        expected[i] = f"{line[:at]}‘{line[at : at + 2]}’{line[at + 2 :]}"
        count += 1
    return "\n".join(planted), "\n".join(expected), count


def test_a_planted_pair_is_learned_and_repaired(shared_corpora: Path, tmp_path: Path) -> None:
    clean = private_copy(shared_corpora, tmp_path, f"{ZH}/sanguo_utf8.txt")
    planted, expected, count = plant_pairs(clean, every=40)
    assert count >= 20
    outcome = repair_ascii_pairs(planted)
    assert outcome.text == expected
    assert outcome.count == 2 * count
    (line,) = outcome.learned
    assert (line.rule, line.line, line.count) == (NAME, "^…| → ‘…’", 2 * count)
    assert "‘" in outcome.examples[0] and "^" in outcome.examples[0]


def test_too_few_planted_pairs_learn_nothing(shared_corpora: Path, tmp_path: Path) -> None:
    clean = private_copy(shared_corpora, tmp_path, f"{ZH}/sanguo_utf8.txt")
    planted, _, count = plant_pairs(clean, every=2_000)
    assert 0 < count < 10
    assert repair_ascii_pairs(planted).count == 0


def test_legitimate_ascii_in_chinese_text_learns_nothing(
    shared_corpora: Path, tmp_path: Path
) -> None:
    text = private_copy(shared_corpora, tmp_path, f"{ZH}/xiyouji_utf8.txt")[:300_000]
    paragraphs = text.split("\n\n")
    legit = [
        "第3-5回里他穿着T-shirt，发了e-mail。",  # ranges and English words
        "首页|书库|排行|书架",  # a separator run (symmetric, never a pair)
        "他叫作-诗疯子-，又叫-诗呆子-。",  # symmetric dashes
        "唵嘛呢叭[口迷]吽，{注}见前。",  # real ASCII brackets
        "A<B>C，x=1+2，50%的人。",
    ]
    for i in range(1, 60):
        paragraphs.insert(i * 20, legit[i % len(legit)])
    outcome = repair_ascii_pairs("\n\n".join(paragraphs))
    assert (outcome.count, outcome.learned) == (0, ())


def test_english_books_never_run_the_rule(shared_corpora: Path) -> None:
    text = (shared_corpora / "en_pg_stripped" / "moby_dick.txt").read_text(encoding="utf-8")
    result = clean_text(text[:200_000], "en", CleaningConfig())
    assert NAME not in result.removed
    assert repair_ascii_pairs("“Call me Ishmael-`he said`-and `so on-.”" * 50).count == 0
