"""Merging per-chunk character names into one list: one canonical name per person.

Names are compared after normalising case and width (NFKC, casefold, inner whitespace
collapsed, surrounding quotes and punctuation removed), so "ALICE", "Alice" and
"Ａｌｉｃｅ" are one name; the first spelling met in reading order is kept. Aliases are
merged only where the drafting model says so (`alias_groups`): a group lists names of
one person, its first member (the fullest name, as the prompt asks) is the canonical
one. A group member that is not in the merged list, or that an earlier group already
took, is ignored and counted.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

_SPACES = re.compile(r"\s+")
_EDGE_PUNCTUATION = "\"'“”‘’「」『』《》()（）[]【】,，.。:：;；!！?？-—·•*"


def name_key(name: str) -> str:
    """The comparison key of a name (see module docstring)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return _SPACES.sub(" ", folded).strip().strip(_EDGE_PUNCTUATION).strip()


def merge_names(per_chunk: Iterable[Sequence[str]]) -> list[str]:
    """Every name once (by `name_key`), first spelling first, in order of first mention."""
    seen: dict[str, str] = {}
    for names in per_chunk:
        for name in names:
            key = name_key(name)
            if key and key not in seen:
                seen[key] = name.strip()
    return list(seen.values())


@dataclass(frozen=True)
class PersonNames:
    """The merged names grouped by person: `canonical` first, then its aliases."""

    people: list[list[str]]
    ignored_alias_names: int = 0  # group members not in the list, or already grouped
    notes: list[str] = field(default_factory=list)

    @property
    def canonical(self) -> list[str]:
        return [group[0] for group in self.people]

    @property
    def alias_groups(self) -> list[list[str]]:
        return [group for group in self.people if len(group) > 1]


def group_people(names: Sequence[str], groups: Sequence[Sequence[str]]) -> PersonNames:
    """`names` (merged) grouped by the model's alias `groups`; ungrouped names stand alone."""
    by_key = {name_key(n): n for n in names}
    owner: dict[str, int] = {}  # name key -> index of its person in `people`
    people: list[list[str]] = []
    ignored = 0
    for group in groups:
        members: list[str] = []
        for alias in group:
            key = name_key(alias)
            if key not in by_key or key in owner or by_key[key] in members:
                ignored += 1
                continue
            members.append(by_key[key])
        if len(members) < 2:
            ignored += len(members)
            continue
        for member in members:
            owner[name_key(member)] = len(people)
        people.append(members)
    grouped = list(people)
    people = []
    placed: set[int] = set()
    for name in names:  # reading order of each person's first mention
        index = owner.get(name_key(name))
        if index is None:
            people.append([name])
        elif index not in placed:
            placed.add(index)
            people.append(grouped[index])
    return PersonNames(people, ignored)


def parse_alias_groups(value: Any) -> list[list[str]] | None:
    """A JSON reply `[["full name", "alias", ...], ...]` (or {"groups": [...]}) as lists."""
    if isinstance(value, dict):
        lists = [v for v in value.values() if isinstance(v, list)]
        value = lists[0] if len(lists) == 1 else None
    if not isinstance(value, list):
        return None
    groups: list[list[str]] = []
    for group in value:
        if not isinstance(group, list) or not all(isinstance(n, str) for n in group):
            return None
        groups.append([n.strip() for n in group if n.strip()])
    return groups
