"""`lengthwise analyse NAME RUN_DIR... [--out DIR]`: one subcommand per analysis.

Each writes OUT/NAME.json (the table, the notes printed here and the plot names) and
OUT/NAME_*.png; OUT defaults to the first run folder's `analyses/`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Final

from lengthwise.cli_options import Command, Handler, Opt, opt
from lengthwise.errors import UserError
from lengthwise.evaluation.analyses.output import AnalysisOutput, write_output
from lengthwise.evaluation.analyses.run_data import AnalysedRun, load_analysed_runs

ANALYSES_FOLDER: Final = "analyses"
RUNS = opt("runs", nargs="+", type=Path, metavar="RUN_DIR")
OUT = opt("--out", type=Path, default=None, help="default: FIRST_RUN_DIR/analyses")


def _fractions(text: str) -> list[float]:
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"expected fractions like 1,0.5,0.25: {error}") from error


def _prepare(args: argparse.Namespace) -> tuple[list[AnalysedRun], Path]:
    runs = load_analysed_runs(list(args.runs))
    out = args.out or Path(args.runs[0]) / ANALYSES_FOLDER
    out.mkdir(parents=True, exist_ok=True)
    return runs, out


def _finish(output: AnalysisOutput, out: Path) -> int:
    write_output(output, out)
    for note in output.notes:
        print(note)
    for path in output.plots:
        print(path)
    print(output.table_path)
    return 0


def _traceability(args: argparse.Namespace) -> int:
    from lengthwise.evaluation.analyses import traceability

    runs, out = _prepare(args)
    return _finish(traceability.analyse(runs, out, methods=args.methods), out)


def _truncation(args: argparse.Namespace) -> int:
    from lengthwise.evaluation.analyses import truncation

    runs, out = _prepare(args)
    output = truncation.analyse(runs, out, fractions=args.fractions, threshold=args.threshold)
    return _finish(output, out)


def _position_bias(args: argparse.Namespace) -> int:
    from lengthwise.evaluation.analyses import position_bias

    runs, out = _prepare(args)
    return _finish(position_bias.analyse(runs, out), out)


def _medoid(args: argparse.Namespace) -> int:
    from lengthwise.evaluation.analyses import medoid

    runs, out = _prepare(args)
    control = load_analysed_runs(list(args.control)) if args.control else []
    output = medoid.analyse(
        runs, out, control=control, similarity=args.similarity, drop_not_found=args.drop_not_found
    )
    return _finish(output, out)


def _prompt_sensitivity(args: argparse.Namespace) -> int:
    from lengthwise.evaluation.analyses import prompt_sensitivity

    runs, out = _prepare(args)
    return _finish(prompt_sensitivity.analyse(runs, out, resamples=args.resamples), out)


def _atomic_facts(args: argparse.Namespace) -> int:
    from lengthwise.evaluation.analyses import atomic_facts
    from lengthwise.llm.cache import RequestCache
    from lengthwise.llm.registry import make_client
    from lengthwise.spec import LLMRoleConfig

    runs, out = _prepare(args)
    config = LLMRoleConfig(
        backend=args.backend, model=args.model, base_url=args.base_url, api_key_env=args.api_key_env
    )
    client = make_client(config, RequestCache(out / "request-cache.sqlite"))
    output = atomic_facts.analyse(
        runs, out, client=client, method=args.method, threshold=args.threshold
    )
    return _finish(output, out)


def _perplexity(args: argparse.Namespace) -> int:
    from lengthwise.evaluation.analyses import perplexity

    if not (args.model / "config.json").is_file():
        raise UserError(f"--model {args.model}: not a local transformers model folder")
    runs, out = _prepare(args)
    output = perplexity.analyse(
        runs,
        out,
        scorer=perplexity.transformers_scorer(args.model),
        model_name=str(args.model),
        max_candidates=args.max_candidates,
    )
    return _finish(output, out)


def _command(name: str, summary: str, handler: Handler, *options: Opt) -> Command:
    return Command(name, summary, summary, handler=handler, options=(RUNS, OUT, *options))


METHODS = opt(
    "--methods",
    type=lambda t: [m for m in t.split(",") if m],
    default=["tfidf", "embedding"],
    help="tfidf,embedding (default both)",
)
MODEL_OPTIONS = (
    opt("--model", required=True, help="served model name, or a local model folder"),
    opt("--backend", choices=("openai", "transformers"), default="openai"),
    opt("--base-url", default=None),
    opt("--api-key-env", default=None),
)
ANALYSES = (
    _command(
        "traceability",
        "where summary sentences come from: thirds and deciles of the context, vs the reference",
        _traceability,
        METHODS,
    ),
    _command(
        "atomic-facts",
        "split summaries into facts with a model; trace, judge and follow them across lengths",
        _atomic_facts,
        *MODEL_OPTIONS,
        opt("--method", choices=("tfidf", "embedding"), default="tfidf"),
        opt("--threshold", type=float, default=0.7, help="fact match similarity (default 0.7)"),
    ),
    _command(
        "truncation",
        "score drop with the context cut to fractions (runs of the same samples)",
        _truncation,
        opt("--fractions", type=_fractions, default=None, help="one per run, e.g. 1,0.5,0.25"),
        opt("--threshold", type=float, default=0.1, help="release check: relative drop below"),
    ),
    _command(
        "position-bias", "score by answer depth; traceability curve for summaries", _position_bias
    ),
    _command(
        "medoid",
        "medoid voting over k permuted runs (SWiM), vs a single run and a fixed-position control",
        _medoid,
        opt("--control", nargs="+", type=Path, default=None, help="fixed-position run folders"),
        opt("--similarity", choices=("rouge-l", "embedding"), default="rouge-l"),
        opt("--drop-not-found", action="store_true", help="leave 'not found' answers out"),
    ),
    _command(
        "perplexity",
        "ordering tasks: candidate orders ranked by a local model's log-likelihood",
        _perplexity,
        opt("--model", type=Path, required=True, help="local transformers model folder"),
        opt("--max-candidates", type=int, default=24),
    ),
    _command(
        "prompt-sensitivity",
        "paired sign test and bootstrap interval between prompts, beside CNNSum's MSD",
        _prompt_sensitivity,
        opt("--resamples", type=int, default=1000),
    ),
)
COMMANDS = (
    Command(
        "analyse",
        help="analyses of how models use their context (JSON table + PNG plots)",
        description=__doc__,
        raw_description=True,
        subcommands=ANALYSES,
        subcommand_dest="analysis",
    ),
)
