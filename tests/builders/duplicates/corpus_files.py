"""Test corpora made in tmp_path from the shared books (never copied into the repo)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ZH = "zh_simplified_four_classics"
EN = "en_pg_stripped"


def byte_copy(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def traditional_gb18030_copy(source: Path, target: Path) -> Path:
    """The book converted to traditional script with OpenCC and encoded as GB18030."""
    import opencc

    text = source.read_text(encoding="utf-8")
    traditional = opencc.OpenCC("s2t").convert(text)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(traditional.encode("gb18030"))
    return target


def partial_edition(source: Path, target: Path, stop_heading: str) -> Path:
    """The text up to the line starting ``stop_heading`` (an edition with fewer chapters),
    lightly edited: every 15th line dropped and some full stops changed to commas."""
    text = source.read_text(encoding="utf-8")
    cut = re.search(rf"^\s*{re.escape(stop_heading)}", text, flags=re.MULTILINE)
    assert cut is not None, stop_heading
    lines = text[: cut.start()].splitlines()
    kept = [line if i % 15 != 7 or len(line.strip()) < 40 else "" for i, line in enumerate(lines)]
    edited = "\n".join(kept).replace("。”", "！”")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(edited, encoding="utf-8")
    return target


def spec_file(
    folder: Path, corpus: Path, extra: str = "", lower: int = 60_000, count: int = 1000
) -> Path:
    """A build spec counting characters (fast, no tokenizer files) with one subset."""
    spec = folder / "spec.toml"
    spec.write_text(
        f"""name = "dup-test"
seed = 7

[[sources]]
kind = "files"
path = "{corpus}"

[tokenizers]
primary = "chars"

[[subsets]]
name = "M"
target = {lower + 15_000}
lower = {lower}
upper = {lower + 30_000}
count = {count}
{extra}
""",
        encoding="utf-8",
    )
    return spec
