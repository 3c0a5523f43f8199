"""The card states what the build did: drafts counted, exclusions, short subsets, the audit."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from release_helpers import annotate_all

from lengthwise.annotation.drafts.run import run_drafting
from lengthwise.builders.build_record import BuildReport, SubsetReport
from lengthwise.builders.corpus_settings import BookReport
from lengthwise.builders.sampling.summary import TokenFigures
from lengthwise.releases.release import build_release
from lengthwise.releases.release.card_notes import (
    drafts_sentence,
    excluded_markdown,
    subset_status_markdown,
)
from lengthwise.spec import Spec


def _card(demo_spec: Spec, work: Path) -> str:
    folder = build_release(demo_spec, work, "1.0.0").folder
    return (folder / "README.md").read_text(encoding="utf-8")


def test_card_counts_extractive_drafts_and_states_the_audit(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    assert "`lengthwise draft` was not run" in _card(demo_spec, work)
    run_drafting(work)  # no drafter model: extractive
    rows = [json.loads(line) for line in (work / "drafts" / "samples.jsonl").open()]
    chapters = {(r["book_id"], c["chapter_index"]) for r in rows for c in r["chapters"]}
    n = len(chapters)
    card = build_release(demo_spec, work, "1.0.1").folder.joinpath("README.md").read_text()
    assert f"{n} of {n} chapter drafts extractive (no drafter model)" in card
    assert "an LLM drafts a synopsis" not in card
    assert "### Residual-noise audit" in card
    assert "0 of 26 samples (0%) have at least one residual-noise finding" in card
    assert "No book or file of the sources was excluded." in card


def test_llm_and_fallback_drafts_are_counted_apart(tmp_path: Path) -> None:
    def chapter(i: int, drafter: str, reason: str | None) -> dict[str, object]:
        model = "qwen2.5-72b-instruct" if drafter == "llm" else "extractive-v1"
        return {"chapter_index": i, "drafter": drafter, "model": model, "fallback_reason": reason}

    chapters = [chapter(i, "llm", None) for i in range(8)]
    chapters += [chapter(8, "extractive", "llm outcome blocked")]
    sample = {"id": "b:0000-0008", "subset": "S", "book_id": "b", "chapters": chapters}
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "samples.jsonl").write_text(json.dumps(sample) + "\n")
    assert drafts_sentence(tmp_path, {"b:0000-0008"}) == (
        "8 of 9 chapter drafts by the LLM `qwen2.5-72b-instruct`; "
        "1 of 9 chapter drafts extractive (llm outcome blocked)"
    )


def _book(path: str, title: str, excluded: str | None) -> BookReport:
    return BookReport(path, title, title, "zh", "utf-8", 0, [], [], [], [], {}, {}, excluded)


def test_exclusions_and_short_subsets_are_listed() -> None:
    tokens = TokenFigures(None, 13_200.0, None, None, None)
    selection = SimpleNamespace(count=52, requested=200, q1_met=False, q1_threshold=14_745.6,
                                tokens=tokens)  # fmt: skip
    sources = {"stage": "sources", "kept": 2, "dropped": {"empty-file": 1},
               "examples": {"empty-file": ["/c/empty.txt: empty file"]}, "warnings": [],
               "seconds": 0.0}  # fmt: skip
    report = BuildReport(
        spec="t", spec_version="0", primary_tokenizer="chars", tokenizers=["chars"],
        policy="first-fit", seed=0, stages={"sources": sources},  # type: ignore[dict-item]
        duplicates={"keep": "one", "clusters": [], "repeated_chapters": []},
        books=[_book("/c/fengshen_flat.txt", "f", "no chapter headings found"),
               _book("/c/ok.txt", "ok", None)],
        subsets={"L": SubsetReport(selection)},  # type: ignore[arg-type]
        length_table=[], encoding_efficiency=[],
    )  # fmt: skip
    table = excluded_markdown(report)
    assert "| fengshen_flat.txt | no chapter headings found |" in table
    assert "| empty.txt | empty file |" in table and "ok.txt" not in table
    status = subset_status_markdown(report)
    assert "Subset **L**: short: 52 of 200 requested samples (148 missing)" in status
    assert "Q1 rule failed" in status
