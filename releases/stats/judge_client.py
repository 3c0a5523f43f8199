"""The IC judge configured in a spec: `[llm.judge]` through the shared LLM layer.

`OpenJudge(spec, work_root)` holds the client (with the request cache at
WORK/cache/llm.sqlite, shared with every other role), or None and the reason it is
not available; use it as a context manager so the cache is closed. Statistics code
takes the client as a parameter, so tests and other callers inject any `LLMClient`.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from types import TracebackType
from typing import Any

from lengthwise.llm.types import LLMClient
from lengthwise.releases.stats.information_coverage import NO_JUDGE_REASON
from lengthwise.spec import Spec
from lengthwise.workdir import WorkDir


def llm_cache_path(work_root: Path) -> Path:
    return WorkDir(work_root).llm_cache


class OpenJudge(AbstractContextManager["OpenJudge"]):
    """The spec's judge client (None when unconfigured) and its request cache."""

    def __init__(self, spec: Spec, work_root: Path) -> None:
        self.client: LLMClient | None = None
        self.reason: str | None = NO_JUDGE_REASON
        self._cache: Any = None
        config = spec.llm.judge
        if config is None:
            return
        from lengthwise.llm.factory import make_client
        from lengthwise.llm.work_cache import open_work_cache

        self._cache = open_work_cache(work_root)
        self.client = make_client(config, self._cache)
        self.reason = None

    def request_options(self, spec: Spec) -> dict[str, Any]:
        config = spec.llm.judge
        if config is None:
            return {}
        return {
            "max_tokens": config.max_tokens,
            "temperature": config.temperature,
            "seed": config.seed,
        }

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._cache is not None:
            self._cache.close()
