"""Subcommands as data: a `Command` names its help, description, options and handler, and
`add_commands` turns a list of them into argparse subparsers.

The options every stage shares (the spec argument, ``--work``, ``--workers``,
``--executor``) are
defined once here, so that each area's `commands` module lists what is particular to it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lengthwise.limits import workers_arg
from lengthwise.spec_scaling import ExecutorConfig

Handler = Callable[[argparse.Namespace], int | None]


@dataclass(frozen=True)
class Opt:
    """One `add_argument` call; `group` puts it under an argument group of that title."""

    flags: tuple[str, ...]
    kwargs: Mapping[str, Any]
    group: str | None = None


def opt(*flags: str, group: str | None = None, **kwargs: Any) -> Opt:
    return Opt(tuple(flags), kwargs, group)


SPEC = opt("spec", type=Path, help="spec TOML file")
OPTIONAL_SPEC = opt("spec", type=Path, nargs="?", help="spec TOML file (for the work dir)")
WORK = opt("--work", type=Path, default=None, help="work directory (default ./lw-work/<spec name>)")
WORKERS = opt(
    "--workers",
    type=workers_arg,  # at least 1; local pools cap it at the CPU count (lengthwise.limits)
    default=None,
    help="processes (default: all cores, at most 8; more than the CPU count is capped)",
)
EXECUTOR_OPTIONS = (
    opt(
        "--executor",
        choices=["local", "ray"],
        default=None,
        help="where corpus stages run: local processes or Ray tasks (default: the spec's "
        "[executor] kind, else local); outputs are identical",
    ),
    opt(
        "--ray-address",
        default=None,
        metavar="ADDR",
        help='Ray cluster to join ("auto", "ray://HEAD:10001"); default: the spec\'s '
        "[executor] address, else a private local instance",
    ),
)
STAGE_OPTIONS = (SPEC, WORK)  # `lengthwise STAGE SPEC [--work DIR]`


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    description: str | None
    handler: Handler | None = None  # None for a command that only groups subcommands
    options: Sequence[Opt] = ()
    subcommands: Sequence[Command] = field(default_factory=tuple)
    subcommand_dest: str | None = None
    raw_description: bool = False  # keep the description's line breaks


def add_commands(subparsers: Any, commands: Iterable[Command]) -> None:
    """Add each command (and its subcommands) to an argparse `add_subparsers()` object."""
    for command in commands:
        extra: dict[str, Any] = {}
        if command.raw_description:
            extra["formatter_class"] = argparse.RawDescriptionHelpFormatter
        parser = subparsers.add_parser(
            command.name, help=command.help, description=command.description, **extra
        )
        groups: dict[str, Any] = {}
        for option in command.options:
            target: Any = parser
            if option.group is not None:
                if option.group not in groups:
                    groups[option.group] = parser.add_argument_group(option.group)
                target = groups[option.group]
            target.add_argument(*option.flags, **option.kwargs)
        if command.subcommands:
            nested = parser.add_subparsers(
                dest=command.subcommand_dest, required=True, metavar="STEP"
            )
            add_commands(nested, command.subcommands)
        if command.handler is not None:
            parser.set_defaults(handler=command.handler)


def executor_from_args(
    args: argparse.Namespace, base: ExecutorConfig | None = None
) -> ExecutorConfig:
    """`base` (a spec's `[executor]`, or the default) with `--executor` / `--ray-address`."""
    config = base or ExecutorConfig()
    update: dict[str, Any] = {}
    if getattr(args, "executor", None):
        update["kind"] = args.executor
    if getattr(args, "ray_address", None):
        update["address"] = args.ray_address
        update.setdefault("kind", "ray")
    return config.model_copy(update=update) if update else config
