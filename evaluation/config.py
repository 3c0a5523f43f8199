"""The evaluator's configuration, validated: an `[eval]` table, command-line options, or code.

```toml
[eval]
release = "lw-work/demo/releases/v0.1.0"
tasks = ["summarization", "ordering"]
subsets = ["L", "XL"]
out = "lw-eval/qwen-L"

[eval.engine]             # lengthwise.evaluation.backends.EngineSettings, as is
backend = "openai"
model = "qwen2.5-7b-instruct"
base_url = "http://127.0.0.1:8000/v1"

[eval.judge]              # lengthwise.spec.LLMRoleConfig (qa, needles): optional
model = "judge-model"
base_url = "http://127.0.0.1:8001/v1"
```

`lengthwise eval --config FILE.toml` reads the table; options given on the command line
override it. Unknown keys are rejected with the key named, like spec files. How the
model runs lives in `engine` only (`EngineSettings`); `model`, `backend` and
`chat_template` at the top level are accepted as shorthand for those engine fields.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from lengthwise.errors import SpecError
from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.planning import Policy
from lengthwise.names import Name
from lengthwise.spec import LLMRoleConfig

SUMMARIZATION = "summarization"
_ENGINE_SHORTHAND = ("model", "backend", "chat_template")


class EvalConfig(BaseModel):
    """One evaluation run: what to read, how to prompt, count, decode, score and write."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    release: str  # release folder, or ORG/NAME@REVISION
    engine: EngineSettings  # the evaluated model and how it runs
    out: Path  # the run folder
    tasks: list[Name] = Field(default_factory=lambda: [SUMMARIZATION], min_length=1)
    subsets: list[Name] | None = None  # lengths (default: all)
    prompts: list[str] = Field(default_factory=lambda: ["IB", "IE"], min_length=1)
    prompt_file: Path | None = None  # summarization templates (CNNSum's prompts.json)
    tokenizer: str | None = None  # counting tokenizer (default: the model folder)
    context_window: int | None = Field(default=None, gt=0)
    policy: Policy = "truncate-middle"
    max_new_tokens: dict[str, int] = Field(default_factory=dict)  # per subset / task config
    default_max_new_tokens: int | None = Field(default=None, gt=0)
    # Decoding, with the bounds of the registry's GenerationConfig.
    temperature: float = Field(default=0.0, ge=0)
    top_p: float = Field(default=1.0, gt=0, le=1)
    seed: int = 0
    metric: str = "rouge-l"  # summarization's metric
    limit: int | None = Field(default=None, gt=0)  # first N rows per config
    bootstrap_resamples: int = Field(default=1000, gt=0)
    bootstrap_seed: int = 0
    cache_path: Path | None = None  # default: OUT/request-cache.sqlite
    download_dir: Path | None = None
    overwrite: bool = False
    write_report: bool = True
    judge: LLMRoleConfig | None = None  # qa / needles verdicts (cached in the run's cache)
    judge_check_share: float = Field(default=0.1, ge=0, le=1)  # verdicts sampled for people

    @model_validator(mode="before")
    @classmethod
    def _engine_shorthand(cls, data: object) -> object:
        """`model`/`backend`/`chat_template` beside `engine` fill (or must agree with) it."""
        if not isinstance(data, Mapping):
            return data
        given = {k: data[k] for k in _ENGINE_SHORTHAND if k in data}
        if not given:
            return data
        rest = {k: v for k, v in data.items() if k not in _ENGINE_SHORTHAND}
        engine = rest.get("engine")
        if isinstance(engine, EngineSettings):
            clash = [k for k, v in given.items() if getattr(engine, k) != v]
            if clash:
                raise ValueError(f"{', '.join(clash)} differ from the engine settings' values")
            return rest
        rest["engine"] = {**given, **(dict(engine) if isinstance(engine, Mapping) else {})}
        return rest

    @property
    def model(self) -> str:
        return self.engine.model

    @property
    def backend(self) -> str:
        return self.engine.backend

    @property
    def chat_template(self) -> bool:
        return self.engine.chat_template

    def engine_settings(self) -> EngineSettings:
        return self.engine

    @property
    def summarization(self) -> bool:
        return SUMMARIZATION in self.tasks


def validation_message(where: str, error: ValidationError) -> str:
    """One line per problem, naming the key (`eval.engine.model: unknown key`)."""
    lines = []
    for item in error.errors():
        key = ".".join(str(part) for part in item["loc"])
        unknown = item["type"] in ("extra_forbidden", "unexpected_keyword_argument")
        message = "unknown key" if unknown else item["msg"]
        lines.append(f"{where}: {key or '<top level>'}: {message.removeprefix('Value error, ')}")
    return "\n".join(lines)


def read_eval_table(path: Path) -> dict[str, object]:
    """The `[eval]` table of a TOML file (relative paths are kept as written)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SpecError(f"{path}: cannot read: {exc.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SpecError(f"{path}: not a valid TOML file: {exc}") from None
    table = data.get("eval")
    if not isinstance(table, dict):
        raise SpecError(f"{path}: no [eval] table")
    return dict(table)


def make_config(values: Mapping[str, object], where: str) -> EvalConfig:
    """A validated config from plain values; errors name `where` and the key."""
    try:
        return EvalConfig.model_validate(dict(values))
    except ValidationError as exc:
        raise SpecError(validation_message(where, exc)) from None


def merge(base: Mapping[str, object], override: Mapping[str, object]) -> dict[str, object]:
    """`override` over `base`, table by table (the engine and judge tables merge too)."""
    merged = dict(base)
    for key, value in override.items():
        old = merged.get(key)
        if isinstance(old, Mapping) and isinstance(value, Mapping):
            merged[key] = merge(old, value)
        else:
            merged[key] = value
    return merged
