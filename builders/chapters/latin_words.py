"""Chapter and part words of other Latin-script languages, as heading candidates.

English headings are `candidates_en`'s. A German, French, Spanish, Italian, Portuguese
or Dutch book prints its own words around the same numbers:

    Erstes Kapitel / Kapitel 12 / Zweiter Teil / Drittes Buch      (de)
    CHAPITRE XII / Chapitre premier / DEUXIÈME PARTIE / Livre premier--La guerre   (fr)
    Capítulo primero. / Capítulo II. Que trata de… / PRIMERA PARTE / Libro segundo (es)

Either the keyword comes first and a number follows (digits, roman, or the language's
number words: `lengthwise.text.number_words_europe`), or an ordinal comes first and the
keyword closes the line. The keyword is capitalised (`capítulo` in lower case is a word
of the prose); what follows the number is a title or nothing, never a sentence going on
in lower case. The candidates join the English finder's (bare `IV` lines, `PROLOGUE`),
so the levels, sequence checks and restarts per part are the ones English books get.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from lengthwise.builders.chapters.candidates_en import find_en_candidates
from lengthwise.builders.chapters.heading_words import HS, MAX_WRAPPED_TITLE_CHARS
from lengthwise.builders.chapters.layout import Layout
from lengthwise.builders.chapters.model import Candidate, ChapterKind, HeadingLevel
from lengthwise.builders.chapters.next_line_titles import title_after
from lengthwise.builders.language import HEADING_WORD_LANGUAGES, is_cjk
from lengthwise.text import number_words_europe  # noqa: F401  (registers de/fr/es/it/pt)
from lengthwise.text.numerals import parse_number, parse_roman

# language -> (chapter words, part words, special words with their kind)
_WORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...], dict[str, ChapterKind]]] = {
    "de": (("Kapitel",), ("Teil", "Buch", "Band"), {"Prolog": "prologue", "Epilog": "epilogue",
                                                     "Nachwort": "afterword"}),
    "fr": (("Chapitre",), ("Partie", "Livre", "Tome"), {"Prologue": "prologue",
                                                        "Épilogue": "epilogue"}),
    "es": (("Capítulo", "Capitulo"), ("Parte", "Libro", "Tomo"), {"Prólogo": "prologue",
                                                                   "Epílogo": "epilogue"}),
    "it": (("Capitolo",), ("Parte", "Libro"), {"Prologo": "prologue", "Epilogo": "epilogue"}),
    "pt": (("Capítulo",), ("Parte", "Livro"), {"Prólogo": "prologue", "Epílogo": "epilogue"}),
    "nl": (("Hoofdstuk",), ("Deel", "Boek"), {"Proloog": "prologue", "Epiloog": "epilogue"}),
    "ru": (("Глава",), ("Часть", "Книга", "Том"), {"Пролог": "prologue", "Эпилог": "epilogue"}),
}  # fmt: skip
if set(_WORDS) != set(HEADING_WORD_LANGUAGES):
    raise AssertionError("language.HEADING_WORD_LANGUAGES must list the languages of _WORDS")


def _plain(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", word.upper())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# language -> plain keyword (`CAPITULO`) -> its level and the kind of chapter it heads
_LEVELS: dict[str, dict[str, tuple[HeadingLevel, ChapterKind]]] = {
    language: {
        **{_plain(w): ("chapter", "chapter") for w in chapter},
        **{_plain(w): ("part", "chapter") for w in part},
        **{_plain(w): ("special", kind) for w, kind in special.items()},
    }
    for language, (chapter, part, special) in _WORDS.items()
}
MAX_HEADING_LINE = MAX_WRAPPED_TITLE_CHARS  # a heading with its title wrapped and joined
_MAX_ORDINAL_WORDS = 3
_SEPARATORS = ".:;,—–-"
_NUMBER_TOKEN = re.compile(rf"{HS}+(?P<num>[0-9]{{1,4}}|\w+(?:-\w+)*)(?P<rest>.*)$")


def latin_finder(language: str) -> Callable[[str], list[Candidate]]:
    """The heading finder for a book in `language`: English's alone for en (and as the
    fallback of CJK books), with the language's own words added for the others (every
    known language's words for a language without a table)."""
    if language == "en" or is_cjk(language):
        return find_en_candidates
    languages = [language] if language in _WORDS else list(_WORDS)

    def find(text: str) -> list[Candidate]:
        layout = Layout.of(text)
        found = find_en_candidates(text, layout)
        taken = {c.start for c in found}
        for language_code in languages:
            for candidate in find_word_candidates(text, language_code, layout):
                if candidate.start not in taken:
                    taken.add(candidate.start)
                    found.append(candidate)
        found.sort(key=lambda c: c.start)
        return found

    return find


