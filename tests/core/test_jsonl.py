"""JSON Lines: a line is what ends with "\\n", nothing else (lengthwise.jsonl).

Every Unicode line break goes through each store of model or human text: the answers of
an evaluation, draft records, reviewer overrides, the LLM request cache, the usage
journal, the work store's files. Nothing may be lost, and a rerun must find everything.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lengthwise.annotation.drafts.store import DraftLog, DraftRecord
from lengthwise.annotation.review.select import load_overrides
from lengthwise.evaluation.store import Generation, GenerationStore
from lengthwise.human_records import ChapterDraft, Draft
from lengthwise.jsonl import JsonlLog, dumps_line, parse_jsonl, read_jsonl, write_jsonl
from lengthwise.llm.cache import RequestCache
from lengthwise.llm.types import ChatResult, Usage
from lengthwise.llm.usage_journal import UsageJournal
from lengthwise.spec import LLMRoleConfig
from lengthwise.store import WorkStore
from lengthwise.workdir import WorkDir

# Every character str.splitlines() breaks on (and CRLF).
BREAKS = ("\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
HOSTILE = "start" + "".join(f"[{b}]" for b in BREAKS) + "end 结束"


def test_every_line_break_round_trips_and_stays_inside_its_line(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    rows = [{"text": HOSTILE, "n": 1}, *({"text": b, "n": i} for i, b in enumerate(BREAKS, 2))]
    write_jsonl(path, rows)
    data = path.read_bytes()
    # One record per line for any reader, even one that splits on every break.
    assert data.decode("utf-8").splitlines() == data.decode("utf-8").split("\n")[:-1]
    assert data.count(b"\n") == len(rows)
    assert list(read_jsonl(path)) == rows
    assert parse_jsonl(data.decode("utf-8"), str(path)) == rows


def test_a_file_written_with_raw_separators_reads_whole(tmp_path: Path) -> None:
    # What json.dumps(ensure_ascii=False) wrote before (and what other tools write).
    path = tmp_path / "raw.jsonl"
    rows = [{"text": f"a{c}b"} for c in ("\x85", "\u2028", "\u2029")]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    assert "\u2028" in path.read_text(encoding="utf-8")
    assert list(read_jsonl(path)) == rows
    assert [value for _, value in JsonlLog(path).read()] == rows


def test_dumps_line_escapes_only_the_raw_breaks() -> None:
    assert dumps_line({"t": "中\u2028文"}) == '{"t": "中\\u2028文"}'
    assert json.loads(dumps_line({"t": HOSTILE})) == {"t": HOSTILE}
    assert "\n" not in dumps_line({"t": HOSTILE}) and "\u2029" not in dumps_line({"t": HOSTILE})


def test_a_torn_last_line_is_ignored_then_cut_before_the_next_append(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    log = JsonlLog(path)
    log.append({"n": 1, "text": HOSTILE})
    with path.open("ab") as handle:
        handle.write(b'{"n": 2, "text": "kil')  # killed mid-write
    assert [v["n"] for _, v in JsonlLog(path).read()] == [1]
    JsonlLog(path).append({"n": 3})
    assert [v["n"] for _, v in JsonlLog(path).read()] == [1, 3]
    assert path.read_bytes().endswith(b'{"n": 3}\n')


def test_usage_journal_keeps_every_line_after_a_torn_one(tmp_path: Path) -> None:
    path = tmp_path / "usage.jsonl"
    config = LLMRoleConfig(model=f"model {HOSTILE}")
    first = UsageJournal(path)
    first.record("drafter", config, ChatResult("x", "ok", Usage(10, 5)))
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"invocation": "x", "event": "res')  # killed mid-write
    second = UsageJournal(path)
    second.record("drafter", config, ChatResult("y", "ok", Usage(20, 5)))
    lines = UsageJournal(path).lines()
    assert [line["model"] for line in lines] == [config.model, config.model]
    assert UsageJournal(path).summary()["total"]["prompt_tokens"] == 30


def _generation(prediction: str, sample: str) -> Generation:
    return Generation.from_row(
        {
            "sample_id": sample,
            "subset": "S",
            "prompt_id": "IB",
            "language": "en",
            "prompt_tokens": 9,
            "original_prompt_tokens": 9,
            "max_new_tokens": 20,
            "action": "keep",
            "truncation": None,
            "request_key": "k",
            "prompt_version": "v1",
            "outcome": "ok",
            "flags": [],
            "prediction": prediction,
            "score": 0.5,
            "usage": {"prompt_tokens": 9, "completion_tokens": 3},
            "cached": False,
        },
        "test",
    )


def test_generations_keep_answers_with_every_line_break(tmp_path: Path) -> None:
    store = GenerationStore(tmp_path / "generations.jsonl")
    for index, brk in enumerate(BREAKS):
        store.append(_generation(f"answer{brk}continued", f"s{index}"))
    store.append(_generation(HOSTILE, "all"))
    reread = GenerationStore(tmp_path / "generations.jsonl").latest()
    assert len(reread) == len(BREAKS) + 1
    assert reread[("S", "all", "IB")].prediction == HOSTILE
    for index, brk in enumerate(BREAKS):
        assert reread[("S", f"s{index}", "IB")].prediction == f"answer{brk}continued"


def test_draft_log_reopens_with_every_line_break(tmp_path: Path) -> None:
    path = tmp_path / "chapters.jsonl"
    log = DraftLog(path)
    for index, brk in enumerate(BREAKS):
        log.append(
            DraftRecord(
                chapter_sha256=f"{index:064x}",
                book_id="b",
                chapter_index=index,
                heading=f"Chapter{brk}{index}",
                language="en",
                drafter="llm",
                drafter_key="llm:m",
                model="m",
                prompt_version="v1",
                outcome="ok",
                text=f"synopsis{brk}more",
            )
        )
    reopened = DraftLog(path).records
    assert sorted(r.text for r in reopened.values()) == sorted(f"synopsis{b}more" for b in BREAKS)


def test_reviewer_overrides_keep_summaries_with_every_line_break(tmp_path: Path) -> None:
    path = tmp_path / "review_overrides.jsonl"
    lines = ["# a reviewer's file"]
    lines += [json.dumps({"sample_id": "s1", "summary": HOSTILE}, ensure_ascii=False)]
    lines += [json.dumps({"sample_id": "s2", "annotation_id": 3, "note": "ok\u2028fine"})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    overrides = load_overrides(path)
    assert overrides["s1"].summary == HOSTILE and overrides["s1"].where.endswith(":2")
    assert overrides["s2"].note == "ok\u2028fine" and overrides["s2"].where.endswith(":3")


def test_request_cache_returns_answers_with_every_line_break(tmp_path: Path) -> None:
    cache = RequestCache(tmp_path / "cache.sqlite")
    cache.put("k", ChatResult(HOSTILE, "ok", Usage(3, 4), model="m"))
    cache.close()
    again = RequestCache(tmp_path / "cache.sqlite")
    found = again.get("k")
    again.close()
    assert found is not None and found.text == HOSTILE and found.cached


def test_work_store_drafts_keep_every_line_break(tmp_path: Path) -> None:
    store = WorkStore(WorkDir(tmp_path / "work"))
    chapter = ChapterDraft(
        chapter_index=0, chapter_sha256="0" * 64, heading=f"第一回{HOSTILE}",
        text=HOSTILE, drafter="llm", model="m", outcome="ok",
    )  # fmt: skip
    store.write_drafts([Draft(sample_id="s1", subset="S", chapters=(chapter,))])
    assert store.drafts()["s1"].chapters[0].text == HOSTILE


def test_a_bad_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"a": 1}\n\n{"a": \xe2\x80\xa8 2\n')  # a raw U+2028 between tokens
    with pytest.raises(ValueError, match=r"bad\.jsonl:3: invalid JSON line"):
        list(read_jsonl(path))
    path.write_bytes(b'{"a": 1}\n[1, 2]\n')
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: expected a JSON object"):
        list(read_jsonl(path))
