"""Clusters of copies of one work, and which copy is kept.

Two books are linked when they are the same file (raw sha256), the same cleaned text (hash
of their chapter texts), near duplicates (estimated Jaccard similarity of the whole books at
or above ``near_threshold``, backed by at least two matching chapters unless the whole texts
are at least ``WHOLE_TEXT_SIMILARITY`` alike: books from one generator or with one
vocabulary overlap as bags of shingles without being one text) or partial duplicates (at
least ``partial_share`` of the smaller
book's chapters, and at least two, match chapters of the other: an edition with fewer
chapters), or editions of one work (the same chapter titles, or chapters aligned in order
far more alike than unrelated books: `editions.py`). Links are joined transitively into clusters.

The kept book of a cluster is the most complete, then the least noisy, then the smallest id:
most chapters, fewest chapters missing from the printed numbering, fewest undecodable bytes
and cleaning removals per character. Every figure reported for another member is measured
against the kept book directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from typing_extensions import TypedDict

from lengthwise.builders.duplicates.matching import ChapterMatches
from lengthwise.builders.duplicates.signatures import BookSignatures, jaccard

# A near-duplicate link without matching chapters needs the whole texts this alike.
WHOLE_TEXT_SIMILARITY = 0.95
KIND_ORDER = ("identical file", "identical text", "near duplicate", "partial duplicate", "edition")
MIN_MATCHED_CHAPTERS = 2


class MemberJson(TypedDict):
    """A copy in a cluster, as the build report lists it."""

    book_id: str
    title: str
    chapters: int
    kind: str
    similarity: float
    chapter_share: float
    matched_chapters: int
    dropped: bool
    reason: str


class ClusterJson(TypedDict):
    id: str
    kept: str  # the kept book's id
    members: list[MemberJson]  # the other copies


@dataclass(frozen=True)
class BookFacts:
    """What choosing and describing a copy needs about one book."""

    book_id: str
    title: str
    raw_sha256: str
    text_hash: str
    chapters: int
    missing_numbers: int
    noise_per_char: float

    def keep_rank(self) -> tuple[int, int, float, str]:
        return (-self.chapters, self.missing_numbers, self.noise_per_char, self.book_id)


@dataclass(frozen=True)
class Member:
    book_id: str
    title: str
    chapters: int
    kind: str  # one of KIND_ORDER, or "linked through <id>"
    similarity: float  # estimated Jaccard similarity with the kept book
    chapter_share: float  # share of the smaller book's chapters matching the other's
    matched_chapters: int

    def reason(self, kept: str) -> str:
        return (
            f"duplicate of {kept} (similarity {self.similarity:.2f}, "
            f"{self.matched_chapters} chapters match, {self.chapter_share:.0%} of the smaller "
            f"book; {self.kind})"
        )


@dataclass(frozen=True)
class Cluster:
    id: str  # the kept book's id
    kept: Member
    others: tuple[Member, ...]
    # chapter matches between members, for mapping chapter ranges across copies
    matches: dict[tuple[str, str], ChapterMatches] = field(default_factory=dict, compare=False)

    @property
    def book_ids(self) -> list[str]:
        return [self.kept.book_id, *(m.book_id for m in self.others)]

    def to_dict(self, dropped: bool) -> ClusterJson:
        return {
            "id": self.id,
            "kept": self.kept.book_id,
            "members": [
                {
                    "book_id": m.book_id,
                    "title": m.title,
                    "chapters": m.chapters,
                    "kind": m.kind,
                    "similarity": round(m.similarity, 3),
                    "chapter_share": round(m.chapter_share, 3),
                    "matched_chapters": m.matched_chapters,
                    "dropped": dropped,
                    "reason": m.reason(self.id),
                }
                for m in self.others
            ],
        }


def _chapter_share(
    a: BookFacts, b: BookFacts, matches: Mapping[tuple[str, str], ChapterMatches]
) -> tuple[float, int]:
    match = matches.get((min(a.book_id, b.book_id), max(a.book_id, b.book_id)))
    smaller = min((a, b), key=lambda f: (f.chapters, f.book_id))
    matched = len(match.matched(smaller.book_id)) if match else 0
    return (matched / smaller.chapters if smaller.chapters else 0.0), matched


def find_links(
    facts: Sequence[BookFacts],
    near: Mapping[tuple[str, str], float],
    matches: Mapping[tuple[str, str], ChapterMatches],
    partial_share: float,
    editions: Mapping[tuple[str, str], str] | None = None,
) -> dict[tuple[str, str], str]:
    """(a, b) with a < b -> the strongest kind of link between them (`editions`: pairs
    found as editions of one work, with their evidence as the kind)."""
    links: dict[tuple[str, str], str] = {}
    by_id = {f.book_id: f for f in facts}
    ordered = sorted(by_id)
    for key_name, kind in (("raw_sha256", "identical file"), ("text_hash", "identical text")):
        groups: dict[str, list[str]] = {}
        for book_id in ordered:
            groups.setdefault(getattr(by_id[book_id], key_name), []).append(book_id)
        for members in groups.values():
            for other in members[1:]:
                links.setdefault((members[0], other), kind)
    for pair, similarity in sorted(near.items()):
        # Whole-book shingle sets also overlap when two books share a style, a vocabulary
        # or a generator (the synthetic demo books reach 0.8-0.9 with no chapter alike):
        # copies of one text also have chapters that match, unless they are near-identical.
        _, matched = _chapter_share(by_id[pair[0]], by_id[pair[1]], matches)
        if matched >= MIN_MATCHED_CHAPTERS or similarity >= WHOLE_TEXT_SIMILARITY:
            links.setdefault(pair, "near duplicate")
    for pair in sorted(matches):
        share, matched = _chapter_share(by_id[pair[0]], by_id[pair[1]], matches)
        if share >= partial_share and matched >= MIN_MATCHED_CHAPTERS:
            links.setdefault(pair, "partial duplicate")
    for pair, evidence in sorted((editions or {}).items()):
        links.setdefault(pair, evidence)  # the weakest evidence: only where nothing else
    return links


def _components(ids: Sequence[str], links: Mapping[tuple[str, str], str]) -> list[list[str]]:
    parent = {i: i for i in ids}

    def root(i: str) -> str:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in sorted(links):
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list[str]] = {}
    for i in sorted(ids):
        groups.setdefault(root(i), []).append(i)
    return [g for g in groups.values() if len(g) > 1]


def build_clusters(
    facts: Sequence[BookFacts],
    signatures: Mapping[str, BookSignatures],
    links: Mapping[tuple[str, str], str],
    matches: Mapping[tuple[str, str], ChapterMatches],
) -> list[Cluster]:
    """Clusters sorted by kept book id; members measured against the kept book."""
    by_id = {f.book_id: f for f in facts}
    clusters = []
    for group in _components(list(by_id), links):
        kept = min((by_id[i] for i in group), key=BookFacts.keep_rank)
        others = []
        for book_id in sorted(i for i in group if i != kept.book_id):
            pair = (min(book_id, kept.book_id), max(book_id, kept.book_id))
            share, matched = _chapter_share(by_id[book_id], kept, matches)
            similarity = jaccard(signatures[book_id].book, signatures[kept.book_id].book)
            if links.get(pair) in ("identical file", "identical text"):
                similarity = 1.0
            kind = links.get(pair) or "linked through " + ", ".join(
                sorted(i for i in group if i not in pair)
            )
            facts_b = by_id[book_id]
            others.append(
                Member(book_id, facts_b.title, facts_b.chapters, kind, similarity, share, matched)
            )
        kept_member = Member(kept.book_id, kept.title, kept.chapters, "kept", 1.0, 1.0, 0)
        inside = {k: v for k, v in matches.items() if k[0] in group and k[1] in group}
        clusters.append(Cluster(kept.book_id, kept_member, tuple(others), inside))
    return sorted(clusters, key=lambda c: c.id)
