"""The shared needle answers (`rules.occurs`) agree with a plain `in`, text after text."""

from __future__ import annotations

import random

from lengthwise.builders.cleaning.rules import contains_any, occurs

NEEDLES = (
    "www", "w", "com", "\u3000\n", " \n", "â€", "本书", "声明", "书", "|", "\x0c",
    "ab", "é", "€", "小说网", "\n\n\n\n",
)  # fmt: skip
ALPHABET = "abw.com |\n\u3000 本书声明小说网éâ€\x0c"


def _texts(seed: int) -> list[str]:
    """Chinese-heavy, ASCII and mixed texts, each derived from the one before (a rule's edit)."""
    chance = random.Random(seed)
    chinese = "这是一段中文，" * 500
    texts = [chinese, "plain ascii text\n" * 300, chinese + "x" * 50]
    for _ in range(30):
        base = chance.choice(texts)
        cut = chance.randrange(len(base) + 1)
        piece = "".join(chance.choice(ALPHABET) for _ in range(chance.randrange(1, 6)))
        texts.append(base[:cut] + piece + base[cut + chance.randrange(3) :])
    return texts


def test_occurs_answers_like_in_as_the_text_changes() -> None:
    for text in _texts(seed=7):
        for needle in NEEDLES:
            assert occurs(text, needle) == (needle in text), (needle, len(text))
            assert occurs(text, needle) == (needle in text)  # the remembered answer
        assert contains_any(text, NEEDLES) == any(needle in text for needle in NEEDLES)


def test_an_edit_that_removes_a_needle_is_seen() -> None:
    chinese = "这是一段中文" * 2000
    before = chinese + "本书www"
    assert occurs(before, "本书") and occurs(before, "www")
    after = before.replace("本书", "").replace("www", "ww")
    assert not occurs(after, "本书")
    assert not occurs(after, "www")
    assert occurs(before, "本书")  # back to the first text: answered afresh, still right
