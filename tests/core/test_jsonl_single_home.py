"""No module but lengthwise/jsonl.py reads or writes JSON lines by itself.

The U+2028 bug came from one reader that split a JSONL file its own way; this reads the
project's sources (syntax trees, not text) so the next such reader or writer fails here.
Flagged: `json.loads` of a loop variable that walks lines (``splitlines()``, ``split()``,
``readlines()``, a file handle), ``map(json.loads, ...)``, a line assembled as
``json.dumps(...) + "\\n"`` (or in an f-string, or joined with "\\n"), and a file opened
for appending in a function that calls ``json.dumps``.
"""

from __future__ import annotations

import ast
import itertools
import os
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AREAS = ("lengthwise", "builders", "annotation", "releases", "evaluation", "bench", "scripts")
HOME = Path("lengthwise/jsonl.py")
_LINE_WALKERS = {"splitlines", "split", "readlines"}


def _is_json_call(node: ast.AST, name: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "json"
    )


def _is_line_source(node: ast.AST) -> bool:
    """x.splitlines(), x.split(...), x.readlines(), open(...), x.open(...)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in _LINE_WALKERS | {"open"}
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open"


def _line_names(tree: ast.AST) -> set[str]:
    """Names bound to lines or to a file handle (`with path.open() as handle`)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.withitem) and _is_line_source(node.context_expr):
            names |= _names(node.optional_vars) if node.optional_vars else set()
        elif isinstance(node, ast.Assign) and _is_line_source(node.value):
            names |= {n for t in node.targets for n in _names(t)}
    return names


def _walks_lines(iterable: ast.expr, line_names: set[str]) -> bool:
    """Whether a loop's iterable yields lines: x.splitlines(), a file handle, open(...)."""
    while (
        isinstance(iterable, ast.Call)
        and isinstance(iterable.func, ast.Name)
        and iterable.func.id in ("enumerate", "reversed", "list", "sorted")
        and iterable.args
    ):
        iterable = iterable.args[0]
    return _is_line_source(iterable) or (
        isinstance(iterable, ast.Name) and iterable.id in line_names
    )


def _names(target: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _argument_name(call: ast.Call) -> str | None:
    """The variable json.loads parses: `line`, `line.strip()`, `raw.decode()`."""
    if not call.args:
        return None
    value = call.args[0]
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        value = value.func.value
    return value.id if isinstance(value, ast.Name) else None


def _line_loops(tree: ast.AST) -> Iterator[tuple[ast.AST, set[str]]]:
    """(loop, its target names) for each loop or comprehension over lines."""
    line_names = _line_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and _walks_lines(node.iter, line_names):
            yield node, _names(node.target)
        elif isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            for generator in node.generators:
                if _walks_lines(generator.iter, line_names):
                    yield node, _names(generator.target)


def _dumps_then_newline(node: ast.AST) -> bool:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        right = node.right
        return (
            _is_json_call(node.left, "dumps")
            and not any(k.arg == "indent" for k in node.left.keywords)  # type: ignore[attr-defined]
            and isinstance(right, ast.Constant)
            and isinstance(right.value, str)
            and "\n" in right.value
        )
    if isinstance(node, ast.JoinedStr):
        parts = node.values
        return any(
            isinstance(part, ast.FormattedValue)
            and _is_json_call(part.value, "dumps")
            and isinstance(after, ast.Constant)
            and "\n" in str(after.value)
            for part, after in itertools.pairwise(parts)
        )
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "join"
        and isinstance(node.func.value, ast.Constant)
        and node.func.value.value == "\n"
        and node.args
        and isinstance(node.args[0], ast.GeneratorExp | ast.ListComp)
    ):
        return _is_json_call(node.args[0].elt, "dumps")
    return False


def _opens_for_append(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    is_open = (isinstance(node.func, ast.Name) and node.func.id == "open") or (
        isinstance(node.func, ast.Attribute) and node.func.attr == "open"
    )
    modes = [a for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    modes += [k.value for k in node.keywords if k.arg == "mode"]  # type: ignore[misc]
    return is_open and any(isinstance(m, ast.Constant) and "a" in str(m.value) for m in modes)


def jsonl_handling(source: str) -> list[str]:
    """What in `source` reads or writes JSON lines by itself (one entry per place)."""
    tree = ast.parse(source)
    found: list[str] = []
    for loop, targets in _line_loops(tree):
        for node in ast.walk(loop):
            if (
                isinstance(node, ast.Call)
                and _is_json_call(node, "loads")
                and (_argument_name(node) or "") in targets
            ):
                found.append(f"line {node.lineno}: json.loads of a line")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "map"
            and node.args
            and isinstance(node.args[0], ast.Attribute)
            and node.args[0].attr == "loads"
        ):
            found.append(f"line {node.lineno}: map(json.loads, ...)")
        if _dumps_then_newline(node):
            found.append(f"line {getattr(node, 'lineno', 0)}: json.dumps(...) as a line")
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inside = list(ast.walk(node))
            if any(_is_json_call(n, "dumps") for n in inside):
                found += [
                    f"line {n.lineno}: opened for appending JSON"  # type: ignore[attr-defined]
                    for n in inside
                    if _opens_for_append(n)
                ]
    return sorted(set(found))


def _sources() -> Iterator[Path]:
    for area in AREAS:
        for folder, _, files in os.walk(ROOT / area):  # symlinked area folders not followed
            for name in files:
                if name.endswith(".py"):
                    yield (Path(folder) / name).relative_to(ROOT)


def test_no_module_but_lengthwise_jsonl_reads_or_writes_json_lines() -> None:
    offenders = {
        str(path): places
        for path in _sources()
        if path != HOME and (places := jsonl_handling((ROOT / path).read_text("utf-8")))
    }
    assert offenders == {}, "use lengthwise.jsonl (read_jsonl, write_jsonl, JsonlLog)"


OLD_READERS = [
    # evaluation/store.py and lengthwise/llm/usage_journal.py before lengthwise.jsonl
    """
def read(self):
    for number, text in enumerate(raw.splitlines(), start=1):
        value = json.loads(text)
""",
    # lengthwise/store.py's books reader
    """
def books(path):
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            row = json.loads(line)
""",
    # bench/kill_resume.py
    "rows = [json.loads(line) for line in text.splitlines() if line.strip()]",
    "lines = text.splitlines()\nfor line in lines:\n    rows.append(json.loads(line))",
    "rows = set(map(json.loads, lines))",
    # evaluation/judging.py and the appenders
    'text = "".join(json.dumps(row, ensure_ascii=False) + "\\n" for row in rows)',
    """
def append(self, line):
    text = json.dumps(line)
    with self.path.open("a", encoding="utf-8") as handle:
        handle.write(text)
""",
    'out = f"{json.dumps(row)}\\n"',
    'out = "\\n".join(json.dumps(r) for r in rows)',
]


def test_the_check_finds_each_way_the_old_code_handled_json_lines() -> None:
    for source in OLD_READERS:
        assert jsonl_handling(source), source
    fine = [
        "for text in (a, b):\n    value = json.loads(text)",  # candidates, not lines
        "data = json.loads(path.read_text())",
        "value = json.loads(row[0])",
        'payload = json.dumps(value, indent=2) + "\\n"',  # one JSON document per file
    ]
    assert [s for s in fine if jsonl_handling(s)] == []
