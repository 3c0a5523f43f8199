"""`lengthwise eval` (run a model on a release) and `lengthwise report` (compare runs)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from lengthwise.cli_options import Command, add_commands, opt
from lengthwise.errors import UserError
from lengthwise.evaluation.backends import (
    BACKENDS,
    EngineSettings,
    parse_json_option,
    yarn_rope_scaling,
)
from lengthwise.evaluation.planning import POLICIES, parse_max_new_tokens


def _names(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise argparse.ArgumentTypeError("expected a comma-separated list, e.g. L,XL")
    return names


def register(subparsers: Any) -> None:
    from lengthwise.evaluation.analyses.commands import COMMANDS as ANALYSE_COMMANDS

    add_commands(subparsers, (*COMMANDS, *ANALYSE_COMMANDS))


def engine_from_args(args: argparse.Namespace) -> EngineSettings:
    rope = parse_json_option(args.rope_scaling, "--rope-scaling")
    if args.yarn_factor is not None:
        if rope is not None:
            raise UserError("give either --rope-scaling or --yarn-factor, not both")
        rope = yarn_rope_scaling(args.yarn_factor, args.original_max_position_embeddings or 32768)
    return EngineSettings(
        backend=args.backend,
        model=args.model,
        chat_template=args.chat_template == "on",
        revision=args.revision,
        base_url=args.base_url,
        api_key_env=args.api_key_env,
        concurrency=args.concurrency,
        timeout_seconds=args.timeout,
        device=args.device,
        max_model_len=args.max_model_len,
        tensor_parallel_size=args.tensor_parallel_size,
        pipeline_parallel_size=args.pipeline_parallel_size,
        data_parallel_size=args.data_parallel_size,
        endpoints=tuple(args.endpoint),
        enable_prefix_caching=args.prefix_caching == "on",
        gpu_memory_utilization=args.gpu_memory_utilization,
        dtype=args.dtype,
        enforce_eager=args.enforce_eager,
        rope_scaling=rope,
        rope_theta=args.rope_theta,
        hf_overrides=parse_json_option(args.hf_overrides, "--hf-overrides"),
        vllm_python=args.vllm_python,
        server_port=args.server_port,
    )


def _default_out(args: argparse.Namespace) -> Path:
    model = Path(args.model).name or "model"
    release = Path(args.release.replace("@", "-")).name
    return Path("lw-eval") / f"{model}-{args.backend}-{release}"


def _eval(args: argparse.Namespace) -> int:
    from lengthwise.evaluation.runner import EvalConfig, run_eval

    engine = engine_from_args(args)
    config = EvalConfig(
        release=args.release,
        model=args.model,
        backend=args.backend,
        out=args.out or _default_out(args),
        subsets=args.subsets,
        prompts=args.prompts,
        prompt_file=args.prompt_file,
        chat_template=engine.chat_template,
        tokenizer=args.tokenizer,
        context_window=args.context_window,
        policy=args.policy,
        max_new_tokens=parse_max_new_tokens(args.max_new_tokens_per_subset),
        default_max_new_tokens=args.max_new_tokens,
        temperature=args.temperature,
        top_p=args.top_p,
        seed=args.seed,
        metric=args.metric,
        limit=args.limit,
        bootstrap_resamples=args.bootstrap_resamples,
        bootstrap_seed=args.bootstrap_seed,
        cache_path=args.cache,
        download_dir=args.download_dir,
        overwrite=args.overwrite,
        write_report=not args.no_report,
        engine=engine,
    )
    run = run_eval(config)
    results = run.results
    print(f"generated {run.generated}, reused {run.reused} finished pairs")
    for subset in results["subset_order"]:
        for prompt, entry in results["results"].get(subset, {}).items():
            mean = entry["mean"]
            shown = "–" if mean is None else f"{mean:.2f}"
            outcomes = ", ".join(f"{k} {v}" for k, v in entry["outcomes"].items())
            print(f"  {subset} {prompt}: ROUGE-L {shown} (n={entry['n']}; {outcomes})")
    if not results["complete"]:
        print("  INCOMPLETE: some pairs are missing or ended in error; rerun to resume")
    from lengthwise.llm.usage_journal import total_sentence

    overall = total_sentence(results.get("usage") or {}, "into this run folder")
    if overall is not None:
        print(overall)
    print(run.out)
    return 0 if results["complete"] else 1


def _report(args: argparse.Namespace) -> int:
    from lengthwise.evaluation.report import best_baseline, load_run, write_report

    path = write_report(args.runs, args.out, title=args.title)
    if args.html:
        from lengthwise.evaluation.report import OUTCOMES_PLOT, SCORES_PLOT
        from lengthwise.evaluation.viewer.page import write_html

        plots = [args.out / SCORES_PLOT, args.out / OUTCOMES_PLOT]
        print(write_html(args.runs, args.out, plots, title=args.title))
    best = best_baseline([load_run(folder) for folder in args.runs])
    if best is not None:
        print(f"best baseline: {best}")
    print(path)
    return 0


def _tiny_model(args: argparse.Namespace) -> int:
    from lengthwise.evaluation.tiny_model import build_tiny_model

    if (args.dir / "config.json").is_file():
        print(f"reusing {args.dir}")
    else:
        build_tiny_model(args.dir, seed=args.seed)
    print(args.dir)
    return 0


VLLM = "vLLM (vllm, vllm-server)"

COMMANDS = (
    Command(
        "tiny-model",
        help="write a tiny random-weight chat model for trying the evaluator offline",
        description=(
            "Build a tiny random-weight Qwen2 chat model on the real Qwen2.5 vocabulary "
            "(save_pretrained; no download). It tests plumbing, not quality: its answers "
            "are nonsense. Needs the `local` extra (torch, transformers)."
        ),
        handler=_tiny_model,
        options=(
            opt("dir", type=Path, help="output folder (reused if it already holds the model)"),
            opt("--seed", type=int, default=0),
        ),
    ),
    Command(
        "eval",
        help="evaluate a model on a release (resumable; results.json + generations.jsonl)",
        description=(
            "Count every prompt with the model's tokenizer, resolve the length policy, then "
            "generate (greedy by default), score with ROUGE-L (zh: CNNSum's jieba + rouge "
            "scorer; en: rouge-score rougeL) and write OUT/results.json, OUT/generations.jsonl "
            "and a report. Rerunning the same command resumes where it stopped."
        ),
        handler=_eval,
        options=(
            opt("--release", required=True, help="release folder, or ORG/NAME@REVISION"),
            opt("--subsets", type=_names, default=None, help="e.g. L,XL (default: all)"),
            opt("--model", required=True, help="model folder, or the served model name"),
            opt("--backend", required=True, choices=BACKENDS),
            opt("--base-url", default=None, help="OpenAI-compatible endpoint (openai)"),
            opt(
                "--endpoint",
                action="append",
                default=[],
                metavar="URL",
                help="one of several servers of the model (openai; repeatable, instead of "
                "--base-url): requests are spread over them, a dead one's retried elsewhere",
            ),
            opt("--api-key-env", default=None, help="env variable holding the API key"),
            opt("--revision", default=None, help="model revision (recorded and keyed)"),
            opt("--prompts", type=_names, default=["IB", "IE"], help="default IB,IE"),
            opt(
                "--prompt-file",
                type=Path,
                default=None,
                help='JSON {id: "template with {}"} or {id: {"zh": ..., "en": ...}}; CNNSum '
                "prompts.json works as is",
            ),
            opt("--chat-template", choices=("on", "off"), default="on"),
            opt(
                "--tokenizer",
                default=None,
                help="counting tokenizer: registry id (qwen2.5, tiktoken:o200k_base, hf:PATH) or a "
                "model folder (default: the model folder)",
            ),
            opt("--context-window", type=int, default=None, help="default: model config"),
            opt("--policy", choices=POLICIES, default="truncate-middle"),
            opt(
                "--max-new-tokens-per-subset",
                default=None,
                help="e.g. L=400,XL=400,2XL=500 (defaults: 400 for L/XL, 500 for 2XL/3XL, else "
                "400)",
            ),
            opt("--max-new-tokens", type=int, default=None, help="for subsets not listed above"),
            opt("--temperature", type=float, default=0.0, help="0 = greedy (default)"),
            opt("--top-p", type=float, default=1.0),
            opt("--seed", type=int, default=0),
            opt("--limit", type=int, default=None, help="first N samples per subset"),
            opt("--metric", default="rouge-l"),
            opt("--bootstrap-resamples", type=int, default=1000),
            opt("--bootstrap-seed", type=int, default=0),
            opt("--concurrency", type=int, default=4, help="requests in flight (APIs)"),
            opt("--timeout", type=float, default=600.0, help="seconds per request"),
            opt("--device", default="auto", help="transformers: cpu, cuda, auto"),
            opt("--cache", type=Path, default=None, help="request cache file"),
            opt("--download-dir", type=Path, default=None, help="for ORG/NAME@REV"),
            opt("--out", type=Path, default=None, help="run folder (default lw-eval/..)"),
            opt("--overwrite", action="store_true", help="discard a different run in OUT"),
            opt("--no-report", action="store_true", help="skip report.md and plots"),
            opt(
                "--max-model-len",
                type=int,
                default=None,
                help="default: the plan's need",
                group=VLLM,
            ),
            opt("--tensor-parallel-size", type=int, default=1, group=VLLM),
            opt("--pipeline-parallel-size", type=int, default=1, group=VLLM),
            opt(
                "--data-parallel-size",
                type=int,
                default=1,
                help="replicas behind the one server (vllm-server)",
                group=VLLM,
            ),
            opt("--gpu-memory-utilization", type=float, default=0.9, group=VLLM),
            opt(
                "--prefix-caching",
                choices=("on", "off"),
                default="on",
                help="vLLM prefix caching",
                group=VLLM,
            ),
            opt("--dtype", default="auto", group=VLLM),
            opt("--enforce-eager", action="store_true", group=VLLM),
            opt(
                "--rope-scaling",
                default=None,
                help='JSON, e.g. {"rope_type": "yarn", ...}',
                group=VLLM,
            ),
            opt(
                "--yarn-factor",
                type=float,
                default=None,
                help="shorthand for YaRN scaling",
                group=VLLM,
            ),
            opt(
                "--original-max-position-embeddings",
                type=int,
                default=None,
                help="YaRN: the model's trained window (default: 32768)",
                group=VLLM,
            ),
            opt("--rope-theta", type=float, default=None, group=VLLM),
            opt(
                "--hf-overrides",
                default=None,
                help="JSON passed to vLLM as hf_overrides",
                group=VLLM,
            ),
            opt("--vllm-python", default=None, help="python of the venv holding vLLM", group=VLLM),
            opt("--server-port", type=int, default=None, group=VLLM),
        ),
    ),
    Command(
        "report",
        help="compare evaluation runs side by side (markdown + PNG plots)",
        description=(
            "Read RUN_DIR/results.json (and generations.jsonl) of each run and write "
            "report.md, scores_by_length.png and outcome_shares.png (with --html, also one "
            "static report.html)."
        ),
        handler=_report,
        options=(
            opt("runs", nargs="+", type=Path, metavar="RUN_DIR"),
            opt("--out", type=Path, default=Path("lw-eval-report")),
            opt("--title", default=None),
            opt(
                "--html",
                action="store_true",
                help="also write report.html: one static page (tables, plots, analyses, "
                "samples) with filters; opens offline in any browser",
            ),
        ),
    ),
)
