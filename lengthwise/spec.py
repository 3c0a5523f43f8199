"""Benchmark spec files: one TOML file per benchmark version, validated strictly.

Unknown keys are rejected and every error names the file and the dotted key, e.g.
``examples/zh.toml: subsets.0.lower: lower (40000) must not exceed upper (36000)``.
Relative paths inside a spec are resolved against the spec file's folder.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from lengthwise.errors import SpecError as SpecError  # re-exported: callers catch it from here
from lengthwise.names import Name, RepoId
from lengthwise.spec_paths import resolve_tokenizer_paths
from lengthwise.spec_scaling import EndpointConfig, ExecutorConfig
from lengthwise.task_spec import TaskSpec
from lengthwise.tokenizers.ids import parse_tokenizer_id


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FilesSource(_Strict):
    kind: Literal["files"]
    path: str  # file or folder; folders are read recursively (.txt .md .html .htm .epub)
    language: Literal["zh", "en", "auto"] = "auto"
    glob: str | None = None  # restrict a folder to matching names, e.g. "*.txt"


class UrlsSource(_Strict):
    kind: Literal["urls"]
    urls: list[str] = Field(min_length=1)
    language: Literal["zh", "en", "auto"] = "auto"


class GutenbergSource(_Strict):
    kind: Literal["gutenberg"]
    ids: list[int] = Field(min_length=1)
    mirror: str = "https://www.gutenberg.org"
    language: Literal["zh", "en", "auto"] = "auto"


class HFDatasetSource(_Strict):
    kind: Literal["hf"]
    dataset: str  # a Hub id or a local folder / file understood by datasets.load_dataset
    column: str = "text"
    title_column: str | None = None
    split: str = "train"
    config: str | None = None
    revision: str | None = None
    language: Literal["zh", "en", "auto"] = "auto"


Source = Annotated[
    FilesSource | UrlsSource | GutenbergSource | HFDatasetSource, Field(discriminator="kind")
]


class ExtraRule(_Strict):
    """A user cleaning rule: a regex removed (or replaced) everywhere it matches."""

    name: str
    pattern: str
    replace: str = ""
    multiline: bool = True


class CleaningConfig(_Strict):
    # "auto" picks rule sets from the detected language and source (gutenberg, web serial, ...)
    rulesets: list[str] = Field(default_factory=lambda: ["auto"])
    extra_rules: list[ExtraRule] = Field(default_factory=list)
    disable_rules: list[str] = Field(default_factory=list)
    fullwidth_punctuation_zh: bool = True  # normalise ASCII punctuation inside Chinese text
    # Boilerplate learned from the book and the corpus (running headers, page markers,
    # site signatures): see the README's "Cleaning" section for the thresholds.
    learned_boilerplate: bool = True
    learned_min_repeats: int = Field(default=5, ge=2)  # a line must recur this often in a book
    # ... and in at least this share of the book's chapters (0..1)
    learned_min_chapter_share: float = Field(default=0.3, ge=0, le=1)
    # ... with at least this share of its occurrences among chapters' first/last lines (0..1)
    learned_min_edge_share: float = Field(default=0.6, ge=0, le=1)
    learned_edge_lines: int = Field(default=2, ge=1, le=20)  # lines counted as a chapter edge
    learned_max_line_chars: int = Field(default=100, ge=10, le=1000)  # longer lines: narrative
    learned_min_books: int = Field(default=3, ge=2)  # a line in this many books is corpus furniture
    # Footnote markers and footnote bodies go together: both removed or both kept.
    footnotes: Literal["remove", "keep"] = "remove"
    # Rejoin hard-wrapped lines (the book's own wrap width) into paragraphs.
    unwrap_paragraphs: bool = True


class ChaptersConfig(_Strict):
    min_chapters: int = Field(default=2, ge=1)
    # Books that look like collections of unrelated short stories are flagged; excluded if true.
    exclude_story_collections: bool = False
    min_chapter_chars: int = Field(default=200, ge=0)
    # A 楔子/引子 before 第一回 sits outside the 回 numbering that catalogues count (水浒传 has
    # 120 回 plus a 楔子): by default it is kept out of the chapters and reported as front
    # matter. English prologues/epilogues are always chapters.
    keep_zh_prologue: bool = False
    # Above this share of a cleaned book's characters outside every chapter (front, back or
    # between matter), the book gets a warning in the build output and build_report.md.
    max_outside_share: float = Field(default=0.01, ge=0, le=1)


class CrawlConfig(_Strict):
    user_agent: str = "lengthwise/0.1 (+https://github.com/lengthwise; benchmark builder)"
    requests_per_second_per_host: float = Field(default=1.0, gt=0)
    timeout_seconds: float = Field(default=30.0, gt=0)
    max_retries: int = Field(default=3, ge=0)
    backoff_seconds: float = Field(default=1.0, ge=0)
    max_bytes: int = Field(default=50_000_000, gt=0)


class TokenizersConfig(_Strict):
    primary: str = "qwen2.5"
    extra: list[str] = Field(default_factory=list)

    @field_validator("primary")
    @classmethod
    def _known_primary(cls, value: str) -> str:
        parse_tokenizer_id(value)  # raises UnknownTokenizerError (a ValueError) naming the id
        return value

    @field_validator("extra")
    @classmethod
    def _known_extra(cls, values: list[str]) -> list[str]:
        for value in values:
            parse_tokenizer_id(value)
        return values

    @property
    def all(self) -> list[str]:
        return [self.primary, *[t for t in self.extra if t != self.primary]]


class SubsetSpec(_Strict):
    name: Name  # WORK/samples/<name>.parquet and a release config name
    target: int = Field(gt=0)
    lower: int = Field(gt=0)
    upper: int = Field(gt=0)
    count: int = Field(ge=0)

    @model_validator(mode="after")
    def _bounds(self) -> SubsetSpec:
        if self.lower > self.upper:
            raise ValueError(f"lower ({self.lower}) must not exceed upper ({self.upper})")
        if not self.lower <= self.target <= self.upper:
            raise ValueError(
                f"target ({self.target}) must lie within [lower, upper] = "
                f"[{self.lower}, {self.upper}]"
            )
        return self


def cnnsum_subsets() -> list[SubsetSpec]:
    """CNNSum's four subsets (L/XL/2XL/3XL), targets 16k..128k tokens."""
    return [
        SubsetSpec(name="L", target=16_384, lower=13_000, upper=18_432, count=190),
        SubsetSpec(name="XL", target=32_768, lower=27_000, upper=34_816, count=195),
        SubsetSpec(name="2XL", target=65_536, lower=56_000, upper=67_584, count=200),
        SubsetSpec(name="3XL", target=131_072, lower=115_000, upper=133_120, count=110),
    ]


