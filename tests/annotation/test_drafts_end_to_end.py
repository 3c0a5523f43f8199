"""`lengthwise draft` through a real OpenAI-compatible server (`transformers serve`, tiny model).

The acceptance run: drafting the demo build's samples (one small subset, to keep the
test short) is interrupted halfway (Ctrl-C after half the chapters were stored) and
rerun; every chapter is drafted exactly once (the server sees one request per chapter)
and drafts carry model, prompt version and usage.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from lengthwise.annotation.drafts import PROMPT_VERSION
from lengthwise.annotation.drafts.store import DraftLog, DraftRecord
from lengthwise.builders.demo_corpus import write_demo_corpus, write_demo_spec
from lengthwise.cli import main
from tests.fixtures.llm_server import LocalOpenAIServer

pytestmark = pytest.mark.slow


def write_spec(folder: Path, server: LocalOpenAIServer) -> Path:
    """The demo spec with one small subset (to keep the test short) and an [llm.drafter]."""
    write_demo_corpus(folder / "corpus")
    demo = write_demo_spec(folder).read_text(encoding="utf-8")
    text = demo[: demo.index("[[subsets]]")] + (
        '[[subsets]]\nname = "S"\ntarget = 2048\nlower = 1600\nupper = 2560\ncount = 4\n'
        "\n[llm.drafter]\n"
        f'model = "{server.model}"\n'
        f'base_url = "{server.base_url}"\n'
        "max_tokens = 8\n"
        "concurrency = 2\n"
        "context_window = 4096\n"
    )
    spec = folder / "drafter.toml"
    spec.write_text(text, encoding="utf-8")
    return spec


def test_interrupted_drafting_resumes_and_drafts_every_chapter_once(
    openai_server: LocalOpenAIServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = write_spec(tmp_path, openai_server)
    work = tmp_path / "work"
    assert main(["build", str(spec), "--work", str(work), "--quiet", "--workers", "1"]) == 0
    chapters = {
        sha
        for path in (work / "samples").glob("*.parquet")
        for hashes in pq.read_table(path)["chapter_sha256"].to_pylist()
        for sha in hashes
    }
    before = openai_server.requests_seen()

    # Ctrl-C once half the chapters are stored (raised inside on_result, like a signal).
    real_append = DraftLog.append
    stored: list[str] = []

    def append_then_interrupt(self: DraftLog, record: DraftRecord) -> None:
        if len(stored) == len(chapters) // 2:
            raise KeyboardInterrupt
        real_append(self, record)
        stored.append(record.chapter_sha256)

    monkeypatch.setattr(DraftLog, "append", append_then_interrupt)
    assert main(["draft", str(spec), "--work", str(work), "--quiet"]) == 130
    assert "rerun the same command" in capsys.readouterr().err
    assert len(lines(work)) == len(chapters) // 2
    monkeypatch.undo()

    assert main(["draft", str(spec), "--work", str(work), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "extractive" not in out.split("\n")[0] and openai_server.model in out

    records = lines(work)
    assert sorted(r["chapter_sha256"] for r in records) == sorted(chapters)
    assert openai_server.requests_seen() - before == len(chapters), "one request per chapter"
    for record in records:
        assert record["drafter"] == "llm" and record["model"] == openai_server.model
        assert record["base_url"] == openai_server.base_url
        assert record["prompt_version"] == PROMPT_VERSION[record["language"]]
        assert record["usage"]["prompt_tokens"] > 0 and record["outcome"] in {"ok", "length"}
    report = json.loads((work / "drafts" / "report.json").read_text(encoding="utf-8"))
    usage = report["usage"]["roles"]["drafter"]
    # The chapter whose storing was interrupted came back from the request cache.
    assert usage["cache_hits"] >= 1 and usage["prompt_tokens"] > 0
    assert report["reused"] == len(chapters) // 2

    assert main(["draft", str(spec), "--work", str(work), "--quiet"]) == 0
    assert "up to date" in capsys.readouterr().out
    assert openai_server.requests_seen() - before == len(chapters)


def lines(work: Path) -> list[dict[str, Any]]:
    path = work / "drafts" / "chapters.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
