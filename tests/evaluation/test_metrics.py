"""rouge_l: CNNSum's scorer for Chinese, rouge-score rougeL for English."""

from __future__ import annotations

import json
from pathlib import Path

import jieba
import pytest
from rouge import Rouge
from rouge_score import rouge_scorer

from lengthwise.evaluation.metrics import get_metric, register_metric, rouge_l

ZH_PAIRS = [
    ("宝玉和黛玉在园中读书，后来宝钗也来了。", "宝玉与黛玉在大观园里一起读西厢记，宝钗随后赶到。"),
    ("孙悟空大闹天宫，被如来佛祖压在五行山下。", "孙悟空大闹天宫后被如来压在五行山下五百年。"),
    (
        "刘备三顾茅庐，请诸葛亮出山。刘备很高兴。",
        "刘备三次拜访诸葛亮，诸葛亮终于答应出山辅佐刘备。",
    ),
]
EN_PAIRS = [
    ("The cat sat on the mat near the door.", "A cat was sitting on the mat by the door."),
    ("Ada rode to the mill, then the harbour.", "Ada went to the harbour after visiting the mill."),
]


def _cnnsum_direct(prediction: str, reference: str) -> float:
    """CNNSum's scoring code path, written out with the two packages it uses."""
    hyp = " ".join(jieba.cut(prediction))
    ref = " ".join(jieba.cut(reference))
    return float(Rouge(metrics=["rouge-l"]).get_scores(hyp, ref)[0]["rouge-l"]["f"])


@pytest.mark.parametrize(("prediction", "reference"), ZH_PAIRS)
def test_chinese_matches_the_rouge_package_on_jieba_words(prediction: str, reference: str) -> None:
    score = rouge_l(prediction, reference, "zh")
    assert score == pytest.approx(_cnnsum_direct(prediction, reference), abs=1e-12)
    assert 0.0 < score < 1.0


@pytest.mark.parametrize(("prediction", "reference"), EN_PAIRS)
def test_english_matches_rouge_score_rougeL(prediction: str, reference: str) -> None:
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)
    expected = scorer.score(reference, prediction)["rougeL"].fmeasure
    assert rouge_l(prediction, reference, "en") == pytest.approx(expected, abs=1e-12)


def test_english_reproduces_rouge_155_reference_vectors(shared_corpora: Path) -> None:
    folder = shared_corpora / "rouge_reference" / "google_rouge_score_testdata"
    predictions = (folder / "prediction.txt").read_text(encoding="utf-8").splitlines()
    targets = (folder / "target.txt").read_text(encoding="utf-8").splitlines()
    cases = json.loads((folder / "expected_rouge155.json").read_text(encoding="utf-8"))["cases"]
    checked = 0
    for case in cases:
        if case["type"] == "rougeL" and not case["stem"]:
            pair = case["pair"]
            assert rouge_l(predictions[pair], targets[pair], "en") == pytest.approx(
                case["f"], abs=5e-5
            )
            checked += 1
    assert checked == 2


def test_identical_texts_score_one_and_empty_answers_zero() -> None:
    assert rouge_l("宝玉读书。", "宝玉读书。", "zh") == pytest.approx(1.0)
    assert rouge_l("The mill burned.", "The mill burned.", "en") == pytest.approx(1.0)
    assert rouge_l("", "宝玉读书。", "zh") == 0.0
    assert rouge_l("....", "宝玉读书。", "zh") == 0.0
    assert rouge_l("", "The mill burned.", "en") == 0.0


def test_chinese_is_not_scored_zero_as_rouge_score_would() -> None:
    # rouge-score's tokenizer drops CJK characters; the evaluator must not.
    assert rouge_l("宝玉和黛玉读书", "宝玉和黛玉一起读书", "zh") > 0.5


def test_bad_inputs_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="language 'fr'"):
        rouge_l("le chat", "le chat", "fr")
    with pytest.raises(ValueError, match="reference is empty"):
        rouge_l("text", "   ", "en")


def test_metrics_are_pluggable() -> None:
    register_metric("exact-match-test", lambda p, r, _lang: float(p.strip() == r.strip()))
    assert get_metric("exact-match-test")("a ", "a", "en") == 1.0
    with pytest.raises(ValueError, match="unknown metric"):
        get_metric("no-such-metric")
