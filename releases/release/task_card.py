"""The dataset card's "Task families" section: per task, what the family is, what
`answers` holds, an Ada-LEval-like table per length, and every instance left out."""

from __future__ import annotations

from lengthwise.releases.release.task_configs import TaskConfig
from lengthwise.task_records import FAMILY_ANSWERS, TaskInstance

FAMILY_DESCRIPTIONS: dict[str, str] = {
    "ordering": (
        "Ada-LEval's TSort: segments cut from contiguous chapters of one book, shuffled, with "
        "the paragraphs just before and after as hints; chapter numbers and headings removed. "
        "The model gives the original order (exact-match accuracy, Kendall tau)."
    ),
    "synopsis-ordering": (
        "ETHIC's ordering variant: the per-chunk synopses of the whole context, shuffled; "
        "the model restores their order (LCS ratio)."
    ),
    "recall": (
        "ETHIC's recall: every character name in the context, labelled per chunk by the "
        "drafting model, merged without duplicates and checked by people (set F1)."
    ),
    "sections": (
        "ETHIC's per-section summarizing: the context split into sections, one summary "
        "expected per section, references from the chapter synopses (ROUGE-L per section)."
    ),
    "qa": (
        "Question answering by position: abstractive, extractive, yes/no and unanswerable "
        "questions from chapters at the beginning, middle and end of the context, validated "
        "by people before release."
    ),
    "needles": (
        "SWiM's needles in real documents: a question answered by one document, placed at "
        "set depths among shuffled distractor documents filling the length (`depth` is the "
        "answering document's relative start, 0 first, 1 last), and the distractor-fill "
        "series (`fill`: that share of the window filled)."
    ),
    "incremental": (
        "Incremental context: one book prefix grown in fixed token steps, each step a "
        "config; a step's context is a prefix of the next step's."
    ),
}


# What a family ships that a model may have written (marked in the card until the
# human-check gate covers it, issue 39).
MODEL_WRITTEN: dict[str, str] = {
    "synopsis-ordering": "the shown synopses (chapter drafts where no human-reviewed one exists)",
    "sections": "the reference summaries (chapter drafts where no human-reviewed one exists)",
    "needles": 'the questions and answers of `documents = "chapters"` tasks',
}


def _shortcut_lines(configs: list[TaskConfig]) -> list[str]:
    """Each no-model baseline of the build beside random, per length (x100)."""
    rows = [
        f"| {c.length} | {s.name} | {s.score:.1f} | {s.random:.1f} | {s.solved} of {s.instances} |"
        for c in configs
        for s in c.built.shortcuts
    ]
    if not rows:
        return []
    return [
        "",
        "Shortcut checks (baselines without a model, run on every built instance; x100):",
        "",
        "| length | baseline | score | random | solved |",
        "|---|---|---:|---:|---:|",
        *rows,
    ]


def _mean(rows: list[TaskInstance]) -> str:
    tokens = [r.tokens for r in rows if r.fill is None]
    return f"{sum(tokens) / len(tokens):,.0f}" if tokens else "-"


def _drop_lines(config: TaskConfig) -> list[str]:
    lines = [
        f"- {config.length}: {count} x {reason}"
        for reason, count in sorted(config.built.dropped.items())
    ]
    lines += [
        f"- {config.length}: {count} x held back by the human check: {reason}"
        for reason, count in sorted(config.held_back.items())
    ]
    if config.built.not_built:
        lines.append(f"- {config.length}: not built: {config.built.not_built}")
    return lines


def task_card_section(released: list[TaskConfig], empty: list[TaskConfig]) -> str:
    """The section's markdown ("" when the release has no task)."""
    if not released and not empty:
        return ""
    tasks: dict[str, list[TaskConfig]] = {}
    for config in [*released, *empty]:
        tasks.setdefault(config.task, []).append(config)
    lines = [
        "Besides the summaries, this release holds other long-context task families built "
        "from the same corpus, one config per task and length (`<task>-<length>`), each "
        "with a single `test` split of task instances (columns `id`, `task`, `family`, "
        "`length`, `language`, `book_id`, `context`, `question`, `answers`, `tokens`, "
        "`tokenizer`, `target`, `lower`, `upper`, `depth`, `fill`, `source_ids`, and "
        "`details`, a JSON object documented per family).",
    ]
    for name, configs in tasks.items():
        family = configs[0].family
        lines += ["", f"### {name} ({family})", "", FAMILY_DESCRIPTIONS.get(family, "")]
        lines += ["", f"`answers`: {FAMILY_ANSWERS.get(family, 'the reference answers')}."]
        lines += [
            "",
            "| config | length | instances | requested | target | interval | mean tokens |",
            "|---|---|---:|---:|---:|---|---:|",
        ]
        for c in configs:
            b = c.built
            shown = c.config if c.rows else f"{c.config} (not released: no instance)"
            lines.append(
                f"| {shown} | {c.length} | {len(c.rows)} | {b.requested} | {b.target:,} "
                f"| [{b.lower:,}, {b.upper:,}] | {_mean(c.rows)} |"
            )
        lines += _shortcut_lines(configs)
        if family in MODEL_WRITTEN:
            lines += [
                "",
                f"Model-written: {MODEL_WRITTEN[family]} come from the drafting model named in "
                "the build's task report and were not checked by people; use them as such.",
            ]
        drops = [line for c in configs for line in _drop_lines(c)]
        lines += ["", "Left out:" if drops else "Left out: nothing."]
        lines += drops
    return "\n".join(lines)
