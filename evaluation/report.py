"""Markdown report and PNG plots for one run or several side by side.

`write_report(run_dirs, out)` reads each run's results.json (and generations.jsonl for
paired per-sample comparisons) and writes ``report.md``, ``scores_by_length.png``
(mean score vs length, a panel per task, one line per run and prompt, with bootstrap
intervals and the random guess) and ``outcome_shares.png`` (share of each outcome per
run, subset and prompt). Every table and plot is drawn from the runs' score cells
(`lengthwise.evaluation.score_cells`): summarization is one task among others.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from lengthwise.errors import InputFileError, UserError
from lengthwise.evaluation.outcomes import OUTCOMES
from lengthwise.evaluation.report_plots import plot_outcomes, plot_scores
from lengthwise.evaluation.report_tasks import task_sections
from lengthwise.evaluation.results import sample_scores
from lengthwise.evaluation.score_cells import SUMMARIZATION, ScoreCell, score_cells
from lengthwise.evaluation.scoring import ib_ie_msd, length_drop, paired_comparison
from lengthwise.evaluation.store import GENERATIONS, GenerationStore
from lengthwise.storage import atomic_write_text, read_json

REPORT_FILE: Final = "report.md"
SCORES_PLOT: Final = "scores_by_length.png"
OUTCOMES_PLOT: Final = "outcome_shares.png"


@dataclass
class RunView:
    folder: Path
    label: str
    results: dict[str, Any]
    scores: dict[tuple[str, str], dict[str, float]]  # (subset, prompt) -> sample -> x100
    cells: list[ScoreCell]  # every task, subset and prompt (the one result model)

    @property
    def is_baseline(self) -> bool:
        return bool(self.results.get("model", {}).get("backend") == "baseline")

    @property
    def prompts(self) -> list[str]:
        return list(dict.fromkeys(cell.prompt for cell in self.cells))

    @property
    def prompt_independent(self) -> bool:
        """Answers that do not depend on the prompt (baselines): run under one prompt,
        shown under each."""
        return bool(self.results.get("model", {}).get("prompt_independent"))

    def cell(self, task: str, subset: str, prompt: str) -> ScoreCell | None:
        """The run's cell (a prompt-independent run's under any prompt), or None."""
        found = [c for c in self.cells if (c.task, c.subset) == (task, subset)]
        exact = next((c for c in found if c.prompt == prompt), None)
        if exact is None and self.prompt_independent and found:
            return found[0]
        return exact


def load_run(folder: Path) -> RunView:
    path = folder / "results.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no results; is {folder} a `lengthwise eval` run folder?")
    results = read_json(path)
    if not isinstance(results, dict) or "results" not in results:
        raise InputFileError(f"{path}: not a lengthwise results file")
    lines = GenerationStore(folder / GENERATIONS).read()
    model = results.get("model", {})
    label = f"{Path(str(model.get('name', folder.name))).name} ({model.get('backend', '?')})"
    return RunView(folder, label, results, sample_scores(lines), score_cells(results))


def _unique_labels(runs: list[RunView]) -> None:
    labels = [r.label for r in runs]
    for run in runs:
        if labels.count(run.label) > 1:
            run.label = f"{run.label} [{run.folder.name}]"


def _fmt(value: float | None, digits: int = 2) -> str:
    if value is None:
        return "–"
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.00"


def _cell(cell: ScoreCell | None) -> str:
    if cell is None:
        return "–"
    if cell.mean is None and cell.unscored:
        return f"{cell.unscored} (planned {cell.planned})"
    interval = f" [{_fmt(cell.ci[0])}, {_fmt(cell.ci[1])}]" if cell.ci else ""
    return f"{_fmt(cell.mean)}{interval} (n={cell.n})"


def _subset_order(runs: list[RunView]) -> list[str]:
    """The summary subsets of every run, shortest first."""
    targets: dict[str, int] = {}
    for run in runs:
        for cell in run.cells:
            if cell.task == SUMMARIZATION:
                targets[cell.subset] = max(targets.get(cell.subset, 0), cell.target)
    return sorted(targets, key=lambda s: (targets[s], s))


def _runs_table(runs: list[RunView]) -> list[str]:
    rows = [
        "| run | model | backend | chat template | release | policy | window | complete |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        r = run.results
        release = r.get("release", {})
        where = release.get("repo_id") or release.get("path", "")
        if release.get("revision"):
            where += f"@{release['revision']}"
        rows.append(
            f"| {run.label} | `{r['model']['name']}` | {r['model']['backend']} | "
            f"{r['model'].get('chat_template')} | {where} v{release.get('version', '?')} "
            f"(manifest {str(release.get('manifest_sha256', ''))[:12]}) | {r['plan']['policy']} | "
            f"{r['plan']['context_window'] or 'unknown'} | {'yes' if r.get('complete') else 'NO'} |"
        )
    return rows


def best_baseline(runs: Sequence[RunView]) -> str | None:
    """ "<label>, prompt P: mean ROUGE-L x100 over n samples" for the best baseline run."""
    best: tuple[float, str] | None = None
    for run in runs:
        if not run.is_baseline:
            continue
        summaries = {c.subset for c in run.cells if c.task == SUMMARIZATION}
        for prompt in run.prompts:
            values = [
                v
                for (subset, p), by in run.scores.items()
                if p == prompt and subset in summaries
                for v in by.values()
            ]
            if values:
                mean = sum(values) / len(values)
                text = (
                    f"{run.label}, prompt {prompt}: mean ROUGE-L {mean:.2f} over {len(values)} "
                    "samples (all subsets)"
                )
                best = max(best or (mean, text), (mean, text))
    return best[1] if best else None


def _reference_notes(runs: list[RunView]) -> list[str]:
    """Which runs are baselines, and whether the references are synthetic (demo)."""
    lines: list[str] = []
    baselines = [r for r in runs if r.is_baseline]
    if baselines:
        lines += ["", "Baselines (reference points, not models; dashed in the plots):"]
        lines += [
            f"- {r.label}: {r.results['model'].get('baseline', '')}"
            + (
                f" (answers do not depend on the prompt: run once, under {r.prompts[0]}, "
                "and shown under every prompt)"
                if r.prompt_independent and r.prompts
                else ""
            )
            for r in baselines
        ]
    synthetic = max(
        (int(r.results.get("release", {}).get("synthetic_references") or 0) for r in runs),
        default=0,
    )
    if synthetic:
        lines += [
            "",
            f"> **References are synthetic (demo)**: {synthetic} reference summaries were "
            "merged from the demo generator's chapter synopses, not written by people. "
            "Scores show the pipeline working, not summarization quality.",
        ]
    return lines


def _score_tables(runs: list[RunView], subsets: list[str]) -> list[str]:
    """Summarization's tables, one per prompt (the other tasks: `task_sections`)."""
    lines: list[str] = []
    prompts = list(
        dict.fromkeys(c.prompt for run in runs for c in run.cells if c.task == SUMMARIZATION)
    )
    for prompt in prompts:
        lines += [
            "",
            f"### Prompt {prompt}: mean ROUGE-L x100 [95% bootstrap CI] (n)",
            "",
            "| subset | " + " | ".join(r.label for r in runs) + " |",
            "|---|" + "---|" * len(runs),
        ]
        for subset in subsets:
            cells = [_cell(r.cell(SUMMARIZATION, subset, prompt)) for r in runs]
            lines.append(f"| {subset} | " + " | ".join(cells) + " |")
    return lines


