"""The removal ledger accounts for every character, and cut residue goes too."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.cleaning.ledger import replay
from lengthwise.spec import CleaningConfig, ExtraRule

BOOKS = [
    ("zh_simplified_four_classics/xiyouji_utf8.txt", "zh"),
    ("zh_simplified_four_classics/hongloumeng_utf8.txt", "zh"),
    ("en_pg_raw/pg1184.txt", "en"),
    ("en_pg_raw/pg25344.txt", "en"),  # illustration blocks keeping a heading
    ("en_pg_raw/pg175.txt", "en"),  # footnote blocks
    ("en_pg_stripped/moby_dick.txt", "en"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("relative", "language"), BOOKS)
def test_ledger_rebuilds_the_cleaned_text_from_the_raw_one(
    shared_corpora: Path, relative: str, language: str
) -> None:
    raw = (shared_corpora / relative).read_text(encoding="utf-8")
    traced = clean_text(raw, language, CleaningConfig(), trace=True)
    assert replay(raw, traced.ledger) == traced.text
    # Every rule in the ledger is a counted rule, and the counts add up per rule.
    assert {r.rule for r in traced.ledger} == set(traced.removed)
    for rule, chars in traced.chars_removed.items():
        assert chars == sum(len(r.text) for r in traced.ledger if r.rule == rule)
    plain = clean_text(raw, language, CleaningConfig())
    assert plain.text == traced.text and plain.ledger == []
    assert plain.chars_removed == traced.chars_removed
    removed, added = sum(plain.chars_removed.values()), sum(plain.chars_added.values())
    assert len(raw) - len(plain.text) == removed - added


def test_replay_refuses_a_ledger_of_another_text() -> None:
    traced = clean_text("他说 道。\r\n\r\n\r\n\r\n好的。\n", "zh", CleaningConfig(), trace=True)
    assert replay("他说 道。\r\n\r\n\r\n\r\n好的。\n", traced.ledger) == traced.text
    with pytest.raises(ValueError, match="expected"):
        replay("全然不同的文字。\n" * 3, traced.ledger)


def test_an_advert_cut_leaves_no_bare_site_or_empty_brackets() -> None:
    text = "    他笑道：“好（www.shuyaya.com）。”顶点小说网www.x23us.com他又走了。\n"
    cleaned = clean_text(text, "zh", CleaningConfig(), trace=True)
    assert cleaned.text == "    他笑道：“好。”他又走了。\n"
    assert replay(text, cleaned.ledger) == cleaned.text


def test_user_rule_cut_residue_is_removed_and_counted() -> None:
    config = CleaningConfig(extra_rules=[ExtraRule(name="domain", pattern=r"www\.[a-z]+\.com")])
    text = "    天色已晚。书香小站（www.shuxiang.com）\n    他睡了。\n"
    cleaned = clean_text(text, "zh", config)
    assert "（）" not in cleaned.text
    assert cleaned.removed["residue/empty-brackets"] == 1
    dialogue = "他笑道：www.shuxiang.com\n“你来了。”\n"
    assert "他笑道：" in clean_text(dialogue, "zh", config).text
    label = "本书首发：www.shuxiang.com\n    他睡了。\n"
    kept = clean_text(label, "zh", config)
    assert "本书首发" not in kept.text and kept.removed["residue/credit-label"] == 1
