"""`annotate locate`: retrieval, the strict answer format and quote verification."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from lengthwise.annotation.locate import locate, parse_answer, render_location
from lengthwise.llm.types import ChatRequest, ChatResult
from lengthwise.records import Book, Chapter, Sample
from lengthwise.storage import atomic_write_jsonl

CHAPTERS = [
    ("第一回 渡口", "林清在渡口等船。\n天色渐晚，船夫迟迟不来。"),
    ("第二回 钥匙", "赵远在旧书院找到了一把铜钥匙。\n他把钥匙藏进了袖中，没有告诉任何人。"),
    ("第三回 密信", "林清打开了密信，信中说钥匙属于县衙。\n赵远连夜离开了北山驿。"),
]


class ScriptedClient:
    """An LLMClient that answers from a script and records the requests it got."""

    def __init__(self, answer: str, outcome: str = "ok") -> None:
        self.answer, self.outcome = answer, outcome
        self.requests: list[ChatRequest] = []

    @property
    def name(self) -> str:
        return "scripted:locator"

    def complete(self, request: ChatRequest) -> ChatResult:
        self.requests.append(request)
        return ChatResult(text=self.answer, outcome=self.outcome)  # type: ignore[arg-type]

    def complete_many(self, requests: Sequence[ChatRequest]) -> list[ChatResult]:
        return [self.complete(r) for r in requests]


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A minimal work dir: one Chinese book of three chapters, one sample of all three."""
    chapters = [
        Chapter(book_id="b", index=i, heading=h, number=i + 1, title=h.split()[1], text=t)
        for i, (h, t) in enumerate(CHAPTERS)
    ]
    book = Book(id="b", title="渡口记", language="zh", source="test", raw_sha256="0",
                encoding="utf-8", chapters=chapters)  # fmt: skip
    atomic_write_jsonl(tmp_path / "corpus" / "books.jsonl", [book.to_dict()])
    (tmp_path / "samples").mkdir()
    sample = Sample(id="b:0000-0002", subset="L", book_id="b", book_title="渡口记",
                    language="zh", first_chapter=0, last_chapter=2,
                    chapter_titles=[c.heading for c in chapters],
                    chapter_sha256=[c.sha256 for c in chapters], text="", tokens=0,
                    tokenizer="cl100k", token_counts={"cl100k": 0}, target=0, lower=0,
                    upper=0, parent_id=None, source="b.txt")  # fmt: skip
    pq.write_table(pa.Table.from_pylist([sample.to_row()]), tmp_path / "samples" / "L.parquet")
    return tmp_path


def test_without_a_model_it_says_so_and_ranks_passages_lexically(work: Path) -> None:
    result = locate(work, "b:0000-0002", "赵远找到了铜钥匙", None)
    assert not result.used_model
    assert result.passages[0].chapter_index == 1
    text = render_location(result)
    assert "lexical retrieval only" in text and "chapter 1 (第二回 钥匙)" in text


def test_a_verified_answer_names_chapter_and_passage(work: Path) -> None:
    client = ScriptedClient("CHAPTER: 1\nVERDICT: supports\nQUOTE: 赵远在旧书院找到了一把铜钥匙。")
    result = locate(work, "b:0000-0002", "赵远找到了铜钥匙", client, top=2)
    assert result.found and result.verified and result.answer is not None
    assert result.answer.verdict == "supports" and result.chapter_heading == "第二回 钥匙"
    # The model saw the top passages, each headed by its chapter index.
    prompt = client.requests[0].messages[-1].content
    assert "chapter 1 (第二回 钥匙)" in prompt and "赵远找到了铜钥匙" in prompt
    assert "verified quote" in render_location(result)


def test_a_quote_from_another_chapter_is_reported_unverified(work: Path) -> None:
    client = ScriptedClient("CHAPTER: 0\nVERDICT: contradicts\nQUOTE: 赵远连夜离开了北山驿。")
    result = locate(work, "b:0000-0002", "赵远留在了北山驿", client)
    assert not result.verified and result.found_in_chapter == 2
    assert "UNVERIFIED" in render_location(result) and "chapter 2" in render_location(result)


def test_an_invented_quote_is_unverified(work: Path) -> None:
    client = ScriptedClient("CHAPTER: 2\nVERDICT: supports\nQUOTE: 林清烧掉了密信。")
    result = locate(work, "b:0000-0002", "林清烧掉了密信", client)
    assert not result.verified and result.found_in_chapter is None and not result.found


def test_unparsable_answers_and_failed_calls_are_reported_not_raised(work: Path) -> None:
    rambling = locate(work, "b:0000-0002", "钥匙", ScriptedClient("I think chapter two."))
    assert rambling.error is not None and "lacks the line" in rambling.error
    blocked = locate(work, "b:0000-0002", "钥匙", ScriptedClient("", outcome="blocked"))
    assert blocked.error is not None and "blocked" in blocked.error


def test_answer_format_parsing() -> None:
    answer = parse_answer("**CHAPTER:** 12\nVERDICT: Contradicts.\nQUOTE: “他没有来。”")
    assert (answer.chapter_index, answer.verdict, answer.quote) == (12, "contradicts", "他没有来。")
    nothing = parse_answer("CHAPTER: none\nVERDICT: not found\nQUOTE: none")
    assert (nothing.chapter_index, nothing.quote) == (None, None)
    with pytest.raises(ValueError, match="not one of"):
        parse_answer("CHAPTER: 1\nVERDICT: maybe\nQUOTE: x")
    with pytest.raises(ValueError, match="needs a chapter index and a quote"):
        parse_answer("CHAPTER: none\nVERDICT: supports\nQUOTE: none")


def test_unknown_sample_is_a_clear_error(work: Path) -> None:
    with pytest.raises(ValueError, match="no sample 'nope'"):
        locate(work, "nope", "claim", None)
