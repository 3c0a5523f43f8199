"""Raw bytes -> text: encoding detection, undecodable-byte accounting, newline normalisation.

Library: `charset-normalizer` detects legacy encodings (GBK/GB18030, Big5, cp1252, ...) on a
bounded sample (at most `SAMPLE_BYTES`): valid UTF-8, the common case, is settled by one strict
`bytes.decode` at C speed; detection over a whole 3 MB book would cost more than ingestion.

Order of decisions, cheapest first:
1. empty input, known binary signatures (PNG, ZIP, PDF, ...) -> `SourceError`;
2. a byte-order mark (UTF-8/16/32) decides;
3. NULs in the first block: BOM-less UTF-16/32 if they are evidence of it (`_wide_signature`)
   and one fits, else binary at 1% of the bytes; fewer are stray (replaced and counted);
4. strict UTF-8 over the whole input;
5. "UTF-8 with a few bad bytes": the failing region is mostly valid multi-byte UTF-8;
6. mostly-ASCII (Latin-script) text: the first of a few legacy codecs (cp1252 first) whose
   reading of the non-ASCII bytes is plausible (`plausibility`: Latin letters, typographic
   punctuation, CJK only in runs); failing that, UTF-8 with its bad bytes replaced, within an
   error budget of `UTF8_ERROR_BUDGET` of the bytes;
7. otherwise charset-normalizer on a sample that starts at the first non-ASCII byte, believed
   only when its reading is plausible (letters of one script group plus punctuation).
GBK-family results decode as GB18030 (its superset); Big5 tries cp950 and Big5-HKSCS when
plain Big5 leaves bytes undecodable. Undecodable bytes become U+FFFD, are counted, and produce a
warning naming the file; so do NUL characters (never text). Line ends are normalised to LF.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

from charset_normalizer import from_bytes

from lengthwise.builders.sources.errors import SourceError
from lengthwise.builders.sources.plausibility import (
    latin_reading,
    mostly_ascii,
    plausible_utf16_text,
    wide_reading,
)

SAMPLE_BYTES = 64 * 1024
_ASCII_CONTEXT = 4096  # bytes of leading ASCII kept in the detection sample
# Above this share of undecodable bytes the input is not text in the chosen encoding at all.
MAX_UNDECODABLE_SHARE = 0.2
# A NUL share this high in the first block means binary (unless it is UTF-16/32).
BINARY_NUL_SHARE = 0.01
# Fewer NULs than this (count, share of the first block) are stray ones in an 8-bit text
# (replaced and counted), never evidence of BOM-less UTF-16/32 (see `_wide_signature`).
WIDE_MIN_NULS, WIDE_MIN_NUL_SHARE = 2, 0.005
# Mostly-ASCII text no legacy codec reads plausibly is UTF-8 with bad bytes, up to this share.
UTF8_ERROR_BUDGET = 0.01
# Legacy codecs tried on mostly-ASCII text, in order of preference (ties go to the first):
# Western and Central European single-byte codecs, then CJK double-byte ones for names in
# Latin-script text.
_LATIN_CANDIDATES = ("cp1252", "cp1250", "cp1257", "cp1254", "gb18030", "big5", "cp932", "cp949")
_SINGLE_BYTE = {"cp1252", "cp1250", "cp1257", "cp1254"}

_BOMS: tuple[tuple[bytes, str], ...] = (
    # UTF-32 first: its LE BOM starts with the UTF-16 LE BOM.
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# Magic numbers of common non-text files, for a clear "why" in the error message.
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"PK\x05\x06", "ZIP archive"),
    (b"\x1f\x8b", "gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"Rar!\x1a\x07", "RAR archive"),
    (b"\xfd7zXZ\x00", "xz archive"),
    (b"\x28\xb5\x2f\xfd", "zstd archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "MS Office (OLE) document"),
    (b"\x7fELF", "ELF executable"),
    (b"SQLite format 3\x00", "SQLite database"),
)

_SINGLE_BYTE_LABELS = {"ascii", "latin-1", "iso8859-1", "cp1252"}
_GBK_FAMILY = {"gb2312", "gbk", "cp936", "gb18030"}
_BIG5_FAMILY = ("big5", "cp950", "big5hkscs")

# Undecodable bytes are marked with a lone surrogate (no valid input gives one): exact counts.
_MARK = "\udfff"
_ERROR_HANDLER = "lengthwise-mark-undecodable"


def _mark_undecodable(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    return _MARK * (error.end - error.start), error.end


codecs.register_error(_ERROR_HANDLER, _mark_undecodable)

_NON_ASCII = re.compile(rb"[\x80-\xff]")
# Bytes below 0x40 other than digits are never inside a GBK/GB18030, Big5 or Shift_JIS
# character (their trail bytes start at 0x40; GB18030's four-byte form uses digits).
_SAFE_CUT = re.compile(rb"[\x00-\x2f\x3a-\x3f]")


@dataclass
class DecodedText:
    """Text decoded from raw bytes, with what it cost."""

    text: str
    encoding: str  # Python codec name, e.g. "utf-8", "utf-8-sig", "gb18030", "utf-16-le"
    undecodable_bytes: int = 0
    warnings: list[str] = field(default_factory=list)


def is_epub_archive(data: bytes) -> bool:
    """True for a ZIP whose first entry is the EPUB `mimetype` file (OCF container rule)."""
    return data.startswith(b"PK\x03\x04") and b"application/epub+zip" in data[30:100]


def decode_bytes(data: bytes, name: str) -> DecodedText:
    """Decode a text file of unknown encoding; raise `SourceError` for empty or binary input.

    `name` (file path or URL) appears in every error and warning.
    """
    reject_non_text(data, name)
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _finish(data[len(bom) :], encoding, name, label=encoding)

    head = data[:SAMPLE_BYTES]
    nul_count = head.count(0)
    if nul_count:
        wide = _guess_utf16_or_32(head) if _wide_signature(head, nul_count) else None
        if wide is not None:
            return _finish(data, wide, name)
        if nul_count >= BINARY_NUL_SHARE * len(head):
            raise SourceError(
                name,
                f"binary file ({nul_count} NUL bytes in the first {len(head)} bytes)",
                key="binary-file",
            )

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return _finish_text(text, "utf-8", 0, name)

    sample = _evidence_sample(data)
    if _mostly_utf8(sample):
        return _finish(data, "utf-8", name)
    if mostly_ascii(sample):
        return _decode_mostly_ascii(data, sample, name)
    return _finish(data, _detect(sample, name), name)


def _decode_mostly_ascii(data: bytes, sample: bytes, name: str) -> DecodedText:
    """The most plausible legacy reading of Latin-script text, else UTF-8 within its budget."""
    best, best_share = "", 0.0
    for encoding in _LATIN_CANDIDATES:
        reading = latin_reading(_decode_marked(sample, encoding)[0], encoding in _SINGLE_BYTE)
        if reading.believable and reading.share > best_share:
            best, best_share = encoding, reading.share
    if best:
        return _finish(data, best, name)
    text, bad = _decode_marked(data, "utf-8")
    if bad > UTF8_ERROR_BUDGET * len(data):
        raise SourceError(
            name,
            f"binary file (no text encoding fits: {bad} of {len(data)} bytes are not UTF-8 "
            "and no legacy encoding reads them as text)",
            key="binary-file",
        )
    return _finish_text(text, "utf-8", bad, name)


def decode_declared(data: bytes, declared: str, name: str) -> DecodedText:
    """Decode with an encoding the source declared (HTTP charset, HTML meta, XML declaration).

    Declarations are often wrong: an unknown label, or one under which more than 1% of the bytes
    are undecodable, falls back to detection with a warning.
    """
    reject_non_text(data, name)
    try:
        encoding = _canonical(declared)
    except LookupError:
        decoded = decode_bytes(data, name)
        decoded.warnings.insert(0, f"{name}: unknown declared charset {declared!r}; detected")
        return decoded
    if encoding in ("utf-16", "utf-32") or any(data.startswith(bom) for bom, _ in _BOMS):
        return decode_bytes(data, name)  # the byte-order mark is more reliable than the label
    head = data[:SAMPLE_BYTES]
    if head.count(0) >= BINARY_NUL_SHARE * len(head) and not encoding.startswith("utf-"):
        return decode_bytes(data, name)  # NUL-heavy: UTF-16/32 under a wrong label, or binary
    if encoding in _SINGLE_BYTE_LABELS and _is_utf8_with_non_ascii(data):
        # A very common mislabel: pages saved as UTF-8 under a Latin-1/ASCII declaration.
        decoded = decode_bytes(data, name)
        decoded.warnings.insert(0, f"{name}: declared charset {declared!r}, but content is UTF-8")
        return decoded
    text, bad = _decode_marked(data, encoding)
    if bad > 0.01 * len(data):
        decoded = decode_bytes(data, name)
        decoded.warnings.insert(
            0,
            f"{name}: declared charset {declared!r} leaves {bad} bytes undecodable; "
            f"detected {decoded.encoding} instead",
        )
        return decoded
    return _finish_text(text, encoding, bad, name)


def reject_non_text(data: bytes, name: str) -> None:
    """Raise `SourceError` for empty input or a recognised binary format."""
    if not data:
        raise SourceError(name, "empty file", key="empty-file")
    if is_epub_archive(data):
        raise SourceError(name, "EPUB archive, not plain text", key="binary-file")
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            raise SourceError(name, f"binary file ({kind})", key="binary-file")


def _canonical(encoding: str) -> str:
    """Python's codec name for a label; GBK-family labels become GB18030 (a strict superset)."""
    canonical = codecs.lookup(encoding.strip().lower().replace("_", "-")).name
    return "gb18030" if canonical in _GBK_FAMILY else canonical


