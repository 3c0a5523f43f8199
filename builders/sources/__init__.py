"""Corpus sources: local files, URLs, Project Gutenberg and Hugging Face datasets -> documents.

`read_sources` is the stage entry point: it reads every source of a spec in order, yields
`SourceDocument`s (decoded, not yet cleaned) and records in the stage report what it kept,
what it dropped and why (short stable reason keys such as "binary-file" or
"robots-disallowed", with examples), and every decoding warning.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from lengthwise.builders.sources.crawl import Crawler, FetchedPage
from lengthwise.builders.sources.decoding import DecodedText, decode_bytes
from lengthwise.builders.sources.errors import FetchError, SourceError, SourceFailure
from lengthwise.builders.sources.gutenberg import read_gutenberg
from lengthwise.builders.sources.hf import read_hf_dataset
from lengthwise.builders.sources.input_checks import check_path, require_kept
from lengthwise.builders.sources.local import read_local
from lengthwise.builders.sources.stat_cache import SourceStatCache
from lengthwise.builders.sources.urls import read_urls
from lengthwise.records import SourceDocument
from lengthwise.reports import StageReport
from lengthwise.spec import FilesSource, GutenbergSource, HFDatasetSource, Spec, UrlsSource

__all__ = [
    "Crawler",
    "DecodedText",
    "FetchError",
    "FetchedPage",
    "SourceError",
    "SourceFailure",
    "SourceStatCache",
    "decode_bytes",
    "read_sources",
    "require_kept",
]


def read_sources(
    spec: Spec,
    cache_dir: Path,
    report: StageReport,
    stat_cache: SourceStatCache | None = None,
) -> Iterator[SourceDocument]:
    """Every document of every source in `spec`, in order, with unique ids.

    `cache_dir` holds the HTTP response cache (URL and Gutenberg sources). A language set on a
    source (or, failing that, on the spec) overrides hints found in the documents. Two
    documents with the same id keep it apart with a numeric suffix ("-2"), and a warning.
    A files source whose path does not exist (or is a symlink loop) raises `UserError`
    naming the spec file and key. With a `stat_cache`, unchanged local files come back as
    header documents without text (builders/sources/stat_cache.py).
    """
    crawler: Crawler | None = None
    seen_ids: set[str] = set()
    try:
        for index, source in enumerate(spec.sources):
            language = _language_of(source.language, spec.language)
            items: Iterator[SourceDocument | SourceFailure]
            if isinstance(source, FilesSource):
                path = spec.resolve(source.path)
                check_path(path, f"{spec.spec_file or spec.base_dir}: sources[{index}].path")
                items = read_local(path, language, source.glob, stat_cache)
            elif isinstance(source, HFDatasetSource):
                items = read_hf_dataset(source, spec.base_dir)
            else:
                crawler = crawler or Crawler(spec.crawl, cache_dir)
                if isinstance(source, UrlsSource):
                    items = read_urls(source.urls, crawler, language)
                else:
                    assert isinstance(source, GutenbergSource)
                    items = read_gutenberg(source.ids, source.mirror, crawler, language)
            for item in items:
                if isinstance(item, SourceFailure):
                    report.drop(item.key, example=f"{item.source}: {item.reason}")
                    continue
                if language is not None:
                    item.language = language
                _make_id_unique(item, seen_ids, report)
                for warning in item.warnings:
                    report.warn(warning)
                report.keep()
                yield item
    finally:
        if crawler is not None:
            crawler.close()


def _language_of(source_language: str, spec_language: str) -> str | None:
    for language in (source_language, spec_language):
        if language != "auto":
            return language
    return None


def _make_id_unique(document: SourceDocument, seen: set[str], report: StageReport) -> None:
    if document.id in seen:
        base, number = document.id, 2
        while f"{base}-{number}" in seen:
            number += 1
        document.id = f"{base}-{number}"
        message = f"{document.source}: id {base!r} already taken; using {document.id!r}"
        document.warnings.append(message)
    seen.add(document.id)
