"""A credential-shaped string in book text blocks until a person accepts it by name.

Environment values block always; a pattern match in the corpus is listed with its
sample id and a masked snippet, and `release --accept-findings FILE` with the printed
lines releases it, recording the decision in manifest.json.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import pytest
from release_helpers import annotate_all, read_rows, write_rows

from lengthwise.cli import main
from lengthwise.releases.hub import PublishRefused, check_before_publish
from lengthwise.releases.release import build_release
from lengthwise.spec import Spec, load_spec


def plant_in_context(work: Path, text: str, row_index: int = 1) -> str:
    """Put `text` in the middle of a sample's book text, as a novel might; return the id."""
    path = work / "samples" / "M.parquet"
    rows = read_rows(path)
    context = rows[row_index]["text"]
    middle = context.index(" ", len(context) // 2)
    rows[row_index]["text"] = f"{context[:middle]} the code was {text} he said{context[middle:]}"
    write_rows(path, rows)
    return str(rows[row_index]["id"])


def release(spec_path: Path, work: Path, *extra: str) -> int:
    return main(["release", str(spec_path), "--version", "1.0.0", "--work", str(work), *extra])


def refusal_lines(stderr: str) -> list[str]:
    """The ready-to-copy lines of a refusal: everything after the `--accept-findings` hint."""
    tail = stderr.split("--accept-findings FILE", 1)[1]
    return [line for line in tail.splitlines()[1:] if "\t" in line]


@pytest.fixture
def spec_path(demo_built: tuple[Path, Path]) -> Path:
    return demo_built[0]


@pytest.fixture
def annotated(work: Path, spec_path: Path) -> Path:
    annotate_all(work, load_spec(spec_path))
    return work


def test_pattern_in_book_text_is_listed_with_sample_and_masked_snippet(
    spec_path: Path, annotated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = "sk-" + secrets.token_hex(16)
    sample = plant_in_context(annotated, key)
    assert release(spec_path, annotated) == 2
    err = capsys.readouterr().err
    assert key not in err
    assert f"(column context, row {sample}): pattern: OpenAI-style API key" in err
    assert f"the code was {key[:4]}\u2026[{len(key)} chars] he said" in err
    [line] = refusal_lines(err)
    assert line.split("\t")[:1] == [sample]
    assert not (annotated / "releases" / "v1.0.0").exists()


def test_accepted_findings_release_and_are_recorded(
    spec_path: Path, annotated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key = "hf_" + secrets.token_hex(16)
    sample = plant_in_context(annotated, key)
    assert release(spec_path, annotated) == 2
    accept = tmp_path / "accepted.tsv"
    accept.write_text("\n".join(refusal_lines(capsys.readouterr().err)) + "\n", encoding="utf-8")

    assert release(spec_path, annotated, "--accept-findings", str(accept)) == 0
    out = capsys.readouterr().out
    assert f"secret scan: 1 pattern matches accepted from {accept}" in out
    folder = annotated / "releases" / "v1.0.0"
    manifest_text = (folder / "manifest.json").read_text(encoding="utf-8")
    assert key not in manifest_text
    [record] = json.loads(manifest_text)["secret_scan"]["accepted"]
    assert record["key"] == sample
    assert record["pattern"] == "Hugging Face token"
    assert record["where"] == f"column context, row {sample}"
    # publish validates again and honours the recorded decision, environment included.
    assert check_before_publish(folder, "1.0.0", environ={}).version == "1.0.0"


def test_acceptance_names_one_match_not_the_sample(
    demo_spec: Spec, annotated: Path, tmp_path: Path
) -> None:
    first = "sk-" + secrets.token_hex(16)
    sample = plant_in_context(annotated, first)
    with pytest.raises(ValueError) as refused:
        build_release(demo_spec, annotated, "1.0.0", environ={})
    digest = str(refused.value).rsplit("\n", 1)[1].split("\t")[1]
    # A second, different key in the same sample is a new finding: still refused.
    plant_in_context(annotated, "sk-" + secrets.token_hex(16))
    with pytest.raises(ValueError, match="OpenAI-style API key") as again:
        build_release(
            demo_spec, annotated, "1.0.0", environ={}, accepted_findings={(sample, digest)}
        )
    assert first[:4] in str(again.value)
    assert str(again.value).count(f"row {sample}): pattern") == 1


def test_environment_value_blocks_even_when_accepted(
    demo_spec: Spec, annotated: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = "hf_" + secrets.token_hex(20)
    sample = plant_in_context(annotated, token)
    environ = {"HF_TOKEN": token}
    with pytest.raises(ValueError) as refused:
        build_release(demo_spec, annotated, "1.0.0", environ=environ)
    message = str(refused.value)
    assert "environment values found" in message and "cannot be accepted" in message
    assert token[:4] + "\u2026" not in message  # no snippet beside an environment value
    digest = message.rsplit("\n", 1)[1].split("\t")[1]
    with pytest.raises(ValueError, match="environment variable HF_TOKEN") as still:
        build_release(
            demo_spec, annotated, "1.0.0", environ=environ, accepted_findings={(sample, digest)}
        )
    assert token not in str(still.value)
    assert not (annotated / "releases" / "v1.0.0").exists()


def test_publish_refuses_a_folder_whose_environment_now_holds_the_value(
    demo_spec: Spec, annotated: Path
) -> None:
    token = "hf_" + secrets.token_hex(20)
    sample = plant_in_context(annotated, token)
    with pytest.raises(ValueError) as refused:
        build_release(demo_spec, annotated, "1.0.0", environ={})
    digest = str(refused.value).rsplit("\n", 1)[1].split("\t")[1]
    result = build_release(
        demo_spec, annotated, "1.0.0", environ={}, accepted_findings={(sample, digest)}
    )
    assert result.accepted_findings == 1
    with pytest.raises(PublishRefused, match="environment variable HF_TOKEN"):
        check_before_publish(result.folder, "1.0.0", environ={"HF_TOKEN": token})


def test_malformed_accept_file_names_file_and_line(
    spec_path: Path, annotated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    accept = tmp_path / "accepted.tsv"
    accept.write_text("# reviewed by A.\nsample-1\tnot-a-digest\n", encoding="utf-8")
    assert release(spec_path, annotated, "--accept-findings", str(accept)) == 2
    err = capsys.readouterr().err
    assert f"{accept}, line 2: expected SAMPLE_ID<TAB>DIGEST" in err
    assert "Traceback" not in err