def _is_utf8_with_non_ascii(data: bytes) -> bool:
    if not _NON_ASCII.search(data):
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _decode_marked(data: bytes, encoding: str) -> tuple[str, int]:
    """Decode, replacing each undecodable byte with U+FFFD; return text and that count."""
    text = data.decode(encoding, errors=_ERROR_HANDLER)
    bad = text.count(_MARK)
    if bad:
        text = text.replace(_MARK, "\ufffd")
    return text, bad


def _finish(data: bytes, encoding: str, name: str, label: str | None = None) -> DecodedText:
    if encoding == "big5":
        encoding = _best_big5(data)
    text, bad = _decode_marked(data, encoding)
    if data and bad > MAX_UNDECODABLE_SHARE * len(data):
        raise SourceError(
            name,
            f"not text: {bad} of {len(data)} bytes are undecodable as {encoding}",
            key="binary-file",
        )
    return _finish_text(text, label or encoding, bad, name)


def _finish_text(text: str, encoding: str, bad: int, name: str) -> DecodedText:
    # CRLF first, then lone CR (old Mac files), so "\r\n" never becomes two line breaks.
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            text = text.replace("\r", "\n")
    # `isspace`, not `strip()`: no copy of a multi-megabyte text to test it.
    if not text or text.isspace():
        raise SourceError(name, "empty file (only whitespace)", key="empty-file")
    # A NUL is never text: a stray one is a corrupt byte, replaced and counted like the rest.
    nuls = text.count("\x00")
    if nuls:
        text = text.replace("\x00", "\ufffd")
        bad += nuls
    among = f" ({nuls} of them NUL)" if nuls else ""
    warnings = (
        [f"{name}: {bad} undecodable byte(s){among} replaced with U+FFFD (decoded as {encoding})"]
        if bad
        else []
    )
    return DecodedText(text=text, encoding=encoding, undecodable_bytes=bad, warnings=warnings)


