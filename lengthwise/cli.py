"""The `lengthwise` command line.

Each area contributes its subcommands through a `commands` module with a
`register(subparsers)` function; they are looked up by name here so that the core
package does not import the areas built on top of it.

User errors become output in one place (`main`): a `UserError` (any subclass: spec,
input file, release, name, limit), a busy stage lock, a missing file or a permission
problem prints one line, ``lengthwise COMMAND: error: ...``, and exits with status 2;
argparse's usage errors too. A refused command removes the folders it created for
nothing (lengthwise.refusal). Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from lengthwise import __version__
from lengthwise.errors import UserError
from lengthwise.refusal import removed_if_refused
from lengthwise.reports import one_line
from lengthwise.stage_state import StageBusy
from lengthwise.workdir import EVAL_ROOT, WORK_ROOT

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
# OS errors that are the user's to fix (a path they gave), shown as one line.
_USER_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


class _Parser(argparse.ArgumentParser):
    """argparse, with its usage errors as one line (and status 2) like every user error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
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
        with removed_if_refused(_output_roots(args)):
            return int(args.handler(args) or 0)
    except (UserError, StageBusy, FileNotFoundError) as exc:
        # User errors name the file/key/option in their message: a traceback adds nothing.
        # Any other exception (a ValueError from pyarrow or json included) is a bug and
        # keeps its traceback. A FileNotFoundError names the path the user gave.
        if args.verbose:
            raise
        return _refuse(args.command, str(exc), getattr(exc, "verbatim", ()))
    except OSError as exc:
        # A folder the user pointed at that cannot be written or read (permissions, a
        # read-only file system) is theirs to fix; other OS errors keep their traceback.
        if args.verbose or exc.errno not in _USER_ERRNOS:
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        return _refuse(args.command, f"{where}{exc.strerror or exc}")
    except KeyboardInterrupt:
        print("interrupted; rerun the same command to resume", file=sys.stderr)
        return 130


def _output_roots(args: argparse.Namespace) -> list[Path]:
    """Folders the command may create: its path arguments and the default output roots."""
    paths = [value for value in vars(args).values() if isinstance(value, Path)]
    return [*paths, WORK_ROOT, EVAL_ROOT]


def _refuse(command: str, message: str, verbatim: Sequence[str] = ()) -> int:
    """The one place a user error becomes output: one line per problem, status 2.

    Lines of the message listed in `verbatim` (to be copied into a file) are printed as
    they are, without the prefix."""
    # A spec with several bad keys lists one per line; anything else is one line.
    lines = [line for line in message.split("\n") if line.strip()] or ["failed"]
    for line in lines:
        prefix = "" if line in verbatim else f"lengthwise {command}: error: "
        print(f"{prefix}{one_line(line)}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
