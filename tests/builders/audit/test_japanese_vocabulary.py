"""The audit reads Japanese samples with a Japanese table, not the English one (issue 36)."""

from __future__ import annotations

from pathlib import Path

from lengthwise.builders.audit.detectors.terms import term_matches
from lengthwise.builders.audit.vocabulary import profile_for
from lengthwise.builders.cleaning import clean_text
from lengthwise.builders.sources.local import read_local
from lengthwise.records import SourceDocument
from lengthwise.spec import AuditConfig, CleaningConfig

FIXTURE = Path(__file__).parents[2] / "fixtures" / "aozora" / "sanshiro_excerpt_sjis.txt"


def test_site_and_colophon_words_in_japanese_are_noise_and_the_novel_is_not() -> None:
    profile = profile_for("ja", AuditConfig())
    furniture = (
        "　三四郎は黙っていた。この作品は小説家になろうで無料で読めます。\n底本：「三四郎」角川文庫"
    )
    found = [furniture[start:end] for start, end, strong in term_matches(profile.site, furniture)]
    assert {"小説家になろう", "無料で読"} <= set(found)
    assert term_matches(profile.copyright, furniture)
    [doc] = [d for d in read_local(FIXTURE) if isinstance(d, SourceDocument)]
    novel = clean_text(doc.text, "ja", CleaningConfig()).text
    assert term_matches(profile.site, novel) == [] and term_matches(profile.copyright, novel) == []
