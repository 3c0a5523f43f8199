"""Prompt templates: built-in zh/en IB and IE, user files, CNNSum's prompts.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lengthwise.evaluation.prompts import (
    PromptFileError,
    builtin_prompts,
    load_prompt_file,
    select_prompts,
)

CONTEXT = "第一回 甄士隐梦幻识通灵……"


def test_builtin_ib_puts_the_instruction_first_and_ie_last() -> None:
    prompts = builtin_prompts()
    for language in ("zh", "en"):
        ib = prompts["IB"].render(CONTEXT, language)
        ie = prompts["IE"].render(CONTEXT, language)
        instruction_ib = ib[: ib.index(CONTEXT)]
        instruction_ie = ie[ie.index(CONTEXT) + len(CONTEXT) :]
        # The instruction sits before the context in IB and after it in IE.
        keyword = "摘要" if language == "zh" else "summary"
        assert keyword in instruction_ib.lower()
        assert keyword in instruction_ie.lower()
        assert keyword not in ie[: ie.index(CONTEXT)].lower()


def test_wording_follows_the_sample_language() -> None:
    ib = builtin_prompts()["IB"]
    assert "摘要" in ib.render("x", "zh") and "Summary" not in ib.render("x", "zh")
    assert "Summary" in ib.render("x", "en")
    with pytest.raises(ValueError, match="language 'fr'"):
        ib.render("x", "fr")


def test_cnnsum_prompts_json_works_as_is(shared_corpora: Path) -> None:
    path = shared_corpora / "seed_artifacts" / "cnnsum" / "prompts.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    chosen = select_prompts(["IB", "IE"], path)
    assert [p.id for p in chosen] == ["IB", "IE"]
    ib, ie = chosen
    # Same template for every language, the context in place of {}.
    assert ib.render("CTX", "zh") == raw["Prompt-IB"].replace("{}", "CTX")
    assert ie.render("CTX", "en") == raw["Prompt-IE"].replace("{}", "CTX")
    # Full ids work too.
    assert select_prompts(["Prompt-IE"], path)[0].render("C", "zh") == raw["Prompt-IE"].replace(
        "{}", "C"
    )
    assert ib.version("zh") != builtin_prompts()["IB"].version("zh")


def test_per_language_templates_and_errors(tmp_path: Path) -> None:
    good = tmp_path / "prompts.json"
    good.write_text(
        json.dumps({"TLDR": {"zh": "{}\n\n一句话概括：", "en": "{}\n\nTL;DR:"}}), encoding="utf-8"
    )
    (prompt,) = select_prompts(["TLDR"], good)
    assert prompt.render("abc", "en") == "abc\n\nTL;DR:"
    assert prompt.instruction("zh") == "一句话概括："

    two = tmp_path / "two.json"
    two.write_text(json.dumps({"X": "{} and {}"}), encoding="utf-8")
    with pytest.raises(PromptFileError, match=r"two\.json: key 'X'.*exactly one \{\}.*found 2"):
        load_prompt_file(two)
    broken = tmp_path / "broken.json"
    broken.write_text('{"X": "{}",\n', encoding="utf-8")
    with pytest.raises(PromptFileError, match=r"broken\.json:2: not valid JSON"):
        load_prompt_file(broken)
    with pytest.raises(ValueError, match="prompt 'IB' is not in"):
        select_prompts(["IB"], good)
    with pytest.raises(PromptFileError, match="not found"):
        load_prompt_file(tmp_path / "missing.json")
