"""Finding classes and the per-sample audit record."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NotRequired

from typing_extensions import TypedDict

# Stable keys, in the order reports show them, with what each counts.
FINDING_CLASSES: dict[str, str] = {
    "url": "URLs, www addresses, domain names and e-mail addresses",
    "site": "site and download vocabulary (小说网, 免费阅读, download, ebook, ...)",
    "copyright": "copyright and licence vocabulary (版权, 免责声明, Project Gutenberg, ...)",
    "page_marker": "page-number lines (`12`, `- 12 -`, `[Page 12]`, `第12页`)",
    "repeated_line": "non-narrative lines recurring within the sample (one per distinct line)",
    "repeated_fragment": "a sentence or bracketed aside glued into the text again and again "
    "(one per distinct fragment)",
    "toc_run": "runs of consecutive short heading-like lines (a contents list)",
    "damage": "private-use code points, U+FFFD, placeholder `?`/`□` inside Chinese text",
    "long_heading": "chapter headings longer than the language's limit",
    "ascii_symbol": "ASCII symbols between CJK characters (`西厢-`, `《西厢记>>中`, `**`)",
    "line_break": "line breaks inside a sentence, left by a hard wrap (reported from 5 in a "
    "sample; one per break)",
    "watermark": "site furniture disguised by separators or look-alikes "
    "(`（奇*书*网^.^整*理*提*供）`), shown with its skeleton",
}

# Short column names for the markdown tables.
SHORT_NAMES: dict[str, str] = {
    "url": "url",
    "site": "site",
    "copyright": "copyright",
    "page_marker": "page",
    "repeated_line": "repeated",
    "repeated_fragment": "fragment",
    "toc_run": "toc",
    "damage": "damage",
    "long_heading": "heading",
    "ascii_symbol": "ascii",
    "line_break": "break",
    "watermark": "mark",
}

SNIPPET_CONTEXT = 30  # characters shown either side of a match


@dataclass(frozen=True)
class Finding:
    kind: str  # a key of FINDING_CLASSES
    snippet: str  # `left⟦match⟧right`, newlines shown as ⏎


def snippet(
    text: str, start: int, end: int, context: int = SNIPPET_CONTEXT, shown: str | None = None
) -> str:
    """The match (or `shown` in its place) marked inside its context, on one line."""
    left = text[max(0, start - context) : start]
    right = text[end : end + context]
    middle = text[start:end] if shown is None else shown
    return f"{left}⟦{middle}⟧{right}".replace("\r", "").replace("\n", "⏎")


class SampleAuditJson(TypedDict):
    """A row of WORK/audit/samples.jsonl."""

    id: str
    subset: str
    book_id: str
    language: str
    total: int
    counts: dict[str, int]
    snippets: NotRequired[dict[str, list[str]]]
    dropped: NotRequired[str | None]


@dataclass
class SampleAudit:
    """What the audit found in one sample."""

    id: str
    subset: str
    book_id: str
    language: str
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FINDING_CLASSES, 0))
    snippets: dict[str, list[str]] = field(default_factory=dict)
    dropped: str | None = None  # the reason, when the audit removed the sample

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def first_snippet(self) -> str:
        for kind in FINDING_CLASSES:
            if self.snippets.get(kind):
                return f"{kind}: {self.snippets[kind][0]}"
        return ""

    def to_dict(self) -> SampleAuditJson:
        return {
            "id": self.id,
            "subset": self.subset,
            "book_id": self.book_id,
            "language": self.language,
            "total": self.total,
            "counts": dict(self.counts),
            "snippets": {k: list(v) for k, v in self.snippets.items() if v},
            "dropped": self.dropped,
        }

    @classmethod
    def from_dict(cls, row: SampleAuditJson) -> SampleAudit:
        counts = dict.fromkeys(FINDING_CLASSES, 0)
        counts.update({k: int(v) for k, v in row["counts"].items()})
        return cls(
            id=row["id"],
            subset=row["subset"],
            book_id=row["book_id"],
            language=row["language"],
            counts=counts,
            snippets={k: list(v) for k, v in row.get("snippets", {}).items()},
            dropped=row.get("dropped"),
        )
