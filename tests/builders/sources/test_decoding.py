"""decode_bytes: encodings a corpus really arrives in, and every kind of bad input."""

from __future__ import annotations

import zipfile
from io import BytesIO

import pytest

from lengthwise.builders.sources import decoding
from lengthwise.builders.sources.decoding import decode_bytes, decode_declared
from lengthwise.builders.sources.errors import SourceError


@pytest.mark.parametrize(
    ("codec", "script", "expected_encoding"),
    [
        ("utf-8", "simplified", "utf-8"),
        ("utf-8-sig", "simplified", "utf-8-sig"),
        ("utf-16", "simplified", "utf-16-le"),  # Python writes a BOM, little endian
        ("utf-16-le", "simplified", "utf-16-le"),  # no BOM
        ("utf-16-be", "simplified", "utf-16-be"),  # no BOM
        ("gb18030", "simplified", "gb18030"),
        ("gbk", "simplified", "gb18030"),  # GBK decodes as its superset
        ("gb2312", "simplified", "gb18030"),
        ("big5", "traditional", "big5"),
        ("utf-16-le", "traditional", "utf-16-le"),
    ],
)
def test_decodes_chinese_in_each_encoding(
    zh_texts: dict[str, str], codec: str, script: str, expected_encoding: str
) -> None:
    text = zh_texts[script]
    decoded = decode_bytes(text.encode(codec), f"book.{codec}.txt")

    assert decoded.text == text
    assert decoded.encoding == expected_encoding
    assert decoded.undecodable_bytes == 0
    assert decoded.warnings == []


def test_english_utf16_with_bom_and_without() -> None:
    text = "Chapter 1\n\nIt was a bright cold day in April.\n" * 20
    for data in (text.encode("utf-16"), text.encode("utf-16-be")):
        assert decode_bytes(data, "en.txt").text == text


def test_line_ends_become_lf() -> None:
    decoded = decode_bytes("第一行\r\n第二行\r第三行\n".encode(), "mixed-eol.txt")
    assert decoded.text == "第一行\n第二行\n第三行\n"


def test_gbk_file_with_crlf_keeps_no_carriage_returns(zh_simplified: str) -> None:
    data = zh_simplified.replace("\n", "\r\n").encode("gbk")
    decoded = decode_bytes(data, "crlf.txt")
    assert decoded.text == zh_simplified
    assert "\r" not in decoded.text


def test_invalid_bytes_in_utf8_are_replaced_counted_and_reported(zh_simplified: str) -> None:
    good = zh_simplified.encode()
    cut1 = len(zh_simplified[:50].encode())  # cut on character boundaries
    cut2 = len(zh_simplified[:200].encode())
    data = good[:cut1] + b"\xff\xfe" + good[cut1:cut2] + b"\x80" + good[cut2:]

    decoded = decode_bytes(data, "damaged.txt")

    assert decoded.encoding == "utf-8"
    assert decoded.undecodable_bytes == 3
    assert decoded.text.replace("\ufffd", "") == zh_simplified
    assert decoded.text.count("\ufffd") == 3
    assert len(decoded.warnings) == 1
    assert "damaged.txt" in decoded.warnings[0] and "3 undecodable" in decoded.warnings[0]


def test_invalid_byte_in_gb18030_text_is_counted(zh_simplified: str) -> None:
    data = zh_simplified.encode("gb18030") + b"\xff" + "完".encode("gb18030")
    decoded = decode_bytes(data, "gb-damaged.txt")
    assert decoded.encoding == "gb18030"
    assert decoded.undecodable_bytes == 1
    assert decoded.text.endswith("\ufffd完")
    assert "gb-damaged.txt" in decoded.warnings[0]


def test_latin1_byte_after_long_ascii_prefix() -> None:
    # The only non-ASCII byte sits far into the file: detection must look there.
    text = "It was the best of times, it was the worst of times.\n" * 3000 + "A café.\n"
    decoded = decode_bytes(text.encode("cp1252"), "dickens.txt")
    assert decoded.text == text
    assert decoded.undecodable_bytes == 0


def test_empty_file_is_an_error_naming_the_file() -> None:
    with pytest.raises(SourceError, match=r"^empty\.txt: empty file$") as caught:
        decode_bytes(b"", "empty.txt")
    assert caught.value.key == "empty-file"


def test_whitespace_only_file_is_empty() -> None:
    with pytest.raises(SourceError, match=r"blank\.txt: empty file") as caught:
        decode_bytes(b" \r\n\t\n", "blank.txt")
    assert caught.value.key == "empty-file"


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 200, "PNG image"),
        (b"\x00\x01\x02\x03" * 500, "NUL bytes"),
        (bytes(range(256)) * 20, "no text encoding fits"),
        (b"%PDF-1.7\n" + bytes(range(256)) * 4, "PDF document"),
    ],
)
def test_binary_input_is_rejected_with_a_reason(data: bytes, why: str) -> None:
    with pytest.raises(SourceError) as caught:
        decode_bytes(data, "picture.txt")
    assert caught.value.key == "binary-file"
    assert str(caught.value).startswith("picture.txt: binary file")
    assert why in str(caught.value)


def test_zip_that_is_not_epub_is_binary() -> None:
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.txt", "hello")
    with pytest.raises(SourceError, match="ZIP archive") as caught:
        decode_bytes(buffer.getvalue(), "archive.txt")
    assert caught.value.key == "binary-file"


def test_utf8_fast_path_never_runs_detection(
    zh_simplified: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("charset-normalizer called on valid UTF-8")

    monkeypatch.setattr(decoding, "from_bytes", forbidden)
    assert decode_bytes(zh_simplified.encode(), "fast.txt").encoding == "utf-8"


def test_detection_sees_a_bounded_sample(
    zh_simplified: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[int] = []
    real = decoding.from_bytes

    def spy(sample: bytes) -> object:
        seen.append(len(sample))
        return real(sample)

    monkeypatch.setattr(decoding, "from_bytes", spy)
    data = (zh_simplified * 4000).encode("gbk")  # about 2.3 MB
    decoded = decode_bytes(data, "big-gbk.txt")
    assert decoded.encoding == "gb18030"
    assert decoded.text == zh_simplified * 4000
    assert seen and max(seen) <= decoding.SAMPLE_BYTES


def test_declared_charset_is_used_and_a_wrong_one_falls_back(zh_simplified: str) -> None:
    data = zh_simplified.encode("gbk")
    assert decode_declared(data, "GBK", "page.html").encoding == "gb18030"

    wrong = decode_declared(data, "utf-8", "page.html")  # the label lies
    assert wrong.text == zh_simplified
    assert wrong.encoding == "gb18030"
    assert any("declared charset 'utf-8'" in warning for warning in wrong.warnings)

    unknown = decode_declared(zh_simplified.encode(), "x-klingon", "page.html")
    assert unknown.text == zh_simplified
    assert any("unknown declared charset" in warning for warning in unknown.warnings)


def test_utf8_mislabelled_as_latin1_is_read_as_utf8(zh_simplified: str) -> None:
    decoded = decode_declared(zh_simplified.encode(), "ISO-8859-1", "page.html")
    assert decoded.text == zh_simplified
