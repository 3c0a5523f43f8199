"""The residual-noise audit: what cleaning left in the selected samples, counted per class.

Independent of the cleaning rules on purpose: its detectors look for the *shapes* of
noise (URLs, site and licence vocabulary, page markers, repeated lines, contents lists,
damaged characters, overlong headings, ASCII symbols between CJK characters) in the
final sample texts, so they catch what the cleaning rules missed. Results:
WORK/audit/samples.jsonl and the build report.
"""

from lengthwise.builders.audit.findings import FINDING_CLASSES, SampleAudit
from lengthwise.builders.audit.sample_audit import AuditContext, audit_sample
from lengthwise.builders.audit.stage import AuditRefused, run_audit

__all__ = [
    "FINDING_CLASSES",
    "AuditContext",
    "AuditRefused",
    "SampleAudit",
    "audit_sample",
    "run_audit",
]