def _best_big5(data: bytes) -> str:
    """Plain Big5 unless a vendor extension (cp950, HKSCS) decodes the input with fewer errors."""
    best, best_bad = "big5", -1
    for candidate in _BIG5_FAMILY:
        bad = _decode_marked(data, candidate)[1]
        if bad == 0:
            return candidate
        if best_bad < 0 or bad < best_bad:
            best, best_bad = candidate, bad
    return best


def _wide_signature(head: bytes, nul_count: int) -> bool:
    """`head`'s NULs are evidence of BOM-less UTF-16/32: many, and (below the binary share) in
    a block that does not read as UTF-8 (UTF-16/32 text never does: most bytes are invalid)."""
    if nul_count < max(WIDE_MIN_NULS, WIDE_MIN_NUL_SHARE * len(head)):
        return False
    if nul_count < BINARY_NUL_SHARE * len(head):
        # Incremental: a character cut at the block's end is no error.
        text = codecs.getincrementaldecoder("utf-8")(_ERROR_HANDLER).decode(head, final=False)
        return text.count(_MARK) > UTF8_ERROR_BUDGET * len(head)
    return True


def _guess_utf16_or_32(head: bytes) -> str | None:
    """A BOM-less UTF-16/32 encoding that decodes `head` into plausible text, if any."""
    even_nuls = head[0::2].count(0)
    odd_nuls = head[1::2].count(0)
    # ASCII-range characters put their zero byte on one side: odd offsets for little endian.
    order = ("le", "be") if odd_nuls >= even_nuls else ("be", "le")
    candidates = [f"utf-32-{o}" for o in order] + [f"utf-16-{o}" for o in order]
    for encoding in candidates:
        unit = 4 if "32" in encoding else 2
        chunk = head[: len(head) - len(head) % unit]
        text, bad = _decode_marked(chunk, encoding)
        if bad <= len(chunk) * 0.001 and plausible_utf16_text(text):
            return encoding
    return None


