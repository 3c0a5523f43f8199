"""README.md: the dataset card, YAML front matter for the Hub plus the sections people read."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from lengthwise.builders.build_record import BuildReport
from lengthwise.builders.build_summary import story_collection_line
from lengthwise.releases.release.card_duplicates import duplicate_books_lines
from lengthwise.releases.release.card_notes import (
    audit_markdown,
    citation_markdown,
    excluded_markdown,
    subset_status_markdown,
)
from lengthwise.releases.release.card_references import references_sentence
from lengthwise.releases.release.corpus_book import CorpusBook
from lengthwise.releases.release.layout import SPLIT, data_file, tag_for
from lengthwise.releases.release.schema import COLUMNS
from lengthwise.releases.release.summaries import ReferenceOrigins
from lengthwise.spec import Spec, SubsetSpec

PLACEHOLDER_REPO = "ORG/NAME"


@dataclass(frozen=True)
class SubsetFacts:
    spec: SubsetSpec
    rows: int
    annotated: int
    books: int
    tokens_mean: float
    tokens_min: int
    tokens_max: int
    summary_lengths: list[int]  # characters (zh) or words (other languages) per summary


@dataclass(frozen=True)
class CardInputs:
    spec: Spec
    version: str
    tool_version: str
    spec_sha256: str
    subsets: list[SubsetFacts]
    skipped_subsets: list[str]  # configured but empty: not released
    languages: list[str]
    tokenizer_names: dict[str, str]  # build id -> public id
    books: list[CorpusBook]
    build_report: BuildReport
    length_table: str
    efficiency_table: str
    stats_section: str
    diff_section: str
    annotation_fields: list[str] = field(default_factory=list)
    spec_file: str | None = None  # the spec as written, when shipped
    drafts_note: str | None = None  # how the chapter drafts were made (card_notes)
    synthetic_references: int = 0  # summaries no person wrote (the synthetic demo only)
    origins: ReferenceOrigins = field(default_factory=ReferenceOrigins)  # summaries.py
    task_configs: list[str] = field(default_factory=list)  # task configs (task_configs.py)
    task_section: str = ""  # the "Task families" section (task_card.py); "" without tasks
    long_context_section: str = ""  # the truncation check (long_context.py); "" without one

    @property
    def total_rows(self) -> int:
        return sum(s.rows for s in self.subsets)

    @property
    def missing_summaries(self) -> int:
        return sum(s.rows - s.annotated for s in self.subsets)


def _q(value: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(value, ensure_ascii=False)


def size_category(rows: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if rows < limit:
            return label
    return "100K<n<1M"


def front_matter(inputs: CardInputs) -> str:
    release = inputs.spec.release
    lines = ["---", f"pretty_name: {_q(release.pretty_name or inputs.spec.name)}"]
    lines.append(f"license: {_q(release.license)}")
    lines += ["language:", *(f"- {_q(lang)}" for lang in inputs.languages)]
    lines += ["task_categories:", '- "summarization"']
    lines += ["size_categories:", f"- {_q(size_category(inputs.total_rows))}"]
    lines += ["tags:", '- "long-context"', '- "benchmark"', '- "lengthwise"']
    lines.append("configs:")
    for name in [*(s.spec.name for s in inputs.subsets), *inputs.task_configs]:
        lines += [
            f"- config_name: {_q(name)}",
            "  data_files:",
            f"  - split: {_q(SPLIT)}",
            f"    path: {_q(data_file(name))}",
        ]
    lines.append("---")
    return "\n".join(lines)


def _missing_references_banner(inputs: CardInputs) -> str:
    if inputs.missing_summaries == 0:
        return ""
    if inputs.missing_summaries == inputs.total_rows:
        what = "**No sample has a human reference summary.**"
    else:
        what = (
            f"**{inputs.missing_summaries} of {inputs.total_rows} samples have no human "
            "reference summary.**"
        )
    return (
        f"> ⚠️ **References missing.** {what} The `summary` column is null for them, so "
        "reference-based scores (ROUGE, ...) cannot be computed on those samples. This "
        "version was released with `--allow-unannotated`, for inspecting the contexts only.\n\n"
    )


def _synthetic_references_banner(inputs: CardInputs) -> str:
    if not inputs.synthetic_references:
        return ""
    return (
        f"> ⚠️ **Synthetic references.** {inputs.synthetic_references} of {inputs.total_rows} "
        "reference summaries are `synthetic reference (demo)`: merged from the synthetic demo "
        "corpus's own chapter synopses, not written by people (their `annotation` says "
        "`reference_origin`). Scores against them show the pipeline working, not "
        "summarization quality.\n\n"
    )


def _summary_section(inputs: CardInputs) -> str:
    spec = inputs.spec
    description = spec.release.description or (
        "A multi-scale long-context summarization benchmark: contiguous runs of whole book "
        "chapters cut to several target lengths, each to be summarised as a whole."
    )
    lines = [
        description,
        "",
        f"Version {inputs.version} holds {inputs.total_rows} samples in {len(inputs.subsets)} "
        f"subsets (one dataset config each, split `{SPLIT}`), in {', '.join(inputs.languages)}. "
        f"Lengths are counted with `{inputs.tokenizer_names[spec.tokenizers.primary]}`.",
        "",
        "| config | target tokens | interval | samples | books | mean tokens | min | max "
        "| with summary |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for s in inputs.subsets:
        lines.append(
            f"| {s.spec.name} | {s.spec.target:,} | [{s.spec.lower:,}, {s.spec.upper:,}] "
            f"| {s.rows} | {s.books} | {s.tokens_mean:,.0f} | {s.tokens_min:,} "
            f"| {s.tokens_max:,} | {s.annotated} |"
        )
    status = subset_status_markdown(inputs.build_report)
    if status:
        lines += ["", status]
    if inputs.skipped_subsets:
        lines += [
            "",
            f"Configured but not released (no sample fitted): {', '.join(inputs.skipped_subsets)}.",
        ]
    return "\n".join(lines)


def _structure_section() -> str:
    lines = ["| column | type | meaning |", "|---|---|---|"]
    lines += [f"| `{c.name}` | {c.type} | {c.description} |" for c in COLUMNS]
    return "\n".join(lines)


def _corpus_table(inputs: CardInputs) -> str:
    lines = [
        "| book | title | language | chapters | used in samples | source | raw sha256 |",
        "|---|---|---|---:|---:|---|---|",
    ]
    for book in inputs.books:
        lines.append(
            f"| {book.book_id} | {book.title} | {book.language} | {book.chapters} "
            f"| {book.samples} | {book.source} | `{book.raw_sha256[:16]}…` |"
        )
    lines += duplicate_books_lines(inputs.build_report.duplicates)
    collections = story_collection_line(inputs.build_report)
    if collections:
        lines += ["", collections[0].upper() + collections[1:] + "."]
    lines += ["", excluded_markdown(inputs.build_report)]
    notes = sorted({b.license_note for b in inputs.books if b.license_note})
    if notes:
        lines += ["", "Licence notes from the sources: " + "; ".join(notes)]
    return "\n".join(lines)


def _sampling_section(inputs: CardInputs) -> str:
    sampling = inputs.spec.sampling
    subsets = inputs.build_report.subsets
    nested = " (nested: shorter samples cut from longer ones)" if sampling.nested else ""
    lines = [
        f"Policy `{sampling.policy}`{nested}, "
        f"seed {inputs.spec.seed}. Each sample is a contiguous run of whole chapters whose "
        "length in primary-tokenizer tokens lies inside its subset's interval; selection "
        "balances books and keeps the first quartile of lengths at or above "
        f"{sampling.q1_min_ratio:.0%} of the target.",
        "",
        "| subset | target | interval | requested | selected | books | max book share "
        "| Q1 ≥ threshold | notes |",
        "|---|---:|---|---:|---:|---:|---:|---|---|",
    ]
    for sub in inputs.spec.subsets:
        entry = subsets.get(sub.name)
        if entry is None:  # not in the build report: nothing selected to describe
            lines.append(
                f"| {sub.name} | {sub.target:,} | [{sub.lower:,}, {sub.upper:,}] | {sub.count} "
                "| - | - | - | no | - |"
            )
            continue
        sel = entry.selection
        shortfall = [sel.shortfall] if sel.shortfall else []
        notes = "; ".join([*sel.notes, *shortfall])
        lines.append(
            f"| {sub.name} | {sub.target:,} | [{sub.lower:,}, {sub.upper:,}] | {sub.count} "
            f"| {sel.count} | {sel.books} | {sel.largest_book_share:.0%} "
            f"| {'yes' if sel.q1_met else 'no'} | {notes or '-'} |"
        )
    return "\n".join(lines)


def _annotation_section(inputs: CardInputs) -> str:
    spec = inputs.spec.annotation
    unit = "characters (Chinese) or words (other languages)"
    limits = ", ".join(
        f"{s.spec.name}: {spec.limits.get(s.spec.name, spec.default_limit)}" for s in inputs.subsets
    )
    lines = [
        references_sentence(inputs.origins, inputs.drafts_note)
        + f" Length limits in {unit}: {limits}.",
        "",
        "| subset | samples | with summary | mean summary length | max summary length | limit |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for s in inputs.subsets:
        lengths = s.summary_lengths
        mean = f"{sum(lengths) / len(lengths):,.0f}" if lengths else "-"
        lines.append(
            f"| {s.spec.name} | {s.rows} | {s.annotated} | {mean} "
            f"| {max(lengths) if lengths else '-'} "
            f"| {spec.limits.get(s.spec.name, spec.default_limit)} |"
        )
    if inputs.annotation_fields:
        fields = ", ".join(f"`{f}`" for f in inputs.annotation_fields)
        lines += ["", f"Annotation metadata released in `annotation`: {fields}."]
    return "\n".join(lines)


def _limits_section(inputs: CardInputs) -> str:
    return "\n".join(
        [
            "- **Use:** evaluation of long-context summarization at several lengths; compare "
            "models within a subset, and across subsets to see how quality degrades with length.",
            "- **Not for training:** every sample is test data; training on it invalidates "
            "scores on this and later versions.",
            "- **Contamination:** the books may be well known and part of models' training "
            "data; a model may summarise from memory rather than from the context.",
            "- **Lengths are tokenizer-specific:** intervals hold for "
            f"`{inputs.tokenizer_names[inputs.spec.tokenizers.primary]}`; other tokenizers give "
            "other lengths (see `token_counts` and the tables below).",
            "- **References:** one reference summary per sample, within a length limit; "
            "other valid summaries exist, so reference-based metrics understate quality.",
            "- **Licence:** "
            + (
                inputs.spec.release.license_note
                or f"`{inputs.spec.release.license}`; check "
                "the sources' terms before redistributing the texts."
            ),
        ]
    )


def _loading_section(inputs: CardInputs) -> str:
    repo = inputs.spec.release.repo_id or PLACEHOLDER_REPO
    tag = tag_for(inputs.version)
    first = inputs.subsets[0].spec.name if inputs.subsets else "L"
    return "\n".join(
        [
            f"Every version is an immutable tag (`{tag}` here); `main` moves. Pin the tag:",
            "",
            "```python",
            "from datasets import load_dataset",
            "",
            f'ds = load_dataset("{repo}", "{first}", split="{SPLIT}", revision="{tag}")',
            "```",
            "",
            "or download and verify the whole version (files are checked against `manifest.json`):",
            "",
            "```bash",
            f"lengthwise fetch {repo}@{tag} --out ./{inputs.spec.name}-{tag}",
            "```",
            "",
            f"Configs: {', '.join(f'`{s.spec.name}`' for s in inputs.subsets)}.",
        ]
    )


def _optional_section(title: str, text: str) -> list[str]:
    return [f"## {title}", "", text, ""] if text else []


def render_card(inputs: CardInputs) -> str:
    """The complete README.md of a release folder."""
    spec = inputs.spec
    title = spec.release.pretty_name or spec.name
    sections = [
        front_matter(inputs),
        "",
        f"# {title} (v{inputs.version})",
        "",
        _missing_references_banner(inputs)
        + _synthetic_references_banner(inputs)
        + _summary_section(inputs),
        "",
        "## Dataset structure",
        "",
        f"One config per subset, each with a single `{SPLIT}` split in parquet "
        f"(`<config>/{SPLIT}-00000-of-00001.parquet`). Columns:",
        "",
        _structure_section(),
        "",
        *_how_it_was_built(inputs),
        *_optional_section("Task families", inputs.task_section),
        *_optional_section("Long-context check", inputs.long_context_section),
        "## Statistics",
        "",
        "### Lengths per tokenizer",
        "",
        inputs.length_table,
        "",
        "### Dataset statistics",
        "",
        inputs.stats_section,
        "",
        "## Changes since the previous version",
        "",
        inputs.diff_section,
        "",
        "## Intended use and limits",
        "",
        _limits_section(inputs),
        "",
        "## How to load a pinned version",
        "",
        _loading_section(inputs),
        "",
        "## Citation",
        "",
        citation_markdown(inputs.spec, inputs.version, inputs.tool_version),
        "",
    ]
    return "\n".join(sections)


def _how_it_was_built(inputs: CardInputs) -> list[str]:
    spec = inputs.spec
    tokenizers = ", ".join(f"`{inputs.tokenizer_names[t]}`" for t in spec.tokenizers.all)
    return [
        "## How it was built",
        "",
        f"Built by lengthwise {inputs.tool_version} from spec `{spec.name}` (spec version "
        f"{spec.version}, canonical sha256 `{inputs.spec_sha256[:16]}…`"
        + (f"; the spec file ships as `{inputs.spec_file}`" if inputs.spec_file else "")
        + "). `manifest.json` lists every file's sha256, the corpus hashes and every "
        "sample id with a hash of its row.",
        "",
        "### Corpus",
        "",
        _corpus_table(inputs),
        "",
        "### Residual-noise audit",
        "",
        audit_markdown(inputs.build_report),
        "",
        "### Tokenizers",
        "",
        f"Primary `{inputs.tokenizer_names[spec.tokenizers.primary]}` (sets the intervals); "
        f"all counted: {tokenizers}. Encoding efficiency over the corpus (non-whitespace "
        "characters per token):",
        "",
        inputs.efficiency_table,
        "",
        "### Sampling",
        "",
        _sampling_section(inputs),
        "",
        "### Annotation",
        "",
        _annotation_section(inputs),
        "",
    ]