class LLMRoleConfig(_Strict):
    """One model for one role (drafter, probe, judge, locator).

    Secrets never live in a spec: `api_key_env` names the environment variable that
    holds the key. Only settings that change answers enter the request cache key
    (model, revision, base_url, decoding); concurrency, rate and timeouts do not.
    """

    backend: Literal["openai", "transformers"] = "openai"
    model: str  # served model name, or a local model folder for "transformers"
    base_url: str | None = None  # OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1
    # Or several servers of the same model: requests spread over them (spec_scaling.py).
    endpoints: list[EndpointConfig] = Field(default_factory=list)
    api_key_env: str | None = None  # e.g. "OPENAI_API_KEY"; None sends a placeholder key
    revision: str | None = None  # model revision/commit, recorded and keyed
    max_tokens: int = Field(default=512, gt=0)
    temperature: float = Field(default=0.0, ge=0)
    seed: int | None = 0
    concurrency: int = Field(default=4, ge=1)
    requests_per_second: float | None = Field(default=None, gt=0)
    timeout_seconds: float = Field(default=120.0, gt=0)
    max_retries: int = Field(default=4, ge=0)
    context_window: int | None = Field(default=None, gt=0)
    # Prices in currency units per million tokens, for the cost lines in reports.
    price_per_million_input: float = Field(default=0.0, ge=0)
    price_per_million_output: float = Field(default=0.0, ge=0)

    @model_validator(mode="after")
    def _one_address(self) -> LLMRoleConfig:
        if self.base_url and self.endpoints:
            raise ValueError("give base_url or endpoints, not both")
        return self


