"""Web addresses in text: URLs, www addresses, bare domain names and e-mail addresses.

Full-width Latin letters and dots (ｗｗｗ．ｘｘ．ｃｏｍ) and the ideographic full stop used as
a dot (www。xx。com) are how Chinese sites slip addresses past filters: they count too.
Shared by cleaning (evidence that a recurring fragment is site furniture) and the
residual-noise audit (the `url` class).
"""

from __future__ import annotations

import re

# Full-width ASCII (U+FF01..U+FF5E) -> ASCII, one character for one: offsets are kept.
FULLWIDTH_TO_ASCII = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_DOT = r"[.。]"
_TLDS = "com|net|org|cn|cc|info|biz|tv|io|top|xyz|vip|edu|gov|uk|tw|hk|jp|de|fr|ru|club|online"
URL = re.compile(
    r"(?:https?|ftp)://[^\s<>\"'，。、）)]+"
    rf"|www\s?{_DOT}\s?[a-z0-9-]+(?:{_DOT}[a-z0-9-]+)*"
    rf"|[\w.+-]+@[a-z0-9-]+(?:{_DOT}[a-z0-9-]+)+"
    rf"|(?<![\w.@/-])[a-z0-9][a-z0-9-]*(?:{_DOT}[a-z0-9-]+)*{_DOT}(?:{_TLDS})(?![a-z0-9-])",
    re.IGNORECASE,
)
# Cheap pre-checks (the full pattern tries every word start of a book-length text): an
# address needs one of these, and full-width letters or digits need translating first.
MAY_HOLD_ADDRESS = re.compile(rf"://|www|@|{_DOT}\s?(?:{_TLDS})(?![a-z0-9-])", re.IGNORECASE)
_FULLWIDTH_ALNUM = re.compile(r"[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")


def needs_translation(text: str) -> bool:
    """Whether the text has full-width letters or digits (then every full-width
    character, dots included, is read as its ASCII counterpart)."""
    return _FULLWIDTH_ALNUM.search(text) is not None


def url_spans(text: str, translate: bool) -> list[tuple[int, int]]:
    """(start, end) of every address; offsets hold for `text` (translation is 1:1)."""
    normalised = text.translate(FULLWIDTH_TO_ASCII) if translate else text
    if not MAY_HOLD_ADDRESS.search(normalised):
        return []
    return [
        (match.start(), match.end())
        for match in URL.finditer(normalised)
        if not _is_domain_in_prose(match.group())
    ]


def first_address(text: str) -> tuple[int, int] | None:
    """The first web address in `text` (full-width forms included), or None."""
    spans = url_spans(text, needs_translation(text))
    return spans[0] if spans else None


def _is_domain_in_prose(found: str) -> bool:
    """`said he.Top` is prose with a missing space, not a domain: a capitalised word after
    the dot. Sites also print their domain in capitals to slip past filters
    (`Ｍ．ＹＥＤＵ．ＣＣ`, `m.yedu.CC`): a top-level part in capitals is an address."""
    if "://" in found or "@" in found or found.lower().startswith("www"):
        return False
    top = re.split(r"[.。]", found)[-1]
    return found != found.lower() and not (len(top) > 1 and top.isupper())
