"""`lengthwise eval` (run a model on a release) and `lengthwise report` (compare runs)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from lengthwise.cli_options import Command, add_commands, opt
from lengthwise.evaluation.backends import BACKENDS
from lengthwise.evaluation.config_args import engine_from_args as engine_from_args
from lengthwise.evaluation.config_args import load_eval_config
from lengthwise.evaluation.console import console_lines
from lengthwise.evaluation.planning import POLICIES


def _names(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise argparse.ArgumentTypeError("expected a comma-separated list, e.g. L,XL")
    return names


def register(subparsers: Any) -> None:
    from lengthwise.evaluation.analyses.commands import COMMANDS as ANALYSE_COMMANDS

    add_commands(subparsers, (*COMMANDS, *ANALYSE_COMMANDS))


def _eval(args: argparse.Namespace) -> int:
    from lengthwise.evaluation.runner import run_eval

    config = load_eval_config(args)
    run = run_eval(config)
    results = run.results
    print(f"generated {run.generated}, reused {run.reused} finished pairs")
    for line in console_lines(results):
        print(line)
    if not results["complete"]:
        print("  INCOMPLETE: some pairs are missing or ended in error; rerun to resume")
    from lengthwise.llm.usage_journal import total_sentence

    usage = results.get("usage")
    overall = total_sentence(usage if isinstance(usage, dict) else {}, "into this run folder")
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
JUDGE = "judge (qa and needles verdicts; also [eval.judge] in --config)"
SUPPRESS = argparse.SUPPRESS  # an option not given leaves the --config value (or the default)

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
            opt(
                "--config",
                type=Path,
                default=None,
                help="TOML file with an [eval] table (options given here override it)",
            ),
            opt("--release", default=SUPPRESS, help="release folder, or ORG/NAME@REVISION"),
            opt(
                "--tasks",
                type=_names,
                default=SUPPRESS,
                help="summarization and/or task names or families in the release "
                "(ordering, recall, sections, qa, needles, ...; default: summarization)",
            ),
            opt("--subsets", type=_names, default=SUPPRESS, help="e.g. L,XL (default: all)"),
            opt("--model", default=SUPPRESS, help="model folder, or the served model name"),
            opt("--backend", default=SUPPRESS, choices=BACKENDS),
            opt("--base-url", default=SUPPRESS, help="OpenAI-compatible endpoint (openai)"),
            opt("--api-key-env", default=SUPPRESS, help="env variable holding the API key"),
            opt("--revision", default=SUPPRESS, help="model revision (recorded and keyed)"),
            opt("--prompts", type=_names, default=SUPPRESS, help="default IB,IE"),
            opt(
                "--endpoint",
                action="append",
                default=SUPPRESS,
                metavar="URL",
                help="one of several servers of the model (openai; repeatable, instead of "
                "--base-url): requests are spread over them, a dead one's retried elsewhere",
            ),
            opt(
                "--prompt-file",
                type=Path,
                default=SUPPRESS,
                help='JSON {id: "template with {}"} or {id: {"zh": ..., "en": ...}}; CNNSum '
                "prompts.json works as is",
            ),
            opt("--chat-template", choices=("on", "off"), default=SUPPRESS),
            opt(
                "--tokenizer",
                default=SUPPRESS,
                help="counting tokenizer: registry id (qwen2.5, tiktoken:o200k_base, hf:PATH) or a "
                "model folder (default: the model folder)",
            ),
            opt("--context-window", type=int, default=SUPPRESS, help="default: model config"),
            opt("--policy", choices=POLICIES, default=SUPPRESS),
            opt(
                "--max-new-tokens-per-subset",
                default=SUPPRESS,
                help="e.g. L=400,XL=400,2XL=500 (defaults: 400 for L/XL, 500 for 2XL/3XL, else "
                "400)",
            ),
            opt(
                "--max-new-tokens", type=int, default=SUPPRESS, help="for subsets not listed above"
            ),
            opt("--temperature", type=float, default=SUPPRESS, help="0 = greedy (default)"),
            opt("--top-p", type=float, default=SUPPRESS),
            opt("--seed", type=int, default=SUPPRESS),
            opt("--limit", type=int, default=SUPPRESS, help="first N samples per subset"),
            opt("--metric", default=SUPPRESS),
            opt("--bootstrap-resamples", type=int, default=SUPPRESS),
            opt("--bootstrap-seed", type=int, default=SUPPRESS),
            opt("--concurrency", type=int, default=SUPPRESS, help="requests in flight (APIs)"),
            opt("--timeout", type=float, default=SUPPRESS, help="seconds per request"),
            opt("--device", default=SUPPRESS, help="transformers: cpu, cuda, auto"),
            opt("--cache", type=Path, default=SUPPRESS, help="request cache file"),
            opt("--download-dir", type=Path, default=SUPPRESS, help="for ORG/NAME@REV"),
            opt("--out", type=Path, default=SUPPRESS, help="run folder (default lw-eval/..)"),
            opt(
                "--overwrite",
                action="store_true",
                default=SUPPRESS,
                help="discard a different run in OUT",
            ),
            opt(
                "--no-report",
                action="store_true",
                default=SUPPRESS,
                help="skip report.md and plots",
            ),
            opt(
                "--max-model-len",
                type=int,
                default=SUPPRESS,
                help="default: the plan's need",
                group=VLLM,
            ),
            opt("--tensor-parallel-size", type=int, default=SUPPRESS, group=VLLM),
            opt("--pipeline-parallel-size", type=int, default=SUPPRESS, group=VLLM),
            opt(
                "--data-parallel-size",
                type=int,
                default=SUPPRESS,
                help="replicas behind the one server (vllm-server)",
                group=VLLM,
            ),
            opt("--gpu-memory-utilization", type=float, default=SUPPRESS, group=VLLM),
            opt(
                "--prefix-caching",
                choices=("on", "off"),
                default=SUPPRESS,
                help="vLLM prefix caching",
                group=VLLM,
            ),
            opt("--dtype", default=SUPPRESS, group=VLLM),
            opt("--enforce-eager", action="store_true", default=SUPPRESS, group=VLLM),
            opt(
                "--rope-scaling",
                default=SUPPRESS,
                help='JSON, e.g. {"rope_type": "yarn", ...}',
                group=VLLM,
            ),
            opt(
                "--yarn-factor",
                type=float,
                default=SUPPRESS,
                help="shorthand for YaRN scaling",
                group=VLLM,
            ),
            opt(
                "--original-max-position-embeddings",
                type=int,
                default=SUPPRESS,
                help="YaRN: the model's trained window (default: 32768)",
                group=VLLM,
            ),
            opt("--rope-theta", type=float, default=SUPPRESS, group=VLLM),
            opt(
                "--hf-overrides",
                default=SUPPRESS,
                help="JSON passed to vLLM as hf_overrides",
                group=VLLM,
            ),
            opt(
                "--vllm-python",
                default=SUPPRESS,
                help="python of the venv holding vLLM",
                group=VLLM,
            ),
            opt("--server-port", type=int, default=SUPPRESS, group=VLLM),
            opt("--judge-model", default=SUPPRESS, help="judge model (qa, needles)", group=JUDGE),
            opt("--judge-base-url", default=SUPPRESS, help="its endpoint", group=JUDGE),
            opt("--judge-api-key-env", default=SUPPRESS, group=JUDGE),
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
