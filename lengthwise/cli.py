"""The `lengthwise` command line.

Each area contributes its subcommands through a `commands` module with a
`register(subparsers)` function; they are looked up by name here so that the core
package does not import the areas built on top of it.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from lengthwise import __version__
from lengthwise.errors import UserError
from lengthwise.stage_state import StageBusy

__all__ = ["UserError", "build_parser", "main"]

COMMAND_MODULES = (
    "lengthwise.builders.commands",
    "lengthwise.builders.screening.commands",
    "lengthwise.annotation.commands",
    "lengthwise.annotation.annotate_commands",
    "lengthwise.releases.release_commands",
    "lengthwise.releases.commands",
    "lengthwise.evaluation.commands",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="lengthwise",
        description=(
            "Build, annotate, release and evaluate multi-scale long-context benchmarks "
            "from book-length text. Run `lengthwise COMMAND --help` for each command."
        ),
    )
    parser.add_argument("--version", action="version", version=f"lengthwise {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        return int(args.handler(args) or 0)
    except (UserError, StageBusy, FileNotFoundError) as exc:
        # User errors name the file/key/option in their message: a traceback adds nothing.
        # Any other exception (a ValueError from pyarrow or json included) is a bug and
        # keeps its traceback. A FileNotFoundError names the path the user gave.
        if args.verbose:
            raise
        print(f"lengthwise {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; rerun the same command to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
