"""One numeral reader for every module: zero printed as the white circle ○ (U+25CB) or a
full-width Ｏ, old-style 壱弐参拾, 两/兩 and full-width digits are numbers wherever a
number is read, and no module keeps a numeral table of its own.

Found in a held-out edition of 红楼梦 numbering 第一○○回 … 第一二○回 with ○ for zero:
chapter detection's parser read ○, but cleaning's structural line test
(`structure_lines._ZH_NUMERAL`) did not, so those heading lines were not structure and
chapters 100-110 and 120 merged into 99. The shared 红楼梦 (numbered 第一零零回) is set
here with ○ for each 零 of its headings.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from lengthwise.builders.cleaning.structure_lines import is_heading_line
from lengthwise.text.numerals import parse_number
from tests.fixtures.reprinting import processed, read_shared, with_text

ROOT = Path(__file__).resolve().parents[3]
ZH = "zh_simplified_four_classics"


@pytest.mark.parametrize(
    ("printed", "value"),
    [
        ("一○○", 100), ("一○一", 101), ("一二○", 120), ("一ＯＯ", 100), ("一〇八", 108),
        ("一百零八", 108), ("一百○八", 108), ("弐拾参", 23), ("壱", 1), ("两百", 200),
        ("兩", 2), ("１２０", 120), ("廿一", 21), ("XIV", 14), ("xiv", 14),
        ("Twenty-First", 21), ("the First", 1),
    ],
)  # fmt: skip
def test_every_script_and_look_alike_reads(printed: str, value: int) -> None:
    assert parse_number(printed) == value


@pytest.mark.parametrize(
    "line", ["第一○○回  破好事香菱结深恨", "第一ＯＯ回", "第弐拾参章", "第１２０回"]
)
def test_look_alike_numbers_make_heading_lines(line: str) -> None:
    assert is_heading_line(line)


def test_hongloumeng_with_white_circle_zeros_keeps_all_120_chapters(
    shared_corpora: Path,
) -> None:
    doc = read_shared(shared_corpora, ZH, "hongloumeng_utf8.txt")
    heading = re.compile(r"^(\s*第一)([零一二][零一二三四五六七八九])(回)", re.MULTILINE)
    text, count = heading.subn(
        lambda m: m.group(1) + m.group(2).replace("零", "○") + m.group(3), doc.text
    )
    assert text.count("第一○○回") >= 1 and count >= 21  # 100..120, some also in a menu
    book = processed(with_text(doc, text))
    numbers = [c.number for c in book.chapters]
    assert numbers == list(range(1, 121))
    by_number = {c.number: c for c in book.chapters}
    assert by_number[100].title is not None and "破好事香菱结深恨" in by_number[100].title


# What a numeral table looks like in source: three CJK digits in a row, a zero form,
# full-width digits, the roman capitals (or small letters) in order.
_TABLE = re.compile(r"[一二三四五六七八九十]{3}|零〇|〇零|[○Ｏ]|０１２|０-９|IVX|ivx|廿卅|壹贰")
_CORE = {"lengthwise/text/numerals.py", "lengthwise/text/number_words.py"}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def test_no_module_keeps_a_numeral_table_of_its_own() -> None:
    offenders = []
    for folder in ("lengthwise", "builders", "annotation", "releases", "evaluation"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative in _CORE:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = _docstrings(tree)
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and id(node) not in docstrings
                    and _TABLE.search(node.value)
                ):
                    offenders.append(f"{relative}:{node.lineno}: {node.value[:40]!r}")
    assert not offenders, "numeral tables outside lengthwise.text.numerals:\n" + "\n".join(
        offenders
    )
