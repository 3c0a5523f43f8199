"""The extractive drafter and sentence splitter on Chinese and English prose."""

from __future__ import annotations

import random
import re

import pytest

from lengthwise.annotation.drafts import ExtractiveBudget, extractive_draft
from lengthwise.annotation.drafts.sentences import split_sentences

ZH_PEOPLE = ["沈青", "韩越", "柳三娘", "顾长风", "阿福"]
ZH_ACTS = ["在渡口等船", "把信交给了掌柜", "连夜赶回城里", "在灯下读账本", "与守门人争吵"]
EN_PEOPLE = ["Marta", "Oswin", "Tilly", "Rowan", "Pell"]
EN_ACTS = [
    "waited at the ferry until dusk",
    "handed the letter to the innkeeper",
    "rode back to town through the rain",
    "read the ledger by lamplight",
    "argued with the gatekeeper about the toll",
]


def zh_chapter(seed: int, paragraphs: int = 12) -> str:
    rng = random.Random(seed)
    lines = ["第七回 渡口夜话"]
    for _ in range(paragraphs):
        sentences = [
            f"{rng.choice(ZH_PEOPLE)}{rng.choice(ZH_ACTS)}，{rng.choice(ZH_PEOPLE)}不知道。"
            for _ in range(rng.randint(2, 5))
        ]
        lines.append("　　" + "".join(sentences))
    lines.append(f"　　{ZH_PEOPLE[0]}说：“明天再走。路还远，不急。”众人散去。")
    return "\n".join(lines)


def en_chapter(seed: int, paragraphs: int = 12) -> str:
    rng = random.Random(seed)
    lines = ["CHAPTER VII. The Ferry"]
    for _ in range(paragraphs):
        sentences = [
            f"{rng.choice(EN_PEOPLE)} {rng.choice(EN_ACTS)} while {rng.choice(EN_PEOPLE)} slept."
            for _ in range(rng.randint(2, 5))
        ]
        lines.append(" ".join(sentences))
    lines.append('"We leave tomorrow. The road is long," said Mr. Rowan. Everyone went home.')
    return "\n".join(lines)


@pytest.mark.parametrize(("language", "make"), [("zh", zh_chapter), ("en", en_chapter)])
def test_draft_is_verbatim_sentences_in_chapter_order_within_budget(
    language: str, make: object
) -> None:
    budget = ExtractiveBudget(zh_chars=120, en_words=60)
    for seed in range(5):
        text = make(seed)  # type: ignore[operator]
        draft = extractive_draft(text, language, budget)
        chosen = split_sentences(draft, language)
        assert len(chosen) >= 2
        positions: list[int] = []
        for sentence in chosen:  # each found verbatim after the one before it
            positions.append(text.find(sentence, positions[-1] + 1 if positions else 0))
            assert positions[-1] >= 0, f"not verbatim or out of order: {sentence}"
        if language == "zh":
            assert len(re.sub(r"\s", "", draft)) <= budget.zh_chars
        else:
            assert len(draft.split()) <= budget.en_words
        # Coverage: something from the first and the last third of the chapter.
        assert positions[0] < len(text) / 3 and positions[-1] > 2 * len(text) / 3
        assert extractive_draft(text, language, budget) == draft, "deterministic"


def test_short_chapter_is_kept_whole_and_empty_chapter_gives_empty_draft() -> None:
    text = "沈青在渡口等船。\n韩越来了，两人一同过河。"
    assert extractive_draft(text, "zh") == "沈青在渡口等船。韩越来了，两人一同过河。"
    assert extractive_draft("", "en") == ""


def test_one_overlong_sentence_is_cut_to_the_budget() -> None:
    text = "And " + " ".join(["then they walked on"] * 200) + "."
    draft = extractive_draft(text, "en", ExtractiveBudget(en_words=30))
    assert draft.startswith("And then they walked on") and len(draft.split()) <= 31


def test_sentences_keep_quotes_together_and_respect_abbreviations() -> None:
    zh = "沈青道：“天晚了。明天再走！”韩越点头。众人散去……次日又来。"
    assert split_sentences(zh, "zh") == [
        "沈青道：“天晚了。明天再走！”",
        "韩越点头。",
        "众人散去……",
        "次日又来。",
    ]
    en = '"Is it late? We go," said Mr. Rowan. J. Pell agreed! Then they left'
    assert split_sentences(en, "en") == [
        '"Is it late? We go," said Mr. Rowan.',
        "J. Pell agreed!",
        "Then they left",
    ]
