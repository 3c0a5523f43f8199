"""Errors a user can fix: the command line prints them as one line and exits with status 2.

Anything else (a bug, a library failing) keeps its traceback. `UserError` is a
`ValueError` so that code validating values (pydantic validators, callers catching
ValueError) treats it as before.
"""

from __future__ import annotations


class UserError(ValueError):
    """Bad input: a spec key, a command-line option, a file, a model name. The message
    names what is wrong and where (file:line, spec key, option).

    `verbatim` names lines of the message meant to be copied as they are (an accept
    file's entries): the command line prints them without its `error:` prefix.
    """

    def __init__(self, *args: object, verbatim: tuple[str, ...] = ()) -> None:
        super().__init__(*args)
        self.verbatim = verbatim


class InputFileError(UserError):
    """A file the user gave (or an earlier stage wrote) cannot be read or is malformed."""


class MissingInputError(UserError, FileNotFoundError):
    """A file or folder a stage needs is absent (usually: run the earlier stage first)."""


class SpecError(UserError):
    """A spec file is unreadable or invalid; the message names file and key."""
