"""What the task stage reads: the build's books, chapter synopses from the drafts, the
drafting model (created on first use) and the files a task names (needles' folders)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from lengthwise.builders.tasks.report_record import DrafterOptions
from lengthwise.human_records import Draft
from lengthwise.llm.cache import RequestCache
from lengthwise.llm.types import ChatRequest, ChatResult, LLMClient, ResultCallback
from lengthwise.llm.work_cache import open_work_cache
from lengthwise.spec import Spec
from lengthwise.storage import sha256_file
from lengthwise.task_spec import NeedlesTask

# Which chapter draft stands as the chapter's synopsis: a human-reviewed one first, then
# the model's. Extractive fallbacks are excerpts, not synopses: never used.
_DRAFTER_RANK = {"human": 0, "llm": 1}


def chapter_synopses(drafts: Mapping[str, Draft]) -> tuple[dict[str, str], Counter[str]]:
    """chapter sha256 -> synopsis, and what was left out (counted by reason)."""
    best: dict[str, tuple[int, str]] = {}
    skipped: Counter[str] = Counter()
    for draft in drafts.values():
        for chapter in draft.chapters:
            rank = _DRAFTER_RANK.get(chapter.drafter)
            if not chapter.chapter_sha256:
                skipped["draft without chapter sha256"] += 1
            elif rank is None:
                skipped[f"{chapter.drafter} draft (not a synopsis)"] += 1
            elif not chapter.text.strip() or chapter.outcome not in ("", "ok"):
                skipped["empty or failed draft"] += 1
            elif chapter.chapter_sha256 not in best or rank < best[chapter.chapter_sha256][0]:
                best[chapter.chapter_sha256] = (rank, chapter.text.strip())
    return {sha: text for sha, (_, text) in sorted(best.items())}, skipped


def folder_fingerprint(folder: Path) -> list[tuple[str, str]]:
    """(relative path, sha256) of every file under `folder`: a changed document rebuilds."""
    if not folder.is_dir():
        return []
    return [
        (path.relative_to(folder).as_posix(), sha256_file(path))
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    ]


def task_files_fingerprint(spec: Spec) -> dict[str, list[tuple[str, str]]]:
    """The content of folders tasks read beside the corpus (needles' documents)."""
    return {
        task.name: folder_fingerprint(spec.resolve(task.documents))
        for task in spec.tasks
        if isinstance(task, NeedlesTask) and task.documents != "chapters"
    }


class LazyDrafter:
    """The drafting model behind the work dir's request cache, built on the first request:
    a spec whose tasks never ask a model opens no connection and no cache."""

    def __init__(self, spec: Spec, work_root: Path, options: DrafterOptions) -> None:
        assert spec.llm.drafter is not None
        self.config = spec.llm.drafter
        self.work_root = work_root
        self.options: DrafterOptions = {**options}
        self._client: LLMClient | None = None
        self._cache: RequestCache | None = None

    def _ready(self) -> LLMClient:
        if self._client is None:
            from lengthwise.llm.registry import make_client

            self._cache = open_work_cache(self.work_root)
            self._client = make_client(self.config, self._cache, **self.options)
        return self._client

    @property
    def used(self) -> bool:
        return self._client is not None

    @property
    def name(self) -> str:
        return self._ready().name

    def complete(self, request: ChatRequest) -> ChatResult:
        return self._ready().complete(request)

    def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: ResultCallback | None = None
    ) -> list[ChatResult]:
        return self._ready().complete_many(requests, on_result=on_result)

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
