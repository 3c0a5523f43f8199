from __future__ import annotations

from pathlib import Path

import pytest

from lengthwise.spec import SpecError, load_spec

MINIMAL = """
name = "demo"
[[sources]]
kind = "files"
path = "books"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "spec.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_minimal_spec_gets_cnnsum_defaults_and_resolves_paths(tmp_path: Path) -> None:
    spec = load_spec(write(tmp_path, MINIMAL))
    assert [s.name for s in spec.subsets] == ["L", "XL", "2XL", "3XL"]
    assert [(s.target, s.lower, s.upper, s.count) for s in spec.subsets][1] == (
        32_768,
        27_000,
        34_816,
        195,
    )
    assert spec.resolve("books") == (tmp_path / "books").resolve()
    assert spec.sampling.policy == "first-fit"


def test_unknown_key_names_file_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, MINIMAL + "\n[tokenizers]\nprimary = 'chars'\nextras = ['x']\n")
    with pytest.raises(SpecError) as error:
        load_spec(path)
    assert str(path) in str(error.value)
    assert "tokenizers.extras: unknown key" in str(error.value)


def test_lower_above_upper_names_the_subset_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        MINIMAL + "\n[[subsets]]\nname='S'\ntarget=100\nlower=200\nupper=150\ncount=3\n",
    )
    with pytest.raises(SpecError, match=r"subsets\.0: lower \(200\) must not exceed upper \(150\)"):
        load_spec(path)


def test_negative_count_rejected(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        MINIMAL + "\n[[subsets]]\nname='S'\ntarget=100\nlower=50\nupper=150\ncount=-1\n",
    )
    with pytest.raises(SpecError, match=r"subsets\.0\.count"):
        load_spec(path)


def test_unknown_source_kind_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match=r"sources\.0"):
        load_spec(write(tmp_path, 'name = "x"\n[[sources]]\nkind = "ftp"\n'))
    with pytest.raises(SpecError, match="not a valid TOML file"):
        load_spec(write(tmp_path, "name = \n"))
    with pytest.raises(SpecError, match="cannot read spec file"):
        load_spec(tmp_path / "missing.toml")


def test_unknown_tokenizer_names_key_and_file(tmp_path: Path) -> None:
    path = write(tmp_path, MINIMAL + "\n[tokenizers]\nprimary = 'qwen2.5'\nextra = ['gpt-9']\n")
    with pytest.raises(SpecError) as error:
        load_spec(path)
    assert f"{path}: tokenizers.extra: unknown tokenizer id 'gpt-9'" in str(error.value)


def test_tokenizer_file_paths_are_relative_to_the_spec(tmp_path: Path) -> None:
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "zh.model").write_bytes(b"model")
    path = write(tmp_path, MINIMAL + "\n[tokenizers]\nprimary = 'sp:models/zh.model'\n")
    assert load_spec(path).tokenizers.primary == f"sp:{tmp_path.resolve() / 'models' / 'zh.model'}"


@pytest.mark.parametrize(
    ("section", "key"),
    [
        ("primary = 'hf:tok/tokenizer.json'", "tokenizers.primary"),
        ("primary = 'chars'\nextra = ['qwen2.5', 'sp:models/absent.model']", "tokenizers.extra[1]"),
        ("primary = 'hf:no-such-folder'", "tokenizers.primary"),
    ],
)
def test_missing_tokenizer_file_names_spec_file_and_key(
    tmp_path: Path, section: str, key: str
) -> None:
    path = write(tmp_path, MINIMAL + f"\n[tokenizers]\n{section}\n")
    with pytest.raises(SpecError) as error:
        load_spec(path)
    message = str(error.value)
    assert message.startswith(f"{path}: {key}: ")
    assert "not found" in message or "no tokenizer.json" in message
    assert str(tmp_path.resolve()) in message  # where it looked
