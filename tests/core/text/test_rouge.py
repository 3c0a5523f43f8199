"""ROUGE: rouge-score's reference vectors, Chinese, and CNNSum's variant."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from lengthwise.text import cut_zh, rouge_l, rouge_l_cnnsum, rouge_l_f1, rouge_l_tokens, rouge_n


def _reference_cases(root: Path) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    folder = root / "rouge_reference" / "google_rouge_score_testdata"
    targets = (folder / "target.txt").read_text(encoding="utf-8").split("\n")
    predictions = (folder / "prediction.txt").read_text(encoding="utf-8").split("\n")
    expected = json.loads((folder / "expected_rouge155.json").read_text(encoding="utf-8"))
    return targets, predictions, [c for c in expected["cases"] if isinstance(c["pair"], int)]


def test_reproduces_rouge155_reference_vectors(shared_corpora: Path) -> None:
    targets, predictions, cases = _reference_cases(shared_corpora)
    assert {c["type"] for c in cases} == {"rouge1", "rouge2", "rougeL"}
    for case in cases:
        pair, stem = case["pair"], case["stem"]
        if case["type"] == "rougeL":
            score = rouge_l(predictions[pair], targets[pair], "en", stem=stem)
        else:
            n = int(case["type"][-1])
            score = rouge_n(predictions[pair], targets[pair], "en", n, stem=stem)
        got = (round(score.recall, 5), round(score.precision, 5), round(score.f1, 5))
        assert got == (case["r"], case["p"], case["f"]), case


def test_chinese_is_scored_on_jieba_words_not_zero() -> None:
    # jieba: 我/来到/北京/清华大学 (4) vs 他/来到/了/网易/杭研/大厦 (6); LCS = 来到 (1)
    # P = 1/4, R = 1/6, F = 2PR/(P+R) = (1/12)/(5/12) = 0.2
    assert rouge_l_f1("我来到北京清华大学", "他来到了网易杭研大厦", "zh") == pytest.approx(0.2)


@pytest.mark.skipif(importlib.util.find_spec("rouge_score") is None, reason="needs rouge-score")
def test_rouge_score_itself_drops_chinese_the_trap_we_avoid() -> None:
    from rouge_score import rouge_scorer

    score = rouge_scorer.RougeScorer(["rougeL"]).score("他来到了网易杭研大厦", "我来到北京清华大学")
    assert score["rougeL"].fmeasure == 0.0
    assert rouge_l_f1("我来到北京清华大学", "他来到了网易杭研大厦", "zh") > 0


def test_rouge_l_is_symmetric_in_f1_and_zero_for_empty() -> None:
    a, b = "the cat sat on the mat", "a cat lay on a mat"
    assert rouge_l_f1(a, b, "en") == rouge_l_f1(b, a, "en")
    assert rouge_l_f1("", b, "en") == 0.0


def test_cnnsum_variant_differs_from_plain_lcs_when_tokens_repeat() -> None:
    prediction, reference = "猫追狗，狗追猫，猫又追狗。", "猫追狗。"
    # jieba (punctuation kept, as CNNSum joins every token): prediction
    # 猫 追狗 ， 狗 追猫 ， 猫 又 追狗 。 (10 tokens, 7 distinct); reference 猫 追狗 。 (3).
    # CNNSum (`rouge` package): LCS 猫 追狗 。 = 3 over *distinct* counts:
    # R = 3/3, P = 3/7, F = 2 * (3/7) / (10/7) = 0.6
    assert rouge_l_cnnsum(prediction, reference, "zh") == pytest.approx(0.6, abs=1e-7)
    # Plain LCS F1 on the same tokens: P = 3/10, R = 3/3, F = 0.6 / 1.3 = 0.4615...
    hyp = [t for t in cut_zh(prediction, "jieba") if t.strip()]
    ref = [t for t in cut_zh(reference, "jieba") if t.strip()]
    assert rouge_l_tokens(hyp, ref).f1 == pytest.approx(0.6 / 1.3)
    # And our plain ROUGE-L on words (punctuation dropped): 7 vs 2 words, LCS 2:
    # P = 2/7, R = 1, F = 4/9.
    assert rouge_l_f1(prediction, reference, "zh") == pytest.approx(4 / 9)


def test_cnnsum_variant_is_the_rouge_package_on_jieba_joined_text() -> None:
    from rouge import Rouge

    pairs = [
        ("林黛玉进了贾府，见了贾母。宝玉摔了玉。", "黛玉初进荣国府，宝玉摔玉。"),
        ("刘备三顾茅庐，请诸葛亮出山。", "诸葛亮出山辅佐刘备，刘备三顾茅庐。"),
    ]
    for prediction, reference in pairs:
        hyp = " ".join(cut_zh(prediction, "jieba"))
        ref = " ".join(cut_zh(reference, "jieba"))
        expected = Rouge().get_scores(hyp, ref)[0]["rouge-l"]["f"]
        assert rouge_l_cnnsum(prediction, reference, "zh") == expected
    english = ("The cat sat. The dog ran away.", "A dog ran. The cat sat down.")
    expected_en = Rouge().get_scores(*english)[0]["rouge-l"]["f"]
    assert rouge_l_cnnsum(*english, "en") == expected_en


def test_cnnsum_empty_or_dots_prediction_scores_zero_and_empty_reference_is_an_error() -> None:
    assert rouge_l_cnnsum("", "猫追狗。", "zh") == 0.0
    assert rouge_l_cnnsum("...", "The cat.", "en") == 0.0
    with pytest.raises(ValueError, match="reference is empty"):
        rouge_l_cnnsum("猫追狗", "", "zh")


def test_cnnsum_handles_long_inputs_and_restores_the_recursion_limit() -> None:
    from rouge import Rouge

    rng = random.Random(1)
    vocabulary = [f"w{i}" for i in range(300)]
    prediction = " ".join(rng.choice(vocabulary) for _ in range(600))
    reference = " ".join(rng.choice(vocabulary) for _ in range(600))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # Python's default, whatever other tests did
    try:
        with pytest.raises(RecursionError):  # the package alone fails on this pair
            Rouge().get_scores(prediction, reference)
        assert 0.0 < rouge_l_cnnsum(prediction, reference, "en") < 1.0
        assert sys.getrecursionlimit() == 1000  # restored after the call
    finally:
        sys.setrecursionlimit(limit)
