"""One pulled annotation: the core record `lengthwise.human_records.Annotation`."""

from __future__ import annotations

from lengthwise.human_records import ORIGIN_HUMAN, Annotation

AnnotationRecord = Annotation

__all__ = ["ORIGIN_HUMAN", "AnnotationRecord"]
