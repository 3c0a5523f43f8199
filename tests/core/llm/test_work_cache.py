"""One request cache file per work directory, shared by every role, legacy file merged once."""

from __future__ import annotations

from pathlib import Path

from lengthwise.llm.cache import RequestCache
from lengthwise.llm.types import ChatResult
from lengthwise.llm.work_cache import open_work_cache, work_cache_path
from lengthwise.releases.stats.judge_client import llm_cache_path


def test_the_judge_and_the_other_roles_share_one_file(tmp_path: Path) -> None:
    assert llm_cache_path(tmp_path) == work_cache_path(tmp_path) == tmp_path / "cache/llm.sqlite"


def test_a_legacy_cache_is_merged_once_and_kept_aside(tmp_path: Path) -> None:
    legacy = tmp_path / "cache" / "llm_requests.sqlite"
    with RequestCache(legacy) as old:
        old.put("draft-key", ChatResult("old draft", "ok"))
        old.put("shared-key", ChatResult("old answer", "ok"))
    with RequestCache(work_cache_path(tmp_path)) as new:
        new.put("shared-key", ChatResult("new answer", "ok"))

    with open_work_cache(tmp_path) as cache:
        draft, shared = cache.get("draft-key"), cache.get("shared-key")
        assert draft is not None and draft.text == "old draft"
        assert shared is not None and shared.text == "new answer"  # existing keys win
        assert len(cache) == 2
    assert not legacy.exists() and legacy.with_name("llm_requests.sqlite.migrated").is_file()
    with open_work_cache(tmp_path) as cache:  # a second open copies nothing again
        assert len(cache) == 2
