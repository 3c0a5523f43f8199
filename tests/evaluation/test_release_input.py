"""Reading a release: a folder or ORG/NAME@REV, subset order, identity; CLI input errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import lengthwise.evaluation.samples as samples_module
from lengthwise.cli import main
from lengthwise.evaluation.samples import load_release, normalise_language
from lengthwise.storage import sha256_file


def test_release_folder_is_verified_and_identified(tiny_release: Path) -> None:
    data = load_release(str(tiny_release), ["M", "S"], limit=2)
    assert list(data.subsets) == ["S", "M"]  # shortest subset first, whatever the order asked
    assert all(len(rows) == 2 for rows in data.subsets.values())
    assert data.identity["kind"] == "folder"
    assert data.identity["manifest_sha256"] == sha256_file(tiny_release / "manifest.json")
    sample = data.subsets["S"][0]
    assert sample.language in ("zh", "en") and sample.reference and sample.context
    assert data.subset_targets() == {"S": 700, "M": 1400}
    with pytest.raises(ValueError, match=r"subsets \['XL'\] are not in the release"):
        load_release(str(tiny_release), ["XL"])


def test_hub_reference_is_fetched_at_its_revision(
    tiny_release: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls: list[tuple[str, str | None, Path | None]] = []

    def fake_fetch(repo_id: str, revision: str | None = None, out: Path | None = None) -> Path:
        calls.append((repo_id, revision, out))
        return tiny_release

    monkeypatch.setattr(samples_module, "fetch_release", fake_fetch)
    data = load_release("org/bench@v1.0.0", ["S"], download_dir=tmp_path)
    assert calls == [("org/bench", "v1.0.0", tmp_path)]
    assert data.identity["kind"] == "hub"
    assert (data.identity["repo_id"], data.identity["revision"]) == ("org/bench", "v1.0.0")
    assert data.identity["manifest_sha256"] == sha256_file(tiny_release / "manifest.json")


def test_not_a_folder_nor_a_hub_reference(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no such folder"):
        load_release(str(tmp_path / "missing"))


def test_language_codes_are_normalised() -> None:
    assert normalise_language("zh-Hans") == "zh"
    assert normalise_language("zh_CN") == "zh"
    assert normalise_language("EN-gb") == "en"


def test_bad_command_line_values_are_reported_without_traceback(
    tiny_release: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = ["eval", "--release", str(tiny_release), "--out", str(tmp_path / "o")]
    code = main([*base, "--model", "m", "--backend", "openai", "--max-new-tokens-per-subset", "L"])
    assert code == 2
    assert "SUBSET=N" in capsys.readouterr().err
    code = main([*base, "--model", "remote-model", "--backend", "openai", "--base-url", "http://x"])
    assert code == 2
    assert "pass --tokenizer" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", "--help"])
    assert exit_info.value.code == 0
    assert "--policy" in capsys.readouterr().out


def test_rows_without_reference_are_generated_but_not_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from lengthwise.builders.build import run_build
    from lengthwise.builders.demo_corpus import DEMO_SPEC, write_demo_corpus
    from lengthwise.releases.release.build import build_release
    from lengthwise.spec import load_spec
    from lengthwise.storage import atomic_write_text

    write_demo_corpus(tmp_path / "corpus")
    small = '\n[[subsets]]\nname = "S"\ntarget = 700\nlower = 450\nupper = 950\ncount = 3\n'
    atomic_write_text(tmp_path / "demo.toml", DEMO_SPEC[: DEMO_SPEC.index("[[subsets]]")] + small)
    spec = load_spec(tmp_path / "demo.toml")
    run_build(spec, tmp_path / "work", progress=False, workers=1)
    folder = build_release(spec, tmp_path / "work", "0.1.0", allow_unannotated=True).folder
    release = load_release(str(folder), None)
    samples = release.subsets["S"]
    assert len(samples) == 3 and all(s.reference is None for s in samples)
    assert release.unscorable == {"S": 3}
    capsys.readouterr()
