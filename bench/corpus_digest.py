"""Digest of the corpus stage's output (books and reports) for a set of folders.

Performance work must not change what the corpus stage produces: run this with the code
before and after a change (e.g. the main checkout's venv and a branch's) and compare the
printed digests; `--out FILE` writes the JSON lines themselves for a diff.
Usage: python bench/corpus_digest.py FOLDER ... [--workers 2] [--out FILE]
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from lengthwise.builders.corpus import CorpusSettings, process_corpus
from lengthwise.builders.sources.local import read_local
from lengthwise.jsonl import dumps_line
from lengthwise.records import SourceDocument
from lengthwise.spec import ChaptersConfig, CleaningConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tokenizer", default="qwen2.5")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    docs = [d for f in args.folders for d in read_local(f) if isinstance(d, SourceDocument)]
    settings = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())
    lines = []
    for book, report in process_corpus(docs, settings, [args.tokenizer], None, args.workers):
        row = {"book": book.to_dict() if book else None, "report": report.to_json()}
        lines.append(dumps_line(row, sort_keys=True))  # lengthwise.jsonl's line format
    data = ("\n".join(lines) + "\n").encode("utf-8")
    if args.out:
        args.out.write_bytes(data)
    print(f"{len(lines)} documents, sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
