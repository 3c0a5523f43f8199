"""The import graph read from the source files: no cycle, no upward import.

The graph is read with `ast` (nothing is imported), so it sees every import a module can
run: top-level, lazy ones inside functions, `TYPE_CHECKING` blocks, relative imports
(resolved), and `importlib.import_module("lengthwise....")` / `__import__` calls whose
argument is a string literal. The core is `lengthwise/*` minus the area symlinks; the areas
are the checkout folders `builders/`, `annotation/`, `releases/`, `evaluation/`, imported
as `lengthwise.<area>...`. The rule (docs/design.md, "Dependency direction"): the core
imports no area, and an area imports the core and only the areas upstream of it in the
data flow (builders -> annotation -> releases -> evaluation; evaluation reads releases).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.core.import_graph import (
    AREAS,
    CORE,
    Edge,
    cycle_problems,
    cycles,
    import_graph,
    part_of,
    upward_problems,
)

# Upward imports that exist on purpose, with the reason. This list may only shrink: an
# entry that no longer matches an import fails the test too, so it is removed when fixed.
# Each entry is (importer, imported module). All are by name (a string handed to
# importlib later), so importing the core alone never loads an area.
_CLI = "the command line is the one entry point that assembles every area's commands"
_PROVIDERS = "the provider registry names providers hosted in evaluation, imported when built"
ALLOWED_UPWARD: Mapping[tuple[str, str], str] = {
    ("lengthwise.cli", "lengthwise.builders.commands"): _CLI,
    ("lengthwise.cli", "lengthwise.builders.screening.commands"): _CLI,
    ("lengthwise.cli", "lengthwise.annotation.commands"): _CLI,
    ("lengthwise.cli", "lengthwise.annotation.annotate_commands"): _CLI,
    ("lengthwise.cli", "lengthwise.releases.release_commands"): _CLI,
    ("lengthwise.cli", "lengthwise.releases.commands"): _CLI,
    ("lengthwise.cli", "lengthwise.evaluation.commands"): _CLI,
    ("lengthwise.llm.registry", "lengthwise.evaluation.vllm_engine"): _PROVIDERS,
    ("lengthwise.llm.registry", "lengthwise.evaluation.baselines"): _PROVIDERS,
}

# Module-level cycles known today (counting lazy imports inside functions, which is how
# most of them were "broken"). Like ALLOWED_UPWARD this list may only shrink: a cycle is
# accepted only if its modules are all inside one entry, and an entry must still match a
# cycle exactly, so a fixed or shrunk cycle is removed or narrowed here.
ALLOWED_CYCLES: tuple[frozenset[str], ...] = tuple(
    frozenset(f"lengthwise.{name}" for name in cycle.split())
    for cycle in (
        "jsonl storage",  # storage's helpers call jsonl lazily; jsonl writes via storage
        "text.number_words text.number_words_europe text.numerals",  # readers self-register
        "builders.demo_corpus builders.demo_synopses",
        "annotation.annotate_commands annotation.task_checks.commands",
        "builders.cleaning.broken_paragraphs builders.cleaning.learned"
        " builders.cleaning.line_rules builders.cleaning.rules builders.cleaning.unwrap",
        # Registries: sample_audit loads DETECTORS lazily, each detector imports its context.
        "builders.audit.sample_audit builders.audit.detectors"
        + "".join(
            f" builders.audit.detectors.{name}"
            for name in [
                "ascii_symbols",
                "damage",
                "headings",
                "line_breaks",
                "nav_bars",
                "page_markers",
                "repeated_fragments",
                "repeated_lines",
                "terms",
                "toc_runs",
                "urls",
                "watermarks",
            ]
        ),
        # base loads the families lazily; each family registers itself on base.
        "builders.tasks.families"
        + "".join(
            f" builders.tasks.{name}"
            for name in [
                "base",
                "chapter_runs",
                "chunking",
                "context_runs",
                "drafting",
                "incremental",
                "needles",
                "order_boundaries",
                "ordering",
                "qa",
                "recall",
                "sections",
                "synopses",
                "synopsis_ordering",
            ]
        ),
        "evaluation.report evaluation.report_plots evaluation.report_tasks",
    )
)


def test_the_graph_sees_imports_inside_and_between_areas() -> None:
    # A reader that missed the area folders or relative imports would pass vacuously.
    edges = import_graph()
    pairs = {(part_of(edge.source), part_of(edge.target)) for edge in edges}
    for area in AREAS:
        assert (area, area) in pairs, f"no import between modules of {area} was read"
        assert (area, CORE) in pairs, f"no import of the core by {area} was read"
    assert (CORE, CORE) in pairs


def test_no_import_cycle_between_modules() -> None:
    problems = cycle_problems(import_graph(), ALLOWED_CYCLES)
    assert not problems, "\n".join(problems)


def test_no_import_cycle_between_areas() -> None:
    # The allowed upward imports (the CLI's and the providers' by-name entry points) are
    # the only way back; any other would close a cycle between areas.
    edges = [
        Edge(part_of(e.source), part_of(e.target), e.path, e.line, e.by_name)
        for e in import_graph()
        if part_of(e.source) != part_of(e.target) and (e.source, e.target) not in ALLOWED_UPWARD
    ]
    assert not cycles(edges), "\n".join(" -> ".join(chain) for chain in cycles(edges))


def test_no_upward_import() -> None:
    problems = upward_problems(import_graph(), ALLOWED_UPWARD)
    assert not problems, "\n".join(problems)


def _plant(tmp_path: Path, files: Mapping[str, str]) -> Path:
    """A minimal copy of the layout (core + areas) holding `files`."""
    for part in ("lengthwise", *AREAS):
        (tmp_path / part).mkdir()
        (tmp_path / part / "__init__.py").write_text("", encoding="utf-8")
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        # The core reaching into an area, lazily inside a function.
        (
            {
                "lengthwise/cli.py": "def main():\n    from lengthwise.builders import build\n",
                "builders/build.py": "",
            },
            ["lengthwise.cli (core) imports lengthwise.builders.build (builders)"],
        ),
        # An area importing downstream, through a relative import.
        (
            {
                "builders/build.py": "from ..releases.publish import go\n",
                "releases/publish.py": "go = 1\n",
            },
            ["lengthwise.builders.build (builders) imports lengthwise.releases.publish"],
        ),
        # Evaluation reading the builders directly, by name through importlib.
        (
            {
                "evaluation/run.py": "import importlib\n"
                "m = importlib.import_module('lengthwise.builders.samples')\n",
                "builders/samples.py": "",
            },
            [
                "lengthwise.evaluation.run (evaluation) imports lengthwise.builders.samples"
                " (builders) by name"
            ],
        ),
    ],
)
def test_a_planted_upward_import_is_reported(
    tmp_path: Path, files: Mapping[str, str], expected: list[str]
) -> None:
    problems = upward_problems(import_graph(_plant(tmp_path, files)), {})
    assert len(problems) == len(expected), problems
    for problem, wanted in zip(problems, expected, strict=True):
        assert wanted in problem


def test_allowed_downstream_imports_are_not_reported(tmp_path: Path) -> None:
    root = _plant(
        tmp_path,
        {
            "releases/card.py": "from lengthwise.annotation import merge\n"
            "import lengthwise.jsonl\n",
            "annotation/merge.py": "from lengthwise.builders.samples import Sample\n",
            "builders/samples.py": "Sample = 1\n",
            "evaluation/load.py": "from lengthwise.releases import card\n",
            "lengthwise/jsonl.py": "",
        },
    )
    assert upward_problems(import_graph(root), {}) == []


def test_a_planted_cycle_is_reported_as_a_chain(tmp_path: Path) -> None:
    root = _plant(
        tmp_path,
        {
            "lengthwise/a.py": "from lengthwise import b\n",
            "lengthwise/b.py": "def f():\n    from . import c\n",
            "lengthwise/c.py": "import lengthwise.a\n",
        },
    )
    assert cycle_problems(import_graph(root), ()) == [
        "import cycle: lengthwise.a -> lengthwise.b -> lengthwise.c -> lengthwise.a"
    ]


def test_the_allow_lists_can_only_shrink(tmp_path: Path) -> None:
    root = _plant(
        tmp_path,
        {
            "lengthwise/a.py": "from lengthwise import b\n",
            "lengthwise/b.py": "from lengthwise import a, c\n",
            "lengthwise/c.py": "from lengthwise import b\n",
            "lengthwise/cli.py": "COMMANDS = ('lengthwise.builders.commands',)\n",
            "builders/commands.py": "",
        },
    )
    edges = import_graph(root)
    allowed_pair = frozenset({"lengthwise.a", "lengthwise.b"})
    # A module joining an allowed cycle is a new cycle; the stale entry is reported too.
    assert cycle_problems(edges, (allowed_pair,)) == [
        "import cycle: lengthwise.a -> lengthwise.b -> lengthwise.a (tangled with lengthwise.c)",
        "allowed cycle no longer exists as listed, narrow or remove it:"
        " ['lengthwise.a', 'lengthwise.b']",
    ]
    everything = frozenset({"lengthwise.a", "lengthwise.b", "lengthwise.c"})
    assert cycle_problems(edges, (everything,)) == []
    by_name = ("lengthwise.cli", "lengthwise.builders.commands")
    assert upward_problems(edges, {by_name: "entry point"}) == []
    assert upward_problems([], {by_name: "entry point"}) == [
        f"allowed upward import no longer exists, remove it: {by_name}"
    ]
