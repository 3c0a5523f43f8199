"""Chapter synopsis drafts: an LLM (or, without one, an extractive drafter) per chapter."""

from lengthwise.annotation.drafts.extractive import (
    EXTRACTIVE_MODEL,
    ExtractiveBudget,
    extractive_draft,
)
from lengthwise.annotation.drafts.prompts import PROMPT_VERSION
from lengthwise.annotation.drafts.run import DraftingResult, DraftPaths, run_drafting

__all__ = [
    "EXTRACTIVE_MODEL",
    "PROMPT_VERSION",
    "DraftPaths",
    "DraftingResult",
    "ExtractiveBudget",
    "extractive_draft",
    "run_drafting",
]
