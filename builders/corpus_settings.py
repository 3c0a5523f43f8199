"""What the corpus stage produces per document (`BookReport`) and the settings that change it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lengthwise.builders.chapters.accounting import AccountingJson
from lengthwise.builders.cleaning.learned import LearnedLine
from lengthwise.json_records import JsonRecord, validate_json
from lengthwise.spec import ChaptersConfig, CleaningConfig
from lengthwise.storage import canonical_hash, read_json

# Bump when cleaning or chapter detection changes output for the same input.
PIPELINE_VERSION = "corpus-33"


@dataclass
class BookReport(JsonRecord):
    """What the corpus stage found for one document (the `inspect --json` contract)."""

    path: str
    id: str
    title: str
    language: str
    encoding: str
    chapters: int
    numbers: list[int]  # printed numbers of numbered chapters, as integers, in order
    kinds: list[str]  # per chapter: chapter / prologue / epilogue / ...
    gaps: list[list[int]]  # [from, to] missing number ranges
    duplicates: list[int]
    removed: dict[str, int]  # cleaning rule -> count
    removed_examples: dict[str, list[str]]
    excluded: str | None
    story_collection: bool = False
    # Headings kept out of the chapters (a zh 楔子 by default), so nothing vanishes silently.
    front_matter_headings: list[str] = field(default_factory=list)
    undecodable_bytes: int = 0
    warnings: list[str] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)  # tokenizer id -> total over chapters
    # Damaged characters left in the cleaned text (cleaning.damage.DamageCounts fields).
    damage: dict[str, int] = field(default_factory=dict)
    # Boilerplate learned from this book and the corpus: rule, line, count, scope, why.
    learned_boilerplate: list[LearnedLine] = field(default_factory=list)
    chars_removed: dict[str, int] = field(default_factory=dict)  # cleaning rule -> characters
    # Where the cleaned text's characters went (chapters.accounting.Accounting.to_dict):
    # chars in chapters, outside them (spans: kind front/back/between, offset, length, first
    # words, note) and whitespace separators; None when chapters came from an embedded ToC.
    outside_chapters: AccountingJson | None = None
    inner_headings: list[str] = field(default_factory=list)  # heading lines left in bodies
    title_source: str = "filename"  # gutenberg-header | text | epub | html | markdown | ...
    split_numbers: list[int] = field(default_factory=list)  # chapters printed in parts (上/下)


def read_book_reports(path: Path) -> list[BookReport]:
    """WORK/corpus/books_report.json (the corpus step's reports), validated."""
    return validate_json(list[BookReport], read_json(path), str(path))


@dataclass(frozen=True)
class CorpusSettings:
    """Everything that changes what the corpus stage produces for a document."""

    language: str  # "zh", "en" or "auto"
    cleaning: CleaningConfig
    chapters: ChaptersConfig

    def fingerprint(self) -> str:
        return canonical_hash(
            {
                "version": PIPELINE_VERSION,
                "language": self.language,
                "cleaning": self.cleaning.model_dump(mode="json"),
                "chapters": self.chapters.model_dump(mode="json"),
            }
        )
