"""Character damage is counted and repaired where a library can, never made punctuation."""

from __future__ import annotations

from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.cleaning.damage import DamageCounts, count_damage
from lengthwise.spec import CleaningConfig

STORY = "话说宝玉听了，便走进房中来，只见黛玉坐在窗下看书。"


def zh(text: str) -> str:
    return clean_text(text, "zh", CleaningConfig()).text


def test_clean_text_has_no_damage() -> None:
    assert count_damage(STORY) == DamageCounts()
    assert count_damage("What? Who?? Why?! And so on...") == DamageCounts()


def test_private_use_and_replacement_characters_are_counted() -> None:
    damage = count_damage("故菩提萨\ue485。又有\ufffd\ufffd字")
    assert (damage.private_use, damage.replacement) == (1, 2)
    assert damage.total == 3


def test_placeholders_are_counted_and_kept_questions_are_not() -> None:
    text = '飞觥限?起来。斟了"点犀?"．又有□□二字。你去那里?"他去吗?我不去。'
    damage = count_damage(text)
    assert damage.placeholders == 4  # 限?起, 犀?", □ □
    cleaned = zh(text)
    assert "飞觥限?起来" in cleaned and '"点犀?"' in cleaned and "□□" in cleaned
    assert '你去那里？"' in cleaned  # a real question becomes full-width


def test_gbk_mojibake_runs_are_counted_not_placeholders() -> None:
    original = "曹嵩要行，陶谦亲送出郭，特差都尉张闿，将部兵五百护送。"
    garbled = original.encode("utf-8").decode("gbk", errors="replace")
    damage = count_damage(STORY + garbled + STORY)
    assert damage.mojibake_runs >= 1 and damage.mojibake_chars >= 10


def test_latin_mojibake_is_repaired_by_ftfy_and_counted() -> None:
    text = "He ordered a cafÃ© au lait and said â€œthank youâ€\x9d.\nA clean line.\n"
    assert count_damage(text).mojibake_runs == 1
    result = clean_text(text, "en", CleaningConfig())
    assert "café au lait" in result.text and "“thank you”" in result.text
    assert result.removed["common/mojibake"] == 1
    assert count_damage(result.text).mojibake_runs == 0


def test_ellipses_and_punctuation_runs_are_never_rewritten() -> None:
    for run in ("．．．", "．．．．．．", "．……", "……．", "。。。", "...", "…"):
        text = f"他说{run}好吧。"
        assert zh(text) == text, run
    assert zh("他说．好吧．") == "他说。好吧。"  # a single full-width dot is a full stop


def test_fast_path_for_text_below_u2300_agrees_with_the_full_scan() -> None:
    # `count_damage` skips the candidate scan when every character is below U+2300; the
    # shared corpora only exercise clean books, so check the edges here against the scan.
    from lengthwise.builders.cleaning import damage

    garbled = "曹嵩要行，陶谦亲送出郭".encode().decode("gbk", errors="replace")
    filler = "Plain prose? Yes — “quoted”, café, naïve.\n" * 2000  # > one 64K chunk
    samples = [
        "",
        "What? Who?? Why?!",
        "Latin-1 only: café, naïve, Ã© and Â here?\n",
        "He said â€œthank youâ€\x9d.\nclean\n",
        "Em dash — curly ’ quotes ∑ U+2211 and ⋯ U+22EF, still below U+2300?",
        "The first damage character: ⌒ U+2312, and Ⓐ, ┣, ア, ５, Ａ.",
        "Private use \ue485 and \U000f0001, replacement \ufffd, marks □■〓.",
        "lone surrogate \udc80 ?",
        "飞觥限?起来。斟了“点犀?”",
        STORY + garbled + STORY,
        filler,
        filler + "□",
        filler + "限?",
        filler + "\ue000",
    ]
    for text in samples:
        assert damage.count_damage(text) == damage._count_scanned(text), text[:40]
    assert damage.count_damage(filler + "□").placeholders == 1
    assert damage.count_damage(filler + "\ue000").private_use == 1