def _task_prompt_position(run: RunView, task: str) -> list[str]:
    """MSD over the task's lengths and the paired IE-IB comparison per subset."""
    ib = {c.subset: c.mean for c in run.cells if c.task == task and c.prompt == "IB"}
    ie = {c.subset: c.mean for c in run.cells if c.task == task and c.prompt == "IE"}
    both = [s for s in ib if s in ie and ib[s] is not None and ie[s] is not None]
    if not both:
        return []
    msd = ib_ie_msd({s: ib[s] for s in both}, {s: ie[s] for s in both})
    squared = ", ".join(f"{s}: {_fmt((ib[s] or 0) - (ie[s] or 0))}^2" for s in both)
    lines = [f"- **{run.label}**, {task}: MSD {_fmt(msd)} (IB-IE per subset: {squared})"]
    for subset in both:
        paired = paired_comparison(
            run.scores.get((subset, "IB"), {}), run.scores.get((subset, "IE"), {})
        )
        if paired:
            ci = paired.ci or (None, None)
            lines.append(
                f"  - {subset}: IE-IB {_fmt(paired.mean_difference)} "
                f"[{_fmt(ci[0])}, {_fmt(ci[1])}], {paired.wins}/{paired.losses}/"
                f"{paired.ties} (p={_fmt(paired.sign_test_p, 3)}, n={paired.n})"
            )
    return lines


def _prompt_position(runs: list[RunView]) -> list[str]:
    lines = [
        "",
        "## Prompt position (IB vs IE)",
        "",
        "Per task: MSD = mean over subsets of (mean IB - mean IE)^2 (x100 scale). Paired: "
        "IE minus IB on the same samples, bootstrap CI, wins/losses/ties, exact sign test.",
        "",
    ]
    found: list[str] = []
    for run in runs:
        for task in dict.fromkeys(c.task for c in run.cells):
            found += _task_prompt_position(run, task)
    return lines + (found or ["No run scored both IB and IE on any task."])


