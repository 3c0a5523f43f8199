"""No secret from the environment, nor anything shaped like a credential, leaves the machine."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from release_helpers import annotate_all, read_rows, write_rows

from lengthwise.releases.release import ReleaseValidationError, build_release, scan_folder
from lengthwise.spec import Spec


def test_planted_environment_token_blocks_the_release(
    demo_spec: Spec, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = "hf_" + secrets.token_hex(20)
    monkeypatch.setenv("HF_TOKEN", token)
    annotate_all(work, demo_spec)
    rows = read_rows(work / "samples" / "M.parquet")
    # An annotator pasted the token into a summary by accident.
    rows[2]["summary"] = f"{rows[2]['summary']} {token}"
    write_rows(work / "samples" / "M.parquet", rows)
    with pytest.raises(ReleaseValidationError) as caught:
        build_release(demo_spec, work, "1.0.0")
    message = str(caught.value)
    assert "secret scan failed" in message
    assert "M/test-00000-of-00001.parquet" in message
    assert f"column summary, row {rows[2]['id']}" in message
    assert "environment variable HF_TOKEN" in message
    assert token not in message
    releases = work / "releases"
    assert not (releases / "v1.0.0").exists()
    assert list(releases.iterdir()) == []  # the staging folder is gone too


def _folder(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "release"
    folder.mkdir()
    (folder / "README.md").write_text(f"# card\n\nsome text\n{text}\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("key: sk-proj-" + "Ab3" * 10, "OpenAI-style API key"),
        ("hf_" + "x1Y" * 12, "Hugging Face token"),
        ("ghp_" + "a" * 36, "GitHub token"),
        ("AKIA" + "ABCDEFGHIJKLMNOP", "AWS access key id"),
        ("-----BEGIN RSA PRIVATE KEY-----", "private key block"),
    ],
)
def test_credential_patterns_are_found_with_file_and_line(
    tmp_path: Path, text: str, label: str
) -> None:
    findings = scan_folder(_folder(tmp_path, text), environ={})
    assert [str(f) for f in findings] == [f"README.md (line 4): pattern: {label}"]


def test_secret_named_by_spec_or_name_pattern_is_found(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "the value s3cr3t-value-123 and hunter2-long-pass")
    environ = {
        "MY_SERVICE_CREDENTIAL": "s3cr3t-value-123",  # name looks secret
        "DRAFTER_ENDPOINT_CODE": "hunter2-long-pass",  # named by the spec's api_key_env
        "PATH": "/usr/bin",
        "TOKENIZERS_PARALLELISM": "false",  # secret-looking name, harmless value
    }
    found = {f.what for f in scan_folder(folder, environ, ["DRAFTER_ENDPOINT_CODE"])}
    assert found == {
        "environment variable MY_SERVICE_CREDENTIAL",
        "environment variable DRAFTER_ENDPOINT_CODE",
    }


def test_clean_folder_passes(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "Chapter one: the ferryman's coin; sk- is not a key.")
    assert scan_folder(folder, environ={"HF_TOKEN": "hf_" + "q" * 34}) == []
