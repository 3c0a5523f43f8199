"""With ``keep = "all"``: copies of one work stay, but their samples never overlap.

Two samples of books in one cluster overlap when a chapter of one matches (``ChapterMatches``)
a chapter inside the other's range. Selection runs as usual; for every overlapping pair in a
subset, the sample of the lower-ranked copy (the kept book ranks first, then by id) leaves
the candidates and selection runs again, until no two selected samples overlap. Each round
removes at least one candidate, so this ends; removed candidates are reported per subset.
Copies linked without any matching chapter (only through a third book) cannot be mapped and
are not checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations

from lengthwise.builders.duplicates.clusters import Cluster
from lengthwise.builders.sampling import CandidateSet, ChapterRun, Selection
from lengthwise.builders.sampling.runs import DroppedRunJson

Select = Callable[[dict[str, CandidateSet]], dict[str, Selection]]


class CopyMap:
    """Which books are copies of which, and how their chapters correspond."""

    def __init__(self, clusters: Sequence[Cluster]) -> None:
        self._cluster: dict[str, Cluster] = {}
        self._rank: dict[str, int] = {}
        for cluster in clusters:
            for rank, book_id in enumerate(cluster.book_ids):
                self._cluster[book_id] = cluster
                self._rank[book_id] = rank

    def __bool__(self) -> bool:
        return bool(self._cluster)

    def overlap(self, x: ChapterRun, y: ChapterRun) -> bool:
        cluster = self._cluster.get(x.book_id)
        if cluster is None or x.book_id == y.book_id or self._cluster.get(y.book_id) is not cluster:
            return False
        match = cluster.matches.get((min(x.book_id, y.book_id), max(x.book_id, y.book_id)))
        if match is None:
            return False
        return any(y.first <= j <= y.last for j in match.mapped(x.book_id, x.first, x.last))

    def losers(self, runs: Sequence[ChapterRun]) -> list[tuple[ChapterRun, ChapterRun]]:
        """(removed run, the run it overlaps) for every overlapping pair in ``runs``."""
        in_clusters = sorted(
            (r for r in runs if r.book_id in self._cluster), key=lambda r: (r.book_id, r.first)
        )
        found: dict[str, tuple[ChapterRun, ChapterRun]] = {}
        for x, y in combinations(in_clusters, 2):
            if self.overlap(x, y):
                keep, drop = sorted((x, y), key=lambda r: (self._rank[r.book_id], r.book_id))
                found.setdefault(drop.id, (drop, keep))
        return [found[k] for k in sorted(found)]


def select_avoiding_copies(
    candidate_sets: dict[str, CandidateSet], select: Select, copies: CopyMap
) -> tuple[dict[str, Selection], dict[str, list[DroppedRunJson]]]:
    """``select(candidate_sets)``, repeated without overlapping copies (see the module doc)."""
    sets = dict(candidate_sets)
    refused: dict[str, list[DroppedRunJson]] = {name: [] for name in sets}
    while True:
        selections = select(sets)
        changed = False
        for name, selection in selections.items():
            pairs = copies.losers(selection.samples)
            if not pairs:
                continue
            removed = {drop.id for drop, _ in pairs}
            sets[name] = replace(
                sets[name], runs=tuple(r for r in sets[name].runs if r.id not in removed)
            )
            refused[name] += [
                drop.dropped(f"overlaps {keep.id}, a copy of the same work") for drop, keep in pairs
            ]
            changed = True
        if not changed:
            return selections, refused
