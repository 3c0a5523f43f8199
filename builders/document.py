"""One document through the corpus stage: clean it, find its chapters, account for its text."""

from __future__ import annotations

from collections.abc import Callable

from lengthwise.builders.chapters import detect_chapters
from lengthwise.builders.chapters.accounting import Accounting, account, outside_warning
from lengthwise.builders.chapters.model import ChapterDetection, DetectedChapter
from lengthwise.builders.chapters.work_boundaries import BETWEEN_WORKS_NOTE
from lengthwise.builders.cleaning import CleaningResult, clean_text
from lengthwise.builders.cleaning.chapter_end_signatures import RULE as SIGNATURE_RULE
from lengthwise.builders.cleaning.chapter_end_signatures import chapter_end_signature_edits
from lengthwise.builders.cleaning.damage import count_damage
from lengthwise.builders.cleaning.learned import LearnedLine
from lengthwise.builders.cleaning.ledger import Edit
from lengthwise.builders.cleaning.repeated_headings import RULE as REPEATED_HEADING_RULE
from lengthwise.builders.cleaning.repeated_headings import repeated_heading_edits
from lengthwise.builders.cleaning.running_titles import RULE as RUNNING_TITLE_RULE
from lengthwise.builders.cleaning.running_titles import running_title_edits
from lengthwise.builders.corpus_settings import BookReport, CorpusSettings
from lengthwise.builders.language import (
    base_language,
    detect_language,
    generic_path_warning,
    is_supported,
)
from lengthwise.records import Book, SourceDocument

# What a step after detection finds: edits of the cleaned text and what it learned.
FoundAfterDetection = tuple[list[Edit], list[LearnedLine]]
ChapterEdits = Callable[[str, list[DetectedChapter], float], FoundAfterDetection]


def source_kind(source: str) -> str:
    """The kind of source a document came from, as cleaning rule selection needs it."""
    if source.startswith("gutenberg:"):
        return "gutenberg"
    if source.startswith(("http://", "https://")):
        return "urls"
    if source.startswith("hf:"):
        return "hf"
    return "files"


def _detect_without_chapter_end_furniture(
    doc: SourceDocument, settings: CorpusSettings, language: str, cleaned: CleaningResult
) -> ChapterDetection:
    """Chapters of the cleaned text, after removing furniture that only chapters reveal.

    Running titles and glued site signatures can only be told from narrative once
    chapters are known (cleaning/running_titles.py, cleaning/chapter_end_signatures.py),
    and so can a page header repeating its chapter's heading (repeated_headings.py);
    when one is found, `cleaned` records the removal and chapters are detected again on
    the text without it.
    """

    def detect() -> ChapterDetection:
        return detect_chapters(
            cleaned.text,
            language,
            toc=doc.toc or None,
            min_chapter_chars=settings.chapters.min_chapter_chars,
        )

    detection = detect()
    config = settings.cleaning
    if not config.learned_boilerplate:
        return detection
    names = [doc.title, doc.author or ""]
    steps: list[tuple[str, ChapterEdits]] = [
        (REPEATED_HEADING_RULE, lambda text, chapters, _: repeated_heading_edits(text, chapters)),
        (
            RUNNING_TITLE_RULE,
            lambda text, chapters, share: running_title_edits(text, _spans(chapters), names, share),
        ),
        (
            SIGNATURE_RULE,
            lambda text, chapters, share: chapter_end_signature_edits(
                text, _spans(chapters), share
            ),
        ),
    ]
    for rule, find_edits in steps:
        if rule in config.disable_rules:
            continue
        edits, learned = find_edits(
            cleaned.text, detection.chapters, config.learned_min_chapter_share
        )
        if edits:
            cleaned.record_named([(rule, edit) for edit in edits])
            cleaned.learned += learned
            detection = detect()
    return detection


def _spans(chapters: list[DetectedChapter]) -> list[tuple[int, int]]:
    return [(c.start, c.end) for c in chapters if c.start is not None and c.end is not None]


