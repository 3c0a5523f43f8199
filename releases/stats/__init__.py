"""Dataset statistics: information coverage, uniformity, compression, extractive
coverage and density, novel n-grams, redundancy (`lengthwise stats`).

Contract: `uniformity(source, summary, lang)`, `fragment_coverage_density(source,
summary, lang)` and `compression_ratio(source, summary, lang)` take plain texts and a
language code ("zh" or "en").
"""

from lengthwise.releases.stats.compression import compression_ratio, sentence_compression_ratio
from lengthwise.releases.stats.fragments import (
    Fragment,
    fragment_coverage_density,
    greedy_fragments,
    greedy_fragments_reference,
)
from lengthwise.releases.stats.information_coverage import (
    ICSample,
    information_coverage,
    pick_samples,
)
from lengthwise.releases.stats.ngrams import novel_ngram_shares
from lengthwise.releases.stats.redundancy import redundancy
from lengthwise.releases.stats.uniformity import DocumentFrequencies, uniformity

__all__ = [
    "DocumentFrequencies",
    "Fragment",
    "ICSample",
    "compression_ratio",
    "fragment_coverage_density",
    "greedy_fragments",
    "greedy_fragments_reference",
    "information_coverage",
    "novel_ngram_shares",
    "pick_samples",
    "redundancy",
    "sentence_compression_ratio",
    "uniformity",
]
