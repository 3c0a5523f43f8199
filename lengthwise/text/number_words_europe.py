"""Number words of German, French, Spanish, Italian and Portuguese headings.

Registered with `lengthwise.text.numerals` (`register_number_words`) beside English, so
`parse_number("Erstes", "de")`, `parse_number("PREMIÈRE", "fr")` and
`parse_number("primero", "es")` read as the rest of the numerals do. Headings print
ordinals (`Erstes Kapitel`, `Zweiter Teil`, `DEUXIÈME PARTIE`, `Livre premier`,
`Capítulo primero`, `PARTE SEGUNDA`, `Capitolo terzo`) and now and then cardinals
(`Kapitel zwölf`); each reader takes both, 0..999, in any case and declension, and
returns None for anything else.
"""

from __future__ import annotations

import re
import unicodedata

from lengthwise.text.numerals import register_number_words

_SPLIT = re.compile(r"[\s\-]+")


def _plain(text: str) -> str:
    """Lowercase without accents (`PREMIÈRE` -> `premiere`, `Fünftes` -> `funftes`), ß as ss."""
    decomposed = unicodedata.normalize("NFD", text.strip().rstrip(".").lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("ß", "ss")


# German: compounds are written as one word (`einundzwanzig`, `hundertundzwei`).
_DE_CARDINALS = {
    "null": 0, "eins": 1, "ein": 1, "eine": 1, "zwei": 2, "drei": 3, "vier": 4, "funf": 5,
    "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwolf": 12,
    "dreizehn": 13, "vierzehn": 14, "funfzehn": 15, "sechzehn": 16, "siebzehn": 17,
    "achtzehn": 18, "neunzehn": 19, "zwanzig": 20, "dreissig": 30, "vierzig": 40,
    "funfzig": 50, "sechzig": 60, "siebzig": 70, "achtzig": 80, "neunzig": 90,
}  # fmt: skip
_DE_ORDINAL_STEMS = {"erst": 1, "dritt": 3, "siebt": 7, "acht": 8}
_DE_ENDINGS = ("en", "em", "er", "es", "e")


def _de_cardinal(word: str) -> int | None:
    if word in _DE_CARDINALS:
        return _DE_CARDINALS[word]
    for hundred in ("einhundert", "hundert"):
        if word.startswith(hundred):
            rest = word[len(hundred) :].removeprefix("und")
            low = _de_cardinal(rest) if rest else 0
            return None if low is None else 100 + low
    unit, und, tens = word.partition("und")
    if und and _DE_CARDINALS.get(unit, 10) < 10 and tens in _DE_CARDINALS:
        value = _DE_CARDINALS[tens]
        if value >= 20 and value % 10 == 0:
            return value + _DE_CARDINALS[unit]
    return None


def parse_german_number(text: str) -> int | None:
    """`Erstes`, `zweiter`, `Einundzwanzigste`, `DRITTES`, `zwölf` -> 1, 2, 21, 3, 12."""
    word = _plain(text)
    if not word.isalpha():
        return None
    cardinal = _de_cardinal(word)
    if cardinal is not None:
        return cardinal
    for ending in _DE_ENDINGS:
        if not word.endswith(ending):
            continue
        stem = word[: -len(ending)]
        if stem in _DE_ORDINAL_STEMS:
            return _DE_ORDINAL_STEMS[stem]
        # zweit -> zwei, zehnt -> zehn; zwanzigst -> zwanzig, hundertst -> hundert
        for cut in (1, 2):
            if stem[-cut:] in ("t", "st"):
                value = _de_cardinal(stem[:-cut])
                if value is not None and value > 0:
                    return value
    return None


# French: `dix-sept`, `vingt et un`, `soixante-dix`, `quatre-vingts`.
_FR_CARDINALS = {
    "zero": 0, "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6,
    "sept": 7, "huit": 8, "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "treize": 13,
    "quatorze": 14, "quinze": 15, "seize": 16, "vingt": 20, "vingts": 20, "trente": 30,
    "quarante": 40, "cinquante": 50, "soixante": 60,
}  # fmt: skip
_FR_ORDINALS = {"premier": 1, "premiere": 1, "second": 2, "seconde": 2}
# The cardinal an `-ième` stem comes from where it is not the stem itself.
_FR_STEMS = {"cinqu": "cinq", "neuv": "neuf", "un": "un"}


def _fr_cardinal(words: list[str]) -> int | None:
    words = [w for w in words if w != "et"]
    if not words:
        return None
    total = 0
    index = 0
    if words[0] == "cent" or (len(words) > 1 and words[1] in ("cent", "cents")):
        multiplier = 1 if words[0] == "cent" else _FR_CARDINALS.get(words[0])
        if multiplier is None or not 1 <= multiplier <= 9:
            return None
        total, index = multiplier * 100, (1 if words[0] == "cent" else 2)
    if words[index : index + 2] in (["quatre", "vingt"], ["quatre", "vingts"]):
        total, index = total + 80, index + 2
    for word in words[index:]:
        if word not in _FR_CARDINALS:
            return None
        total += _FR_CARDINALS[word]
    return total


def parse_french_number(text: str) -> int | None:
    """`PREMIÈRE`, `deuxième`, `vingt et unième`, `Dix-septième`, `trois` -> 1, 2, 21, 17, 3."""
    words = [w for w in _SPLIT.split(_plain(text)) if w]
    if not words or not all(w.isalpha() for w in words):
        return None
    if len(words) == 1 and words[0] in _FR_ORDINALS:
        return _FR_ORDINALS[words[0]]
    last = words[-1]
    if last.endswith("ieme"):
        stem = last[: -len("ieme")]
        stem = _FR_STEMS.get(stem, stem if stem in _FR_CARDINALS else stem + "e")
        words = [*words[:-1], stem]
    value = _fr_cardinal(words)
    return value if value is None or value < 1000 else None


# Spanish and Portuguese ordinals share their Latin stems; gender endings fold to -o.
_ES_UNITS = {
    "primero": 1, "primer": 1, "segundo": 2, "tercero": 3, "tercer": 3, "cuarto": 4,
    "quinto": 5, "sexto": 6, "septimo": 7, "setimo": 7, "octavo": 8, "noveno": 9, "nono": 9,
    "decimo": 10, "undecimo": 11, "duodecimo": 12,
    # Portuguese and Italian spellings of the same ordinals.
    "terceiro": 3, "quarto": 4, "oitavo": 8, "primo": 1, "secondo": 2,
    "terzo": 3, "sesto": 6, "settimo": 7, "ottavo": 8,
}  # fmt: skip
_ES_TENS = {
    "vigesimo": 20, "trigesimo": 30, "cuadragesimo": 40, "quincuagesimo": 50,
    "sexagesimo": 60, "septuagesimo": 70, "octogesimo": 80, "nonagesimo": 90,
    "centesimo": 100,
}  # fmt: skip
_ES_CARDINALS = {
    "uno": 1, "una": 1, "un": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6,
    "siete": 7, "ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13,
    "catorce": 14, "quince": 15, "dieciseis": 16, "diecisiete": 17, "dieciocho": 18,
    "diecinueve": 19, "veinte": 20, "treinta": 30, "cuarenta": 40, "cincuenta": 50,
    "sesenta": 60, "setenta": 70, "ochenta": 80, "noventa": 90, "cien": 100, "ciento": 100,
    # Italian cardinals up to twenty.
    "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7, "otto": 8,
    "nove": 9, "dieci": 10, "undici": 11, "dodici": 12, "venti": 20,
}  # fmt: skip
_ES_VEINTI = "veinti"


def _es_ordinal_word(word: str) -> int | None:
    """One ordinal word, compounds written together (`decimotercero`, `vigesimoprimero`)."""
    if word.endswith("a"):
        word = word[:-1] + "o"
    if word in _ES_UNITS:
        return _ES_UNITS[word]
    for tens, value in (*_ES_TENS.items(), ("decimo", 10)):
        if word.startswith(tens) and word != tens:
            unit = _ES_UNITS.get(word[len(tens) :])
            return None if unit is None or unit > 9 else value + unit
    return _ES_TENS.get(word)


def parse_spanish_number(text: str) -> int | None:
    """`primero`, `PRIMERA`, `décimo tercero`, `vigésimo primero`, `veintidós`, `treinta y
    uno` -> 1, 1, 13, 21, 22, 31 (Portuguese and Italian ordinals read the same way)."""
    words = [w for w in _SPLIT.split(_plain(text)) if w and w != "y"]
    if not words or not all(w.isalpha() for w in words):
        return None
    if all(_es_ordinal_word(w) is not None for w in words):
        values = [_es_ordinal_word(w) or 0 for w in words]
        if len(values) == 1 or (len(values) == 2 and values[0] % 10 == 0 and values[1] < 10):
            return sum(values)
        return None
    total = 0
    for word in words:
        if word.startswith(_ES_VEINTI) and word[len(_ES_VEINTI) :] in _ES_CARDINALS:
            total += 20 + _ES_CARDINALS[word[len(_ES_VEINTI) :]]
        elif word in _ES_CARDINALS:
            total += _ES_CARDINALS[word]
        else:
            return None
    return total


register_number_words("de", parse_german_number)
register_number_words("fr", parse_french_number)
register_number_words("es", parse_spanish_number)
register_number_words("pt", parse_spanish_number)
register_number_words("it", parse_spanish_number)