def process_document(
    doc: SourceDocument, settings: CorpusSettings, corpus_lines: frozenset[str] = frozenset()
) -> tuple[Book | None, BookReport]:
    """Clean one document and find its chapters (no token counting).

    `corpus_lines`: line signatures learned as boilerplate across the corpus
    (`learn_corpus_lines`) that occur in this document.
    """
    language = doc.language or (settings.language if settings.language != "auto" else None)
    given = language is not None
    language = language or detect_language(doc.text)
    if given and not is_supported(language):
        # Metadata may spell a language another way (EPUB `eng`, HTML `und`): the text
        # decides then, unless it names another language the metadata's code can be.
        from_text = detect_language(doc.text)
        if is_supported(from_text) or len(base_language(language)) != 2:
            language = from_text
    cleaned = clean_text(
        doc.text,
        language,
        settings.cleaning,
        source_kind=source_kind(doc.source),
        corpus_lines=corpus_lines,
    )
    detection = _detect_without_chapter_end_furniture(doc, settings, language, cleaned)
    detected = list(detection.chapters)
    front_matter, kept_out = _keep_out_zh_prologue(detected, language, settings)
    kept_out += [(start, end, BETWEEN_WORKS_NOTE) for start, end in detection.between_works]
    excluded = _exclusion(detection, len(detected), settings)
    report = _book_report(doc, language, cleaned, detection, detected, excluded)
    report.front_matter_headings = front_matter
    generic = generic_path_warning(language)
    if generic is not None:
        report.warnings.insert(0, generic)
    accounting = _accounting(cleaned.text, detection, detected, kept_out)
    if accounting is not None:
        report.outside_chapters = accounting.to_dict()
        warning = outside_warning(accounting, settings.chapters.max_outside_share)
        if warning is not None and excluded is None:
            report.warnings.append(warning)
    if excluded is not None:
        return None, report
    book = Book(
        id=doc.id,
        title=doc.title,
        language=language,
        source=doc.source,
        raw_sha256=doc.raw_sha256,
        encoding=doc.encoding,
        chapters=[c.to_record(doc.id, i) for i, c in enumerate(detected)],
        author=doc.author,
        license_note=doc.license_note,
    )
    return book, report


def _keep_out_zh_prologue(
    detected: list[DetectedChapter], language: str, settings: CorpusSettings
) -> tuple[list[str], list[tuple[int, int, str]]]:
    """A zh 楔子 leaves the chapters (in place) unless the spec keeps it: its heading as
    front matter, its span as kept out (for the character accounting)."""
    front_matter: list[str] = []
    kept_out: list[tuple[int, int, str]] = []
    if (
        language == "zh"
        and detected
        and detected[0].kind == "prologue"
        and not settings.chapters.keep_zh_prologue
    ):
        prologue = detected.pop(0)
        front_matter.append(prologue.heading)
        if prologue.start is not None and prologue.end is not None:
            kept_out.append((prologue.start, prologue.end, _PROLOGUE_NOTE))
    return front_matter, kept_out


def _exclusion(detection: ChapterDetection, chapters: int, settings: CorpusSettings) -> str | None:
    """Why the book leaves the corpus (too few chapters, a story collection), or None."""
    if detection.excluded is not None:
        return detection.excluded
    if chapters < settings.chapters.min_chapters:
        return (
            f"only {chapters} chapter(s) found, "
            f"spec requires chapters.min_chapters = {settings.chapters.min_chapters}"
        )
    if detection.story_collection and settings.chapters.exclude_story_collections:
        return f"story collection ({detection.story_collection_reason})"
    return None


def _book_report(
    doc: SourceDocument,
    language: str,
    cleaned: CleaningResult,
    detection: ChapterDetection,
    detected: list[DetectedChapter],
    excluded: str | None,
) -> BookReport:
    return BookReport(
        path=doc.source,
        id=doc.id,
        title=doc.title,
        language=language,
        encoding=doc.encoding,
        chapters=len(detected),
        numbers=[c.number for c in detected if c.number is not None],
        kinds=[c.kind for c in detected],
        gaps=[list(g) for g in detection.gaps],
        duplicates=list(detection.duplicates),
        split_numbers=list(detection.split_numbers),
        removed=dict(cleaned.removed),
        removed_examples=dict(cleaned.examples),
        learned_boilerplate=list(cleaned.learned),
        chars_removed=dict(cleaned.chars_removed),
        excluded=excluded,
        story_collection=detection.story_collection,
        undecodable_bytes=doc.undecodable_bytes,
        warnings=list(doc.warnings) + list(detection.warnings),
        inner_headings=list(detection.inner_headings),
        title_source=doc.title_source,
        damage=count_damage(cleaned.text).to_dict(),
    )


def _accounting(
    text: str,
    detection: ChapterDetection,
    kept: list[DetectedChapter],
    kept_out: list[tuple[int, int, str]],
) -> Accounting | None:
    """Where the cleaned text went; None for chapters taken from an embedded ToC."""
    if detection.method == "toc":
        return None
    spans = [(c.start, c.end) for c in kept if c.start is not None and c.end is not None]
    return account(text, spans, kept_out)


_PROLOGUE_NOTE = "zh prologue kept out of the chapters (chapters.keep_zh_prologue = false)"
