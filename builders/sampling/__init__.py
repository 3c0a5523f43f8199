"""Multi-scale sampling (CNNSum section 3.2): chapter windows per length subset, balanced
selection, length tables, and packed training data.

Typical use by the build step::

    sets = build_candidates(books, spec.subsets, spec.sampling)
    selections = (
        select_nested(sets, spec.seed, spec.sampling.q1_min_ratio)
        if spec.sampling.nested
        else {n: select_samples(cs.runs, cs.subset, spec.seed, spec.sampling.q1_min_ratio)
              for n, cs in sets.items()}
    )
    report = {n: summarize_subset(selections[n], sets[n]).to_json() for n in sets}
"""

from lengthwise.builders.sampling.candidates import (
    CandidateSet,
    build_candidates,
    candidates_for_subset,
    nested_candidates,
    recheck_near_bounds,
)
from lengthwise.builders.sampling.length_tables import (
    LengthRow,
    length_table,
    length_table_markdown,
)
from lengthwise.builders.sampling.runs import BookLengths, ChapterRun, run_id
from lengthwise.builders.sampling.selection import (
    Selection,
    select_nested,
    select_samples,
    stable_seed,
)
from lengthwise.builders.sampling.stats import LengthDistribution, length_distribution, quantile
from lengthwise.builders.sampling.summary import SubsetSummary, summarize_subset
from lengthwise.builders.sampling.training import (
    DroppedPair,
    PackedSample,
    PackingResult,
    pack_pairs,
)
from lengthwise.builders.sampling.windows import (
    NestedWindow,
    Policy,
    closest_windows,
    first_fit_windows,
    nested_windows,
    policy_windows,
)

__all__ = [
    "BookLengths",
    "CandidateSet",
    "ChapterRun",
    "DroppedPair",
    "LengthDistribution",
    "LengthRow",
    "NestedWindow",
    "PackedSample",
    "PackingResult",
    "Policy",
    "Selection",
    "SubsetSummary",
    "build_candidates",
    "candidates_for_subset",
    "closest_windows",
    "first_fit_windows",
    "length_distribution",
    "length_table",
    "length_table_markdown",
    "nested_candidates",
    "nested_windows",
    "pack_pairs",
    "policy_windows",
    "quantile",
    "recheck_near_bounds",
    "run_id",
    "select_nested",
    "select_samples",
    "stable_seed",
    "summarize_subset",
]
