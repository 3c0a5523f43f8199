"""Screening books before sampling: the contamination ("popular books") probe."""

from lengthwise.builders.screening.decision import ProbeThresholds
from lengthwise.builders.screening.probe import (
    ProbeResult,
    ProbeSettings,
    choose_chapters,
    run_probe,
)
from lengthwise.builders.screening.report import ScreeningPaths, flagged_books
from lengthwise.builders.screening.settings import screening_settings

__all__ = [
    "ProbeResult",
    "ProbeSettings",
    "ProbeThresholds",
    "ScreeningPaths",
    "choose_chapters",
    "flagged_books",
    "run_probe",
    "screening_settings",
]
