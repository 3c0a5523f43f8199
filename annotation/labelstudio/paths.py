"""Where the Label Studio loop keeps its files inside the work directory, and its state.

WORK/labelstudio/
    data/              Label Studio's data dir (SQLite database, media)
    texts/<book>/      original chapters as HTML pages, served to annotators as local files
    credentials.json   admin e-mail, password, API token (mode 0600)
    state.json         project id and title, what push did last
    server.json        URL and pid of the running `annotate serve`
    server.log         the server's output
    home/              HOME of the server process (it must not write to the user's)
"""

from __future__ import annotations

from typing import Any

from lengthwise.errors import InputFileError
from lengthwise.storage import atomic_write_json, read_json
from lengthwise.workdir import LabelStudioPaths as LabelStudioPaths


def load_state(paths: LabelStudioPaths) -> dict[str, Any]:
    if not paths.state.is_file():
        return {}
    try:
        state = read_json(paths.state)
    except ValueError as exc:
        raise InputFileError(
            f"{paths.state}: not valid JSON ({exc}); delete it to start over"
        ) from None
    if not isinstance(state, dict):
        raise InputFileError(f"{paths.state}: expected a JSON object")
    return state


def save_state(paths: LabelStudioPaths, state: dict[str, Any]) -> None:
    atomic_write_json(paths.state, state)
