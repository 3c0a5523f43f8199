"""One self-contained HTML file: styles, script, data and plots inline (no server, no network).

`write_html(run_dirs, out)` writes OUT/report.html with the runs, every score row of each
results.json, the report's plots and each run's analyses (RUN_DIR/analyses: notes and
PNGs), and a sample table whose rows open a panel with the context's position map beside
the output and the reference. Filters by model, subset, task and prompt hide what does
not match (elements without that attribute, e.g. a plot over every run, always show).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Final

from lengthwise.evaluation.analyses.run_data import AnalysedRun, load_analysed_runs
from lengthwise.evaluation.viewer.content import ViewerContent, gather
from lengthwise.html_safe import escape, inline_script, json_script
from lengthwise.storage import atomic_write_text

HTML_FILE: Final = "report.html"
FILTERS: Final = ("model", "subset", "task", "prompt")


def _asset(name: str) -> str:
    return (resources.files("lengthwise.evaluation.viewer") / "assets" / name).read_text("utf-8")


def _attrs(values: Mapping[str, str | None], keys: Iterable[str] = FILTERS) -> str:
    """`data-KEY="VALUE"` for each filter key that has a value (a row's filter values)."""
    return " ".join(
        f'data-{k}="{escape(str(values[k]))}"' for k in keys if values.get(k) is not None
    )


def _number(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{float(value):.{digits}f}"


def _filters(content: ViewerContent) -> str:
    parts = []
    for key in FILTERS:
        rows = [r.filter_values() for r in content.score_rows]
        rows += [s.filter_values() for s in content.samples]
        values = sorted({row[key] for row in rows})
        options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
        parts.append(
            f'<label>{key} <select id="filter-{key}"><option value="">all</option>'
            f"{options}</select></label>"
        )
    return f'<section id="filters">{"".join(parts)}<span id="shown-count"></span></section>'


def _run_note(run: AnalysedRun) -> str:
    model = run.results.model
    note = f"baseline: {model.baseline}" if model.baseline else ""
    if model.prompt_independent:
        note += "; answers do not depend on the prompt: run once"
    return note


def _runs_table(runs: Sequence[AnalysedRun]) -> str:
    rows = []
    for run in runs:
        release = run.results.release
        where = release.repo_id or release.path
        rows.append(
            f'<tr class="filterable" data-model="{escape(run.model)}"><td>{escape(run.label)}</td>'
            f"<td>{escape(run.model)}</td><td>{escape(str(where))}</td>"
            f"<td>{'yes' if run.results.complete else 'no'}</td>"
            f'<td class="c-run-note">{escape(_run_note(run))}</td></tr>'
        )
    head = "<tr><th>run</th><th>model</th><th>release</th><th>complete</th><th>note</th></tr>"
    return f'<section id="runs"><h2>Runs</h2><table>{head}{"".join(rows)}</table></section>'


def _score_table(content: ViewerContent) -> str:
    head = (
        "<tr><th>run</th><th>task</th><th>subset</th><th>prompt</th><th>metric</th>"
        "<th>mean</th><th>95% CI</th><th>n</th><th>planned</th><th>random guess</th>"
        "<th>instruction following %</th><th>copied example %</th><th>note</th></tr>"
    )
    rows = [
        f'<tr class="filterable score-row" {_attrs(r.filter_values())}>'
        f'<td class="c-run">{escape(r.run)}</td>'
        f'<td class="c-task">{escape(r.task)}</td><td class="c-subset">{escape(r.subset)}</td>'
        f'<td class="c-prompt">{escape(r.prompt)}</td><td>{escape(r.metric)}</td>'
        f'<td class="num c-mean">{_number(r.mean)}</td>'
        f'<td class="num c-ci">{_number(r.ci_low)} – {_number(r.ci_high)}</td>'
        f'<td class="num c-n">{r.n}</td><td class="num">{r.planned}</td>'
        f'<td class="num c-random">{_number(r.random_guess)}</td>'
        f'<td class="num c-following">{_number(r.instruction_following)}</td>'
        f'<td class="num c-copied">{_number(r.copy_example)}</td>'
        f'<td class="c-note">{escape(r.unscored or "")}</td></tr>'
        for r in content.score_rows
    ]
    return (
        '<section id="scores"><h2>Scores (x100)</h2><p>Every task, subset and prompt of '
        "each run's results.json; random guess: the expected score of guessing.</p>"
        f'<table id="score-table">{head}{"".join(rows)}</table></section>'
    )


def _plots(content: ViewerContent) -> str:
    figures = [
        f'<figure class="plot filterable" {_attrs({"model": f.model})}>'
        f'<img src="{f.data_uri}" alt="{escape(f.title)}"><figcaption>{escape(f.title)}'
        "</figcaption></figure>"
        for f in content.figures
    ]
    return (
        f'<section id="plots"><h2>Plots</h2><div class="plots">{"".join(figures)}</div></section>'
    )


def _analyses(content: ViewerContent) -> str:
    blocks = [
        f'<div class="analysis filterable" data-model="{escape(a.model)}">'
        f"<h3>{escape(a.name)} · {escape(a.run)}</h3><ul>"
        + "".join(f"<li>{escape(n)}</li>" for n in a.notes)
        + "</ul></div>"
        for a in content.analyses
    ]
    if not blocks:
        blocks = ["<p>No analyses in the run folders (run `lengthwise analyse NAME RUN_DIR`).</p>"]
    return f'<section id="analyses"><h2>Analyses</h2>{"".join(blocks)}</section>'


def _samples(content: ViewerContent) -> str:
    head = (
        "<tr><th>run</th><th>task</th><th>subset</th><th>sample</th><th>prompt</th>"
        "<th>outcome</th><th>score</th></tr>"
    )
    rows = [
        f'<tr class="filterable sample-row" data-index="{i}" {_attrs(s.filter_values())}>'
        f"<td>{escape(s.run)}</td><td>{escape(s.task)}</td><td>{escape(s.subset)}</td>"
        f"<td>{escape(s.sample)}</td><td>{escape(s.prompt)}</td>"
        f'<td>{escape(s.outcome)}</td><td class="num">{_number(s.score)}</td></tr>'
        for i, s in enumerate(content.samples)
    ]
    return (
        '<section id="samples"><h2>Samples</h2><p>Click a row for its position map, output '
        f'and reference.</p><table id="sample-table">{head}{"".join(rows)}</table>'
        '<div id="sample-panel" hidden></div>'
        f"{json_script('sample-data', [s.to_json() for s in content.samples])}</section>"
    )


def render(content: ViewerContent, title: str) -> str:
    body = "".join(
        [
            f"<h1>{escape(title)}</h1>",
            _filters(content),
            _runs_table(content.runs),
            _score_table(content),
            _plots(content),
            _analyses(content),
            _samples(content),
        ]
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{_asset('viewer.css')}</style></head>"
        f"<body>{body}{inline_script(_asset('viewer.js'))}</body></html>\n"
    )


def write_html(
    run_dirs: Sequence[Path],
    out: Path,
    report_plots: Sequence[Path] = (),
    *,
    title: str | None = None,
) -> Path:
    runs = load_analysed_runs(list(run_dirs))
    content = gather(runs, report_plots)
    out.mkdir(parents=True, exist_ok=True)
    path = out / HTML_FILE
    atomic_write_text(path, render(content, title or "lengthwise evaluation report"))
    return path
