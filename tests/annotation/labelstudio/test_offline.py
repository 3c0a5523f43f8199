"""Label Studio pieces that need no server: credentials, environment, interface, parsing."""

from __future__ import annotations

import socket
import stat
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from lengthwise.annotation.labelstudio.credentials import (
    load_or_create_credentials,
    resolve_token,
)
from lengthwise.annotation.labelstudio.interface import (
    CHOICES,
    LABEL_CONFIG,
    ChapterLink,
    drafts_html,
    task_data,
    write_chapter_pages,
)
from lengthwise.annotation.labelstudio.paths import LabelStudioPaths
from lengthwise.annotation.labelstudio.pull import parse_result
from lengthwise.annotation.labelstudio.server import (
    LabelStudioServerError,
    find_label_studio,
    port_is_free,
    server_environment,
)
from lengthwise.annotation.review.inputs import ChapterDraft, SampleChapterText, SampleDrafts
from lengthwise.records import Sample


def test_credentials_are_generated_once_and_private(tmp_path: Path) -> None:
    path = tmp_path / "labelstudio" / "credentials.json"
    first = load_or_create_credentials(path, environ={})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "@" in first.username and len(first.token) == 40 and len(first.password) >= 16
    assert load_or_create_credentials(path, environ={"LABEL_STUDIO_API_KEY": "other"}) == first


def test_credentials_come_from_the_environment_when_set(tmp_path: Path) -> None:
    env = {"LABEL_STUDIO_USERNAME": "lead@example.org", "LABEL_STUDIO_PASSWORD": "pw-123456",
           "MY_LS_TOKEN": "f" * 40}  # fmt: skip
    made = load_or_create_credentials(tmp_path / "c.json", "MY_LS_TOKEN", environ=env)
    assert (made.username, made.password, made.token) == ("lead@example.org", "pw-123456", "f" * 40)
    # Clients prefer the variable the spec names, else the stored token.
    assert resolve_token(tmp_path / "c.json", "MY_LS_TOKEN", {"MY_LS_TOKEN": "env"}) == "env"
    assert resolve_token(tmp_path / "c.json", "MY_LS_TOKEN", {}) == "f" * 40
    with pytest.raises(ValueError, match="annotate serve"):
        resolve_token(tmp_path / "none.json", "MY_LS_TOKEN", {})


def test_server_environment_drops_unprefixed_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Label Studio reads USERNAME, PORT, HOST... without prefix: ours must not leak in.
    for name in ("USERNAME", "PASSWORD", "HOST", "PORT", "DEBUG", "LABEL_STUDIO_DISABLE_SIGNUP"):
        monkeypatch.setenv(name, "leak")
    credentials = load_or_create_credentials(tmp_path / "c.json", environ={})
    env = server_environment(LabelStudioPaths(tmp_path), credentials)
    assert not {
        "USERNAME",
        "PASSWORD",
        "HOST",
        "PORT",
        "DEBUG",
        "LABEL_STUDIO_DISABLE_SIGNUP",
    } & set(env)
    assert env["LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN"] == "true"
    assert env["LATEST_VERSION_CHECK"] == "false" and env["COLLECT_ANALYTICS"] == "false"
    assert env["LABEL_STUDIO_LOCAL_FILES_DOCUMENT_ROOT"] == str(tmp_path.resolve())
    assert env["LABEL_STUDIO_BASE_DATA_DIR"] == str(tmp_path / "labelstudio" / "data")
    assert (
        env["HOME"].startswith(str(tmp_path))
        and env["LABEL_STUDIO_USER_TOKEN"] == credentials.token
    )


def test_a_busy_port_is_detected_and_a_missing_executable_explained(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        assert not port_is_free(listener.getsockname()[1])
    monkeypatch.setenv("LENGTHWISE_LABEL_STUDIO", str(tmp_path / "missing"))
    with pytest.raises(LabelStudioServerError, match="no such file"):
        find_label_studio()


def test_labeling_config_has_summary_choices_and_comment() -> None:
    root = ET.fromstring(LABEL_CONFIG)
    controls = {e.get("name"): e for e in root.iter() if e.get("toName")}
    assert set(controls) == {"summary", "flags", "comment"}
    assert [c.get("value") for c in controls["flags"].iter("Choice")] == list(CHOICES)
    assert controls["summary"].get("maxSubmissions") == "1"
    headers = [e.get("value") for e in root.iter("Header")]
    assert "$summary_header" in headers  # the limit is shown above the text area


def sample_drafts() -> SampleDrafts:
    return SampleDrafts(
        "b:0001-0002",
        (
            ChapterDraft(1, "第二回 钥匙", "赵远找到了<b>钥匙</b>。", "llm", "qwen"),
            ChapterDraft(
                2,
                "第三回 密信",
                "林清打开了密信。",
                "extractive",
                "extractive-v1",
                "llm outcome blocked",
            ),
        ),
    )


def test_task_data_shows_drafts_in_order_with_limit_and_escaped_html(tmp_path: Path) -> None:
    paths = LabelStudioPaths(tmp_path)
    chapters = [SampleChapterText(1, "第二回 钥匙", "第二回 钥匙\n赵远找到了<钥匙>。"),
                SampleChapterText(2, "第三回 密信", "第三回 密信\n林清打开了密信。")]  # fmt: skip
    links = write_chapter_pages(paths, "b", "渡口记", chapters)
    sample = Sample(id="b:0001-0002", subset="L", book_id="b", book_title="渡口记",
                    language="zh", first_chapter=1, last_chapter=2,
                    chapter_titles=["第二回 钥匙", "第三回 密信"], chapter_sha256=["x", "y"],
                    text="", tokens=0, tokenizer="cl100k", token_counts={}, target=0,
                    lower=0, upper=0, parent_id=None, source="b.txt")  # fmt: skip
    data = task_data(sample, sample_drafts(), links, 500, "qwen [llm:abc]")
    assert data["summary_header"] == "最终摘要（≤ 500 字）" and data["limit_unit"] == "chars"
    assert [d["heading"] for d in data["drafts"]] == ["第二回 钥匙", "第三回 密信"]
    assert data["drafts"][0]["url"] == "/data/local-files/?d=labelstudio/texts/b/0001.html"
    page = (tmp_path / "labelstudio" / "texts" / "b" / "0001.html").read_text("utf-8")
    assert "&lt;钥匙&gt;" in page and '<meta charset="utf-8">' in page
    html = data["drafts_html"]
    assert html.index("第二回") < html.index("第三回")
    assert "&lt;b&gt;钥匙&lt;/b&gt;" in html and "<b>钥匙</b>" not in html
    assert "llm outcome blocked" in html  # where an extractive draft stands in, it says so


def test_drafts_without_chapter_pages_have_no_links() -> None:
    html = drafts_html(sample_drafts(), {}, "zh")
    assert "href" not in html
    link = ChapterLink(1, "第二回 钥匙", "/data/local-files/?d=x&y", Path("x"))
    assert 'href="/data/local-files/?d=x&amp;y"' in drafts_html(sample_drafts(), {1: link}, "zh")


def test_parse_result_reads_summary_choices_and_comment() -> None:
    result = [
        {"from_name": "summary", "type": "textarea", "value": {"text": ["line one", "line two"]}},
        {"from_name": "flags", "type": "choices", "value": {"choices": ["synopsis conflict"]}},
        {"from_name": "comment", "type": "textarea", "value": {"text": ["see chapter 3"]}},
    ]
    assert parse_result(result) == ("line one\nline two", ["synopsis conflict"], "see chapter 3")
    assert parse_result([]) == ("", [], "")