def _evidence_sample(data: bytes) -> bytes:
    """Up to SAMPLE_BYTES from just before the first non-ASCII byte, cut after a line break.

    A long ASCII prefix says nothing about the encoding, so the sample starts a little before
    the first non-ASCII byte (any start inside pure ASCII is a character boundary); a cut after
    b"\\n" never splits a character in UTF-8, GBK/GB18030, Big5 or Shift_JIS. Files without line
    breaks are cut after another byte no multi-byte character contains (`_SAFE_CUT`).
    """
    found = _NON_ASCII.search(data)
    start = max(0, found.start() - _ASCII_CONTEXT) if found else 0
    sample = data[start : start + SAMPLE_BYTES]
    if start + SAMPLE_BYTES < len(data):
        cut = sample.rfind(b"\n")
        if cut <= 0:
            last = list(_SAFE_CUT.finditer(sample[-4096:]))
            cut = len(sample) - 4096 + last[-1].start() if last else -1
        if cut > 0:
            sample = sample[: cut + 1]
    return sample


def _mostly_utf8(sample: bytes) -> bool:
    """UTF-8 text with a few corrupt bytes: valid non-ASCII characters far outnumber bad bytes.

    Legacy CJK encodings decoded as UTF-8 fail on most of their byte pairs, and single-byte
    encodings (cp1252) form almost no valid multi-byte sequences, so both stay below the bar.
    """
    text, bad = _decode_marked(sample, "utf-8")
    valid_non_ascii = sum(1 for char in text if char > "\x7f") - bad
    return valid_non_ascii > 0 and valid_non_ascii >= 10 * bad


def _detect(sample: bytes, name: str) -> str:
    encoding = _detect_tolerant(sample, depth=0)
    if encoding is None:
        raise SourceError(
            name,
            f"binary file (no text encoding fits its first {len(sample)} bytes)",
            key="binary-file",
        )
    encoding = _canonical(encoding)
    reading = wide_reading(_decode_marked(sample, encoding)[0])
    if not reading.believable:
        raise SourceError(
            name,
            f"binary file (as {encoding}, {reading.implausible} of "
            f"{reading.plausible + reading.implausible} non-ASCII characters are not text)",
            key="binary-file",
        )
    return encoding


def _detect_tolerant(sample: bytes, depth: int) -> str | None:
    """charset-normalizer rejects every encoding under which a sample has a single bad byte, so
    on failure retry each line-aligned half (a few corrupt bytes rarely spoil both halves)."""
    # A sample cut inside a multi-byte character fails every codec: retry without its tail.
    for trim in (0, 1, 2, 3) if depth == 0 else (0,):
        best = from_bytes(sample[: len(sample) - trim]).best()
        if best is not None:
            return str(best.encoding)
    if depth >= 3 or len(sample) < 512:
        return None
    cut = sample.rfind(b"\n", 0, len(sample) // 2) + 1 or sample.find(b"\n", len(sample) // 2) + 1
    if cut <= 0 or cut >= len(sample):
        return None
    halves = sorted((sample[:cut], sample[cut:]), key=len, reverse=True)
    for half in halves:
        found = _detect_tolerant(half, depth + 1)
        if found is not None:
            return found
    return None