class LLMConfig(_Strict):
    drafter: LLMRoleConfig | None = None
    probe: LLMRoleConfig | None = None
    judge: LLMRoleConfig | None = None
    locator: LLMRoleConfig | None = None


class ScreeningConfig(_Strict):
    """The contamination probe ("popular books") run before sampling."""

    chapters_per_book: int = Field(default=3, ge=1)
    exclude_flagged: bool = False  # flagged books are dropped from sampling when true


class AnnotationConfig(_Strict):
    """Human merge-and-rewrite of the drafts in Label Studio."""

    project_title: str | None = None  # default: "<spec name> <version>"
    label_studio_url: str = "http://127.0.0.1:8080"
    api_key_env: str = "LABEL_STUDIO_API_KEY"  # env var holding the Label Studio token
    annotators_per_sample: int = Field(default=1, ge=1)
    # Summary limits: characters for Chinese, words for English. CNNSum: 500 for L/XL,
    # 600 for 2XL/3XL; subsets not listed use default_limit.
    default_limit: int = Field(default=500, gt=0)
    limits: dict[str, int] = Field(default_factory=lambda: {"2XL": 600, "3XL": 600})
    # Share of summary 4-grams found in the drafts above which "not rewritten" is flagged.
    max_copied_share: float = Field(default=0.5, gt=0, le=1)
    commentary_words_zh: list[str] = Field(default_factory=list)  # added to built-in lists
    commentary_words_en: list[str] = Field(default_factory=list)


class ReleaseConfig(_Strict):
    """What the dataset card and the Hub need."""

    repo_id: RepoId | None = None  # e.g. "org/name" on the Hugging Face Hub
    pretty_name: str | None = None
    license: str = "other"
    license_note: str | None = None
    citation: str | None = None
    description: str | None = None


class SamplingConfig(_Strict):
    policy: Literal["first-fit", "closest"] = "first-fit"
    nested: bool = False
    # Selection keeps the first quartile of lengths at or above this share of the target.
    q1_min_ratio: float = Field(default=0.9, gt=0, le=1)
    # A sample never spans a forward jump in the printed chapter numbers (chapters missing
    # from the source), nor a restart at one with no part heading (another work in the
    # same file), unless this is true; see builders/sampling/number_gaps.py.
    allow_number_gaps: bool = False


class DuplicatesConfig(_Strict):
    """Duplicate works and repeated chapters (builders/duplicates)."""

    # "one": keep one book per cluster of copies; "all": keep every copy, but two samples
    # of one work never overlap inside a subset.
    keep: Literal["one", "all"] = "one"
    # Estimated Jaccard similarity of two books' shingle sets to call them copies.
    near_threshold: float = Field(default=0.7, gt=0, le=1)
    # Jaccard similarity of two chapters to call them the same chapter.
    chapter_threshold: float = Field(default=0.6, gt=0, le=1)
    # Share of the smaller book's chapters matching the other book's for a partial copy.
    partial_share: float = Field(default=0.5, gt=0, le=1)
    # Drop a chapter whose text repeats an earlier chapter of the same book.
    drop_repeated_chapters: bool = True
    shingle_size: int = Field(default=5, ge=2, le=20)
    num_perm: int = Field(default=128, ge=16, le=1024)


class AuditLanguageConfig(_Strict):
    """Additions to the residual-noise audit's built-in tables for one language."""

    site_terms: list[str] = Field(default_factory=list)  # site/download vocabulary
    copyright_terms: list[str] = Field(default_factory=list)  # copyright/licence vocabulary
    max_heading_chars: int | None = Field(default=None, gt=0)  # overrides the built-in value