def find_word_candidates(text: str, language: str, layout: Layout | None = None) -> list[Candidate]:
    """Headings printed with `language`'s chapter, part and special words, in text order."""
    chapter_words, part_words, special_words = _WORDS[language]
    levels = _LEVELS[language]
    words = sorted({f for w in (*chapter_words, *part_words, *special_words)
                    for f in (w, w.upper())}, key=len, reverse=True)  # fmt: skip
    keyword = re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, words))})(?!\w)")
    layout = layout or Layout.of(text)
    found: list[Candidate] = []
    seen_lines: set[int] = set()
    for hit in keyword.finditer(text):
        line_start = text.rfind("\n", 0, hit.start()) + 1
        if line_start in seen_lines:
            continue
        line_end = text.find("\n", hit.end())
        line_end = len(text) if line_end < 0 else line_end
        line = text[line_start:line_end]
        if len(line) > MAX_HEADING_LINE:
            continue
        indent = len(line) - len(line.lstrip())
        family = _plain(hit.group())
        level, kind = levels[family]
        parsed = _read_line(
            line[indent:], hit.start() - line_start - indent, hit.group(), language, level
        )
        if parsed is None:
            continue
        seen_lines.add(line_start)
        number, title = parsed
        start = line_start + indent
        candidate = Candidate(
            start=start,
            end=line_end,
            level=level,
            family=family,
            number=number if level != "special" else None,
            heading=line.strip(),
            title=title,
            kind=kind,
            strong=_follows_blank_line(text, line_start),
        )
        if not candidate.strong and not layout.blank_line_paragraphs:
            candidate.strong = layout.ends_paragraph(text, start)
        if not title and level != "part":
            below = title_after(text, line_end)
            if below is not None:
                candidate.own_line_end = line_end
                candidate.title, candidate.end = below[0].strip(), below[1]
        found.append(candidate)
    return found


def _read_line(
    line: str, at: int, keyword: str, language: str, level: HeadingLevel
) -> tuple[int | None, str] | None:
    """(number, title) of a heading line whose keyword starts at `at`, else None."""
    if at == 0:
        after = line[len(keyword) :]
        if level == "special":
            return (None, _title(after)) if _rest_is_heading(after) else None
        token = _NUMBER_TOKEN.match(after)
        if token is None:
            return None
        number = _number(token.group("num"), language)
        if number is None or not _rest_is_heading(token.group("rest")):
            return None
        return number, _title(token.group("rest"))
    # An ordinal before the keyword, which closes the line (`Erstes Kapitel`, `PRIMERA PARTE`).
    before, after = line[:at].strip(), line[at + len(keyword) :]
    if level == "special" or not before[:1].isupper() or after.strip(" \t" + _SEPARATORS):
        return None
    if len(before.split()) > _MAX_ORDINAL_WORDS:
        return None
    number = parse_number(before, language)
    return None if number is None else (number, "")


def _number(token: str, language: str) -> int | None:
    if token.isdigit():
        return int(token)
    roman = parse_roman(token)
    if roman is not None:
        return roman if token.isupper() else None  # `vi` or `mix` in prose is a word
    return parse_number(token, language)


def _rest_is_heading(rest: str) -> bool:
    """What follows the number: nothing, a separator and a title, or a capitalised title."""
    stripped = rest.strip()
    if not stripped:
        return True
    if stripped[0] in _SEPARATORS:
        return True
    return rest[0].isspace() and not stripped[0].islower()


def _title(rest: str) -> str:
    return rest.strip().lstrip(_SEPARATORS).strip().rstrip(".").strip()


def _follows_blank_line(text: str, line_start: int) -> bool:
    if line_start == 0:
        return True
    previous_start = text.rfind("\n", 0, line_start - 1) + 1
    return not text[previous_start : line_start - 1].strip()


_ALL_WORDS = sorted(
    {f for chapter, part, special in _WORDS.values() for w in (*chapter, *part, *special)
     for f in (w, w.upper())},
    key=len,
    reverse=True,
)  # fmt: skip
_ANY_KEYWORD = re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, _ALL_WORDS))})(?!\w)")


def is_word_heading_line(line: str) -> bool:
    """Whether one line is a heading in one of these languages' words (`Erstes Kapitel`,
    `CHAPITRE XII`, `Capítulo primero.`): cleaning keeps such lines apart from prose
    (`cleaning/structure_lines`) as it does English and Chinese headings."""
    if len(line) > MAX_HEADING_LINE:
        return False
    hit = _ANY_KEYWORD.search(line)
    if hit is None:
        return False
    stripped = line.strip()
    at = hit.start() - (len(line) - len(line.lstrip()))
    family = _plain(hit.group())
    for language, levels in _LEVELS.items():
        level = levels.get(family)
        if level is not None and _read_line(stripped, at, hit.group(), language, level[0]):
            return True
    return False
