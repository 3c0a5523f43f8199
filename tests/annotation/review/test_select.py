"""The review pass: which annotation becomes the final summary, and reviewer overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.annotation.review.quality import QualityReport
from lengthwise.annotation.review.records import AnnotationRecord
from lengthwise.annotation.review.select import load_overrides, review_sample


def record(annotation_id: int, summary: str, flags: tuple[str, ...] = (), *,
           cancelled: bool = False, who: str = "") -> AnnotationRecord:  # fmt: skip
    return AnnotationRecord(
        annotation_id=annotation_id, task_id=1, sample_id="s1", subset="L", language="en",
        limit=500, annotator_id=annotation_id, annotator=who or f"a{annotation_id}@x.org",
        created_at="2026-01-01T00:00:00Z", updated_at="2026-01-01T00:00:00Z",
        was_cancelled=cancelled, summary=summary, flags=list(flags),
    )  # fmt: skip


def test_fewest_flags_wins_even_against_better_agreement() -> None:
    records = [
        record(1, "Ada finds the key and Bram follows her to the mill.", ("over_limit",)),
        record(2, "Ada finds the key and Bram follows her to the mill at night."),
        record(3, "A storm floods the harbour."),
    ]
    review = review_sample("s1", "L", "en", records)
    assert review.annotation_id == 2 and review.source == "rule" and review.flags == []
    assert review.candidates == 3 and review.agreement is not None


def test_among_equally_flagged_the_one_closest_to_the_others_wins() -> None:
    records = [
        record(1, "A storm floods the harbour and nobody finds anything."),
        record(2, "Ada finds the key at the mill and Bram follows her home."),
        record(3, "Ada finds the key at the mill and Bram follows her."),
    ]
    review = review_sample("s1", "L", "en", records)
    assert review.annotation_id in (2, 3)
    assert review.agreement_with_others[review.annotation_id] == max(
        review.agreement_with_others.values()
    )


def test_cancelled_and_empty_annotations_are_never_chosen() -> None:
    records = [record(1, "", cancelled=True), record(2, "   ")]
    review = review_sample("s1", "L", "en", records)
    assert review.summary is None and review.source == "none" and review.candidates == 0


def test_reviewer_can_pick_an_annotation_or_write_the_text(tmp_path: Path) -> None:
    path = tmp_path / "review_overrides.jsonl"
    path.write_text(
        '{"sample_id": "s1", "annotation_id": 1, "reviewer": "li", "note": "keeps the duel"}\n'
        "# a comment line\n"
        '{"sample_id": "s2", "summary": "The reviewer\'s own text.", "reviewer": "li"}\n',
        encoding="utf-8",
    )
    overrides = load_overrides(path)
    records = [record(1, "Flagged but right.", ("over_limit",)), record(2, "Clean.")]
    picked = review_sample("s1", "L", "en", records, overrides["s1"])
    assert (picked.annotation_id, picked.source, picked.note) == (
        1,
        "override:annotation",
        "keeps the duel",
    )

    def check(text: str) -> QualityReport:
        return QualityReport(("commentary",), len(text.split()), 500, 0.0)

    written = review_sample("s2", "L", "en", [], overrides["s2"], check)
    assert written.summary == "The reviewer's own text." and written.source == "override:text"
    assert written.flags == ["commentary"] and written.annotator == "reviewer:li"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "invalid JSON"),
        ('{"annotation_id": 3}', "'sample_id'"),
        ('{"sample_id": "s1"}', "exactly one of"),
        ('{"sample_id": "s1", "annotation_id": 3, "summary": "x"}', "exactly one of"),
        ('{"sample_id": "s1", "annotation_id": 3, "score": 1}', "unknown keys"),
    ],
)
def test_bad_review_lines_name_the_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "review_overrides.jsonl"
    path.write_text("\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=message) as error:
        load_overrides(path)
    assert f"{path}:2" in str(error.value)


def test_an_override_naming_another_samples_annotation_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"sample_id": "s1", "annotation_id": 99}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="annotation 99 is not an annotation of sample s1"):
        review_sample("s1", "L", "en", [record(1, "x")], load_overrides(path)["s1"])
