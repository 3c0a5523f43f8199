"""The builder commands as a user runs them: output contract, clear errors, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lengthwise.builders.demo_corpus import write_demo_corpus
from lengthwise.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_inspect_contract_on_demo_corpus_and_bad_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_demo_corpus(tmp_path / "corpus")
    (tmp_path / "corpus" / "empty.txt").write_bytes(b"")
    (tmp_path / "corpus" / "image.txt").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    (tmp_path / "corpus" / "notes.txt").write_text("just a few words, no chapters\n" * 30)
    result = run_json(
        capsys,
        "inspect",
        str(tmp_path / "corpus"),
        "--tokenizer",
        "chars",
        "--workers",
        "1",
        "--json",
    )
    books = {Path(str(b["path"])).name: b for b in result["books"]}  # type: ignore[attr-defined]
    zh = books["zh_synthetic_1.txt"]
    assert zh["language"] == "zh" and zh["chapters"] == 20
    assert zh["numbers"] == list(range(1, 21)) and zh["gaps"] == [] and zh["duplicates"] == []
    assert zh["removed"]["zh-web/site-advert"] == 1 and zh["tokens"] > 10_000
    assert books["zh_synthetic_3_gb18030.txt"]["encoding"] == "gb18030"
    en = books["en_synthetic_1.txt"]
    assert en["chapters"] == 18, "the contents list must not double the chapters"
    assert "empty" in books["empty.txt"]["excluded"]
    assert "binary" in books["image.txt"]["excluded"]
    assert "no chapter" in books["notes.txt"]["excluded"]
    # A missing path now ends inspect with status 2 (tests/builders/test_bad_input.py).


def test_build_with_bad_spec_exits_2_naming_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "bad.toml"
    spec.write_text(
        'name = "x"\n[[sources]]\nkind = "files"\npath = "."\n'
        "[[subsets]]\nname = 'S'\ntarget = 10\nlower = 20\nupper = 5\ncount = 1\n"
    )
    assert main(["build", str(spec), "--work", str(tmp_path / "w")]) == 2
    err = capsys.readouterr().err
    assert str(spec) in err and "subsets.0" in err and "must not exceed upper" in err
    assert not (tmp_path / "w").exists()


def test_pack_training_writes_samples_in_interval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "pairs.jsonl"
    rows = [{"text": "word " * (40 + i % 7), "summary": f"summary {i}"} for i in range(60)]
    rows.append({"text": "long " * 500, "summary": "too long to fit"})
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "packed.jsonl"
    assert (
        main(
            [
                "pack-training",
                str(data),
                "--lower",
                "400",
                "--upper",
                "600",
                "--tokenizer",
                "chars",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    packed = [json.loads(line) for line in out.read_text().splitlines()]
    assert packed and all(400 <= p["tokens"] <= 600 for p in packed)
    assert all(len(p["context"]) == p["tokens"] for p in packed)
    report = json.loads(out.with_suffix(".jsonl.report.json").read_text())
    assert report["dropped"]["excerpt alone longer than upper"] == 1
    members = [m for p in packed for m in p["members"]]
    assert len(members) == len(set(members)), "a pair is used once"
    capsys.readouterr()


def test_inspect_without_a_usable_book_exits_1_with_a_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "empty.txt").write_bytes(b"")
    (corpus / "notes.txt").write_text("just a few words, no chapters\n" * 30)
    args = ["inspect", str(corpus), "--tokenizer", "chars", "--workers", "1"]
    assert main(args) == 1
    captured = capsys.readouterr()
    assert "no chapter" in captured.out and "empty" in captured.out
    assert "0 of 2 input(s) usable as books (1 excluded, 1 unreadable)" in captured.err
    assert main([*args, "--json"]) == 1
    assert len(json.loads(capsys.readouterr().out)["books"]) == 2


def test_inspect_summary_counts_kept_books(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_demo_corpus(tmp_path / "corpus")
    (tmp_path / "corpus" / "notes.txt").write_text("just a few words, no chapters\n" * 30)
    args = ["inspect", str(tmp_path / "corpus"), "--tokenizer", "chars", "--workers", "1"]
    entries = run_json(capsys, *args, "--json")["books"]
    assert isinstance(entries, list)
    kept = sum(1 for e in entries if not e["excluded"])
    assert 0 < kept < len(entries)
    assert main(args) == 0
    err = capsys.readouterr().err
    assert f"{kept} of {len(entries)} input(s) usable as books" in err


def test_books_in_languages_without_rules_go_the_generic_path_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A French Gutenberg file once stopped the whole command ("unsupported language");
    a Russian one was processed as English; then both were excluded. Both are now built by
    the generic path, their language named, with a warning saying which rules they got."""
    write_demo_corpus(tmp_path / "corpus")
    french = "Il était une fois un homme qui ne savait pas ce qu'il voulait. " * 40
    (tmp_path / "corpus" / "pg99999.txt").write_text(
        "Title: Le Rouge\nLanguage: French\n\n*** START OF THE PROJECT GUTENBERG EBOOK X ***\n"
        + "".join(f"CHAPITRE {n}\n\n{french}\n\n" for n in ("I", "II", "III"))
    )
    russian = "Жил-был в одном маленьком городе человек, который не знал, чего он хочет. " * 40
    (tmp_path / "corpus" / "roman.txt").write_text(
        "".join(f"ГЛАВА {n}\n\n{russian}\n\n" for n in ("I", "II", "III"))
    )
    result = run_json(capsys, "inspect", str(tmp_path / "corpus"), "--workers", "1", "--json")
    books = {Path(str(b["path"])).name: b for b in result["books"]}  # type: ignore[attr-defined]
    for name, code in (("pg99999.txt", "fr"), ("roman.txt", "ru")):
        assert books[name]["language"] == code
        assert not books[name]["excluded"] and books[name]["chapters"] == 3
        assert f"language '{code}': generic path" in books[name]["warnings"][0]
    assert (
        books["en_synthetic_1.txt"]["chapters"] == 18
        and not books["en_synthetic_1.txt"]["excluded"]
    )


def test_metadata_languages_spelled_otherwise_are_checked_against_the_text(tmp_path: Path) -> None:
    """An EPUB's `eng` or an HTML page's `und` is no reason to exclude an English book."""
    from lengthwise.builders.corpus import CorpusSettings, process_document
    from lengthwise.builders.sources.local import read_local
    from lengthwise.records import SourceDocument
    from lengthwise.spec import ChaptersConfig, CleaningConfig

    write_demo_corpus(tmp_path / "corpus")
    [doc] = read_local(tmp_path / "corpus" / "en_synthetic_1.txt")
    assert isinstance(doc, SourceDocument)
    settings = CorpusSettings("auto", CleaningConfig(), ChaptersConfig())
    for code in ("eng", "und"):
        book, report = process_document(SourceDocument(**{**vars(doc), "language": code}), settings)
        assert book is not None and book.language == "en", (code, report.excluded)
