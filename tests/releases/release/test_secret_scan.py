"""No secret from the environment, nor anything shaped like a credential, leaves the machine."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from release_helpers import annotate_all, read_rows, write_rows

from lengthwise.releases.release import ReleaseValidationError, build_release, scan_folder
from lengthwise.releases.release.secret_scan import finding_digest
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


# Credential forms as their vendors' public documentation shows them (AWS's example keys,
# jwt.io's token, Slack's and GitHub's documented formats, Google's key-file layout).
AWS_KEY_ID = "AKIAIOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
JWT_IO = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwia"
    "WF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
SERVICE_ACCOUNT = """{
  "type": "service_account",
  "project_id": "PROJECT_ID",
  "private_key_id": "KEY_ID",
  "private_key": "-----BEGIN PRIVATE KEY-----\\nPRIVATE_KEY\\n-----END PRIVATE KEY-----\\n",
  "client_email": "SERVICE_ACCOUNT_EMAIL",
  "client_id": "CLIENT_ID",
  "auth_uri": "https://accounts.google.com/o/oauth2/auth",
  "token_uri": "https://accounts.google.com/o/oauth2/token"
}"""


def _found(tmp_path: Path, text: str) -> set[tuple[str, str]]:
    findings = scan_folder(_folder(tmp_path, text), environ={})
    return {(f.where, f.what.removeprefix("pattern: ")) for f in findings}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # ~/.aws/credentials, as the AWS CLI documentation shows it
        (
            f"[default]\naws_access_key_id = {AWS_KEY_ID}\naws_secret_access_key = {AWS_SECRET}",
            {("line 5", "AWS access key id"), ("line 6", "AWS secret access key")},
        ),
        (f"export AWS_SECRET_ACCESS_KEY={AWS_SECRET}", {("line 4", "AWS secret access key")}),
        (f'{{"SecretAccessKey": "{AWS_SECRET}"}}', {("line 4", "AWS secret access key")}),
        # the console's CSV download: a bare secret key beside its key id
        (
            f"Access key ID,Secret access key\n{AWS_KEY_ID},{AWS_SECRET}",
            {("line 5", "AWS access key id"), ("line 5", "AWS secret access key")},
        ),
        (
            SERVICE_ACCOUNT,
            {("line 8", "Google Cloud service-account key"), ("line 8", "private key block")},
        ),
        (JWT_IO, {("line 4", "JSON Web Token")}),
        ("xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy", {("line 4", "Slack token")}),
        ("xoxp-23984754863-2348975623103", {("line 4", "Slack token")}),
        ("xapp-1-A0123456789-1234567890123-abcdef0123", {("line 4", "Slack token")}),
        (
            "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
            {("line 4", "Slack webhook URL")},
        ),
        ("ghp_16C7e42F292c6912E7710c838347Ae178B4a", {("line 4", "GitHub token")}),
        ("gho_16C7e42F292c6912E7710c838347Ae178B4a", {("line 4", "GitHub token")}),
        ("ghs_16C7e42F292c6912E7710c838347Ae178B4a", {("line 4", "GitHub token")}),
        (
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXY01",
            {("line 4", "GitHub token")},
        ),
        ("-----BEGIN OPENSSH PRIVATE KEY-----", {("line 4", "private key block")}),
        ("-----BEGIN EC PRIVATE KEY-----", {("line 4", "private key block")}),
        ("-----BEGIN ENCRYPTED PRIVATE KEY-----", {("line 4", "private key block")}),
        ("-----BEGIN PGP PRIVATE KEY BLOCK-----", {("line 4", "private key block")}),
    ],
)
def test_documented_credential_forms_are_found(
    tmp_path: Path, text: str, expected: set[tuple[str, str]]
) -> None:
    assert _found(tmp_path, text) == expected


def test_a_secret_key_is_masked_and_named_by_its_own_digest(tmp_path: Path) -> None:
    folder = _folder(tmp_path, f"aws_secret_access_key = {AWS_SECRET}\n{AWS_KEY_ID} {AWS_SECRET}")
    secret_findings = [f for f in scan_folder(folder, environ={}) if "secret" in f.what]
    assert {f.digest for f in secret_findings} == {
        finding_digest("AWS secret access key", AWS_SECRET)
    }
    for finding in secret_findings:
        assert AWS_SECRET not in finding.snippet and "wJal\u2026[40 chars]" in finding.snippet


def test_a_secret_in_a_release_row_blocks_it(demo_spec: Spec, work: Path) -> None:
    annotate_all(work, demo_spec)
    rows = read_rows(work / "samples" / "M.parquet")
    rows[1]["summary"] = f"{rows[1]['summary']} {SERVICE_ACCOUNT}"  # a key file pasted in
    write_rows(work / "samples" / "M.parquet", rows)
    with pytest.raises(ReleaseValidationError) as caught:
        build_release(demo_spec, work, "1.0.0")
    assert "Google Cloud service-account key" in str(caught.value)
    assert f"column summary, row {rows[1]['id']}" in str(caught.value)


@pytest.mark.parametrize(
    "book",
    [
        "en_pg_raw/pg1184.txt",
        "en_pg_stripped/moby_dick.txt",
        "en_pg_stripped/war_and_peace.txt",
        "en_ocr/b21939743_djvu_parker_syphilitic_diseases_1845.txt",
        "zh_simplified_four_classics/hongloumeng_utf8.txt",
    ],
)
def test_real_books_give_no_finding(shared_corpora: Path, tmp_path: Path, book: str) -> None:
    folder = tmp_path / "release"
    folder.mkdir()
    (folder / "book.txt").write_bytes((shared_corpora / book).read_bytes())
    assert scan_folder(folder, environ={}) == []
