"""German, French and Spanish books by the generic path: their own heading words and
number words, parts and numbering that starts again in each part (issue 36).

The shapes are those of Gutenberg editions: `Erster Teil` over `Erstes Kapitel` …
restarting in every Teil; `PREMIÈRE PARTIE` over bare roman numerals, after a contents
list that repeats them; `Capítulo primero.` then `Capítulo II. Que trata de…` with the
summary wrapped onto the next line, starting again at primero in the second part, and
`capítulo` in lower case inside the prose.
"""

from __future__ import annotations

import pytest

from lengthwise.builders.chapters import detect_chapters
from lengthwise.builders.cleaning import clean_text
from lengthwise.spec import CleaningConfig
from lengthwise.text.numerals import parse_number

DE = "Die Familie saß im Landschaftszimmer, und draußen fiel der Regen auf die Straße. " * 8
FR = "Nous étions à l'Étude, quand le Proviseur entra, suivi d'un nouveau. " * 8
ES = "En un lugar de la Mancha, de cuyo nombre no quiero acordarme, vivía un hidalgo. " * 8
GERMAN_ORDINALS = ["Erstes", "Zweites", "Drittes", "Viertes", "Fünftes", "Sechstes"]


def test_german_teile_and_kapitel_with_ordinal_words_restarting_per_part() -> None:
    parts = ["Erster Teil", "Zweiter Teil", "Dritter Teil"]
    text = "".join(
        f"{part}\n\n" + "".join(f"{o} Kapitel\n\n{DE}\n\n" for o in GERMAN_ORDINALS[: 4 + i])
        for i, part in enumerate(parts)
    )
    result = detect_chapters(clean_text(text, "de", CleaningConfig()).text, "de")
    assert result.numbers == [1, 2, 3, 4, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6]
    assert [c.part for c in result.chapters][::5] == ["Erster Teil", "Zweiter Teil", "Dritter Teil"]


def test_french_parties_over_bare_roman_chapters_after_a_contents_list() -> None:
    counts = {"PREMIÈRE PARTIE": 4, "DEUXIÈME PARTIE": 5, "TROISIÈME PARTIE": 3}
    romans = ["I", "II", "III", "IV", "V"]
    contents = "Table des matières\n\n" + "".join(
        f"{part}\n\n" + "".join(f"{r}\n" for r in romans[:n]) + "\n" for part, n in counts.items()
    )
    body = "".join(
        f"{part}\n\n\n" + "".join(f"{r}\n\n{FR}\n\n" for r in romans[:n])
        for part, n in counts.items()
    )
    cleaned = clean_text("MADAME DUPONT\n\n" + contents + "\n\n" + body, "fr", CleaningConfig())
    result = detect_chapters(cleaned.text, "fr")
    assert result.numbers == [1, 2, 3, 4, 1, 2, 3, 4, 5, 1, 2, 3]
    assert {c.part for c in result.chapters} == set(counts)


def test_spanish_capitulos_written_out_wrapped_and_restarting_in_part_two() -> None:
    def part(title: str) -> str:
        chapters = [
            f"Capítulo primero. Que trata de la condición y ejercicio del famoso hidalgo don\n"
            f"Quijote de la Mancha\n\n{ES}\n\n"
        ]
        for roman in ("II", "III", "IV", "V"):
            chapters.append(
                f"Capítulo {roman}. Que trata de la primera salida que de su tierra hizo el\n"
                f"ingenioso don Quijote\n\n{ES} Como se dirá en el\ncapítulo siguiente, "
                f"volvió a su aldea.\n\n"
            )
        return f"{title}\n\n" + "".join(chapters)

    text = part("El ingenioso hidalgo don Quijote de la Mancha") + part(
        "Segunda parte del ingenioso caballero don Quijote de la Mancha"
    )
    result = detect_chapters(clean_text(text, "es", CleaningConfig()).text, "es")
    assert result.numbers == [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]
    assert result.chapters[0].title.startswith("Que trata de la condición")


@pytest.mark.parametrize(
    ("printed", "language", "value"),
    [
        ("Erstes", "de", 1), ("Elftes", "de", 11), ("Einundzwanzigster", "de", 21),
        ("PREMIÈRE", "fr", 1), ("Dix-septième", "fr", 17), ("vingt et unième", "fr", 21),
        ("primero", "es", 1), ("SEGUNDA", "es", 2), ("vigésimo primero", "es", 21),
        ("Capítulo", "es", None), ("Teil", "de", None),
    ],
)  # fmt: skip
def test_number_words_of_other_languages(printed: str, language: str, value: int | None) -> None:
    assert parse_number(printed, language) == value
