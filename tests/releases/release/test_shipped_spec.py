"""The shipped spec.toml has no local paths and the release's version; files are 0644."""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

from release_helpers import annotate_all

from lengthwise.releases.release import build_release
from lengthwise.releases.release.shipped_spec import shipped_spec_text
from lengthwise.spec import Spec, load_spec


def test_released_spec_hides_local_paths_and_states_the_release_version(
    demo_built: tuple[Path, Path], demo_spec: Spec, work: Path, tmp_path: Path
) -> None:
    annotate_all(work, demo_spec)
    corpus = (demo_built[0].parent / "corpus").resolve()
    text = demo_built[0].read_text(encoding="utf-8").replace('"corpus"', f'"{corpus}"')
    assert 'version = "0.1.0"' in text
    spec_path = tmp_path / "my-books" / "spec.toml"
    spec_path.parent.mkdir()
    spec_path.write_text(text, encoding="utf-8")
    folder = build_release(load_spec(spec_path), work, "0.2.0", spec_path=spec_path).folder
    shipped = (folder / "spec.toml").read_text(encoding="utf-8")
    assert str(corpus) not in shipped
    assert str(tmp_path) not in shipped
    data = tomllib.loads(shipped)
    assert data["version"] == "0.2.0"
    assert data["sources"][0]["path"] == "<local>/corpus"
    assert "built from spec version 0.1.0" in shipped
    for name in (
        "README.md",
        "manifest.json",
        "spec.toml",
        "diff.json",
        "S/test-00000-of-00001.parquet",
    ):
        mode = stat.S_IMODE((folder / name).stat().st_mode)
        assert mode == 0o644, f"{name}: {oct(mode)}"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755


def test_urls_and_relative_paths_are_kept() -> None:
    text = (
        'name = "x"\n[[sources]]\nkind = "urls"\nurls = ["https://example.org/a.txt"]\n'
        '[[sources]]\nkind = "files"\npath = "books"\n'
        '[tokenizers]\nprimary = "hf-file:/home/li/tok/tokenizer.json"\n'
        '[release]\nversion = "9"\n'
    )
    shipped = tomllib.loads(shipped_spec_text(text, "1.0.0"))
    assert shipped["version"] == "1.0.0"  # the default version, stated
    assert shipped["sources"][0]["urls"] == ["https://example.org/a.txt"]
    assert shipped["sources"][1]["path"] == "books"
    assert shipped["tokenizers"]["primary"] == "hf-file:<local>/tokenizer.json"
    assert shipped["release"]["version"] == "9"  # only the top-level key is the spec's version