def _length_drops(runs: list[RunView]) -> list[str]:
    lines = ["", "## Drop from the shortest to the longest length", ""]
    for run in runs:
        for task in dict.fromkeys(c.task for c in run.cells):
            for prompt in dict.fromkeys(c.prompt for c in run.cells if c.task == task):
                series = sorted(
                    (c for c in run.cells if c.task == task and c.prompt == prompt),
                    key=lambda c: (c.target, c.length),
                )
                drop = length_drop([(c.length, c.mean) for c in series])
                if drop:
                    relative = drop["relative_drop"]
                    share = f" ({relative:.1%})" if isinstance(relative, float) else ""
                    lines.append(
                        f"- {run.label}, {task}, {prompt}: {drop['from']} "
                        f"{_fmt(_number(drop['from_mean']))} -> {drop['to']} "
                        f"{_fmt(_number(drop['to_mean']))}: drop {_fmt(_number(drop['drop']))}"
                        f"{share}"
                    )
    if len(lines) == 3:
        lines.append("Fewer than two scored lengths.")
    return lines


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _outcome_table(runs: list[RunView]) -> list[str]:
    lines = [
        "",
        "## Outcomes (counted, never hidden)",
        "",
        "| run | task | subset | prompt | " + " | ".join(OUTCOMES) + " | missing |",
        "|---|---|---|---|" + "---|" * (len(OUTCOMES) + 1),
    ]
    for run in runs:
        for cell in run.cells:
            counts = [str(cell.outcomes.get(o, 0)) for o in OUTCOMES]
            lines.append(
                f"| {run.label} | {cell.task} | {cell.subset} | {cell.prompt} | "
                + " | ".join(counts)
                + f" | {cell.missing} |"
            )
    return lines


def _plan_table(runs: list[RunView]) -> list[str]:
    lines = [
        "",
        "## Plan (before generation)",
        "",
        "| run | subset | prompt | planned | kept | truncated | extrapolated | skipped | "
        "tokens cut | max prompt tokens | max new tokens |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        for subset, by_prompt in run.results["plan"]["subsets"].items():
            for prompt, group in by_prompt.items():
                actions = group["actions"]
                lines.append(
                    f"| {run.label} | {subset} | {prompt} | {group['planned']} | "
                    f"{actions.get('keep', 0)} | {actions.get('truncated', 0)} | "
                    f"{actions.get('extrapolated', 0)} | {actions.get('skipped', 0)} | "
                    f"{group['tokens_cut']} | {group['max_prompt_tokens']} | "
                    f"{group['max_new_tokens']} |"
                )
    return lines


def _between_runs(runs: list[RunView]) -> list[str]:
    if len(runs) < 2:
        return []
    base = runs[0]
    lines = [
        "",
        f"## Paired per-sample comparison with {base.label}",
        "",
        "Other run minus the first, on the samples both scored.",
        "",
        "| run | subset | prompt | n | mean diff [95% CI] | wins/losses/ties | sign test p |",
        "|---|---|---|---|---|---|---|",
    ]
    base_release = base.results.get("release", {}).get("manifest_sha256")
    for run in runs[1:]:
        if run.results.get("release", {}).get("manifest_sha256") != base_release:
            lines.append(f"| {run.label} | – | – | – | different release: not paired | – | – |")
            continue
        for subset, prompt in dict.fromkeys((c.subset, c.prompt) for c in run.cells):
            paired = paired_comparison(
                base.scores.get((subset, prompt), {}), run.scores.get((subset, prompt), {})
            )
            if paired is None:
                continue
            ci = paired.ci or (None, None)
            lines.append(
                f"| {run.label} | {subset} | {prompt} | {paired.n} | "
                f"{_fmt(paired.mean_difference)} [{_fmt(ci[0])}, {_fmt(ci[1])}] | "
                f"{paired.wins}/{paired.losses}/{paired.ties} | "
                f"{_fmt(paired.sign_test_p, 3)} |"
            )
    return lines


def write_report(run_dirs: Sequence[Path], out: Path, *, title: str | None = None) -> Path:
    """report.md and the two PNGs in `out`; returns the markdown path."""
    if not run_dirs:
        raise UserError("no run folders given")
    runs = [load_run(Path(folder)) for folder in run_dirs]
    _unique_labels(runs)
    subsets = _subset_order(runs)
    out.mkdir(parents=True, exist_ok=True)
    plot_scores(runs, out / SCORES_PLOT)
    plot_outcomes(runs, out / OUTCOMES_PLOT)
    lines = [
        f"# {title or 'lengthwise evaluation report'}",
        "",
        *_runs_table(runs),
        *_reference_notes(runs),
        "",
        "## Scores",
        "",
        f"![score vs subset length]({SCORES_PLOT})",
        *_score_tables(runs, subsets),
        *_prompt_position(runs),
        *_length_drops(runs),
        *_between_runs(runs),
        *_outcome_table(runs),
        "",
        f"![outcome shares]({OUTCOMES_PLOT})",
        *task_sections(runs),
        *_plan_table(runs),
        "",
    ]
    path = out / REPORT_FILE
    atomic_write_text(path, "\n".join(lines))
    return path
