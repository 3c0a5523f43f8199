"""The project's import graph, read from the source files with `ast` (nothing is imported).

It sees every import a module can run: top-level, lazy ones inside functions,
`TYPE_CHECKING` blocks, relative imports (resolved), and modules named in a string literal
("lengthwise.x.y" or "lengthwise.x.y:attr", handed to importlib later). The core is
`lengthwise/*` minus the area symlinks; the areas are the checkout folders `builders/`,
`annotation/`, `releases/`, `evaluation/`, imported as `lengthwise.<area>...`.
tests/core/test_import_graph.py holds the rule's checks and allow-lists.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # the checkout
AREAS = ("builders", "annotation", "releases", "evaluation")
CORE = "core"

# What each part may import besides itself. The data flow is builders -> annotation ->
# releases -> evaluation; evaluation reads releases (and, through them, what they carry)
# but not the builders' or the annotation's modules directly.
ALLOWED_IMPORTS: Mapping[str, frozenset[str]] = {
    CORE: frozenset(),
    "builders": frozenset({CORE}),
    "annotation": frozenset({CORE, "builders"}),
    "releases": frozenset({CORE, "builders", "annotation"}),
    "evaluation": frozenset({CORE, "releases"}),
}


@dataclass(frozen=True)
class Edge:
    """One import of `target` by `source`, at `path:line`."""

    source: str
    target: str
    path: Path
    line: int
    by_name: bool  # through importlib / __import__ with a literal module name

    def where(self) -> str:
        """`path:line` relative to the repository, for messages."""
        try:
            shown = self.path.relative_to(REPO)
        except ValueError:
            shown = self.path
        return f"{shown}:{self.line}"


def module_files(root: Path) -> dict[str, Path]:
    """Every module of the package under `root` by dotted name (areas as lengthwise.<area>)."""
    found: dict[str, Path] = {}
    core = root / "lengthwise"
    parts: list[tuple[Path, str]] = [(core, "lengthwise")]
    parts += [(root / area, f"lengthwise.{area}") for area in AREAS if (root / area).is_dir()]
    for base, prefix in parts:
        for path in sorted(base.rglob("*.py")):
            relative = path.relative_to(base)
            # The area symlinks inside lengthwise/ are read from the checkout folders.
            if base == core and relative.parts[0] in AREAS:
                continue
            names = list(relative.with_suffix("").parts)
            if names[-1] == "__init__":
                names.pop()
            found[".".join([prefix, *names])] = path
    return found


def part_of(module: str) -> str:
    """The area a dotted module name belongs to, or CORE."""
    names = module.split(".")
    if len(names) > 1 and names[0] == "lengthwise" and names[1] in AREAS:
        return names[1]
    return CORE


def _resolve(name: str, modules: Set[str]) -> str | None:
    """The known module `name` denotes: itself, or its longest known parent package."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str, path: Path, modules: Set[str]) -> Iterator[Edge]:
    """The imports of one module onto modules of the package, wherever they appear in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        named: list[tuple[str, bool]] = []
        if isinstance(node, ast.Import):
            named = [(alias.name, False) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # `from a import b` imports the module a.b when there is one, else a name of a.
            named = [
                (f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base, False)
                for alias in node.names
            ]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            # A module named in a string ("lengthwise.x.y" or "lengthwise.x.y:attr") is
            # imported by name later (a registry, a command list, a constant handed to
            # importlib): it is a dependency all the same.
            literal = node.value.partition(":")[0]
            if literal in modules and literal.startswith("lengthwise."):
                named = [(literal, True)]
        for name, by_name in dict.fromkeys(named):
            if not name.startswith("lengthwise"):
                continue
            target = _resolve(name, modules)
            if target is not None and target != module:
                yield Edge(module, target, path, getattr(node, "lineno", 0), by_name)


def import_graph(root: Path = REPO) -> list[Edge]:
    """Every import between modules of the package rooted at `root`."""
    files = module_files(root)
    modules = set(files)
    return [edge for name, path in files.items() for edge in imports_of(name, path, modules)]


def upward_imports(edges: list[Edge]) -> list[Edge]:
    """The imports that go against the data flow (ALLOWED_IMPORTS)."""
    wrong = []
    for edge in edges:
        source, target = part_of(edge.source), part_of(edge.target)
        if source != target and target not in ALLOWED_IMPORTS[source]:
            wrong.append(edge)
    return wrong


def _graph(edges: list[Edge]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    return graph


def tangles(edges: list[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module (each sorted)."""
    graph = _graph(edges)
    # Tarjan's algorithm, iterative so deep graphs cannot hit the recursion limit.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return components


def cycles(edges: list[Edge]) -> list[list[str]]:
    """One readable chain `a -> b -> ... -> a` per strongly connected component."""
    graph = _graph(edges)
    return [_chain(component, graph) for component in tangles(edges)]


def _chain(component: list[str], graph: Mapping[str, Set[str]]) -> list[str]:
    """A shortest cycle through the first member of a strongly connected component."""
    members = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    chain = [node]
                    while chain[-1] != start:
                        chain.append(previous[chain[-1]])
                    return [*reversed(chain), start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"not a cycle: {component}")


def cycle_problems(edges: list[Edge], allowed_cycles: tuple[frozenset[str], ...]) -> list[str]:
    """A line per cycle outside the allow-list, and per allow-list entry no longer exact."""
    graph = _graph(edges)
    found = tangles(edges)
    problems = []
    for component in found:
        if any(set(component) <= allowed for allowed in allowed_cycles):
            continue
        chain = _chain(component, graph)
        others = sorted(set(component) - set(chain))
        problems.append(
            "import cycle: "
            + " -> ".join(chain)
            + (f" (tangled with {', '.join(others)})" if others else "")
        )
    present = {frozenset(component) for component in found}
    problems += [
        f"allowed cycle no longer exists as listed, narrow or remove it: {sorted(allowed)}"
        for allowed in allowed_cycles
        if allowed not in present
    ]
    return problems


def upward_problems(edges: list[Edge], allowed_upward: Mapping[tuple[str, str], str]) -> list[str]:
    """A line per upward import outside the allow-list, and per allow-list entry unused."""
    wrong = upward_imports(edges)
    problems = [
        f"{edge.where()}: {edge.source} ({part_of(edge.source)}) imports {edge.target}"
        f" ({part_of(edge.target)}){' by name' if edge.by_name else ''}"
        for edge in wrong
        if (edge.source, edge.target) not in allowed_upward
    ]
    present = {(edge.source, edge.target) for edge in wrong}
    problems += [
        f"allowed upward import no longer exists, remove it: {pair}"
        for pair in allowed_upward
        if pair not in present
    ]
    return problems