class AuditConfig(_Strict):
    """The residual-noise audit of every selected sample (see builders/audit)."""

    # Samples with more findings than this are dropped or refuse the build; None: no limit.
    max_findings: int | None = Field(default=None, ge=0)
    action: Literal["drop", "refuse"] = "drop"
    repeated_line_min: int = Field(default=3, ge=2)  # a non-narrative line this many times
    # a glued-in sentence this many times (and once per 20,000 characters of the sample)
    repeated_fragment_min: int = Field(default=5, ge=2)
    toc_run_min: int = Field(default=3, ge=2)  # consecutive heading-like lines
    snippets_per_class: int = Field(default=3, ge=0)
    languages: dict[str, AuditLanguageConfig] = Field(default_factory=dict)


class Spec(_Strict):
    name: Name  # the default work dir lw-work/<name>
    version: str = "0.1.0"
    language: Literal["zh", "en", "auto"] = "auto"
    seed: int = 0
    sources: list[Source] = Field(min_length=1)
    cleaning: CleaningConfig = Field(default_factory=CleaningConfig)
    chapters: ChaptersConfig = Field(default_factory=ChaptersConfig)
    crawl: CrawlConfig = Field(default_factory=CrawlConfig)
    tokenizers: TokenizersConfig = Field(default_factory=TokenizersConfig)
    subsets: list[SubsetSpec] = Field(default_factory=cnnsum_subsets)
    sampling: SamplingConfig = Field(default_factory=SamplingConfig)
    duplicates: DuplicatesConfig = Field(default_factory=DuplicatesConfig)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    screening: ScreeningConfig = Field(default_factory=ScreeningConfig)
    audit: AuditConfig = Field(default_factory=AuditConfig)
    annotation: AnnotationConfig = Field(default_factory=AnnotationConfig)
    release: ReleaseConfig = Field(default_factory=ReleaseConfig)
    tasks: list[TaskSpec] = Field(default_factory=list)  # other task families (task_spec.py)
    executor: ExecutorConfig = Field(default_factory=ExecutorConfig)  # where corpus stages run

    # Set by load_spec, not by the file: where relative paths are resolved from, and the
    # file itself (named in errors about its values that show up later, e.g. a missing path).
    base_dir: Path = Field(default=Path("."), exclude=True)
    spec_file: Path | None = Field(default=None, exclude=True)

    @model_validator(mode="after")
    def _unique_subsets(self) -> Spec:
        names = [s.name for s in self.subsets]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"subset names must be unique, repeated: {duplicates}")
        tasks = [t.name for t in self.tasks]
        repeated = sorted({n for n in tasks if tasks.count(n) > 1})
        if repeated:
            raise ValueError(f"task names must be unique, repeated: {repeated}")
        return self

    def resolve(self, path: str) -> Path:
        candidate = Path(path).expanduser()
        if candidate.is_absolute():
            return candidate
        try:
            return (self.base_dir / candidate).resolve()
        except RuntimeError:  # a symlink loop: keep the path, readers name the problem
            return self.base_dir / candidate


def _format_errors(path: Path, error: ValidationError) -> str:
    lines = []
    for item in error.errors():
        loc = ".".join(str(part) for part in item["loc"] if part not in ("function-after",))
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            message = "unknown key"
        lines.append(f"{path}: {loc or '<top level>'}: {message}")
    return "\n".join(lines)


def parse_spec(data: dict[str, Any], path: Path) -> Spec:
    for reserved in ("base_dir", "spec_file"):
        if reserved in data:
            raise SpecError(f"{path}: {reserved}: unknown key")
    data = resolve_tokenizer_paths(data, path)
    try:
        return Spec.model_validate({**data, "base_dir": path.parent.resolve(), "spec_file": path})
    except ValidationError as exc:
        raise SpecError(_format_errors(path, exc)) from None


def load_spec(path: str | Path) -> Spec:
    spec_path = Path(path)
    try:
        raw = spec_path.read_bytes()
    except OSError as exc:
        raise SpecError(f"{spec_path}: cannot read spec file: {exc.strerror}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SpecError(f"{spec_path}: not a valid TOML file: {exc}") from None
    return parse_spec(data, spec_path)
