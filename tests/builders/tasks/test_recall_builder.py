"""The recall family on real chapters, with the scripted drafting model behind the cache."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from lengthwise.builders.tasks.base import family_builder
from lengthwise.builders.tasks.recall_names import group_people, merge_names, name_key
from lengthwise.spec import Spec
from lengthwise.store import WorkStore
from lengthwise.task_spec import RecallTask
from lengthwise.tokenizers.registry import get_tokenizer
from lengthwise.workdir import WorkDir
from tests.fixtures.model_tasks import EN_PEOPLE, LENGTH, ZH_PEOPLE, NameLabeller, task_context

PEOPLE = ZH_PEOPLE + EN_PEOPLE
TASK = RecallTask(name="recall", family="recall", chunk_tokens=1024, human_check_share=0.1)


def test_recall_names_every_person_once_with_aliases_merged(
    books_work: tuple[Spec, Path],
) -> None:
    spec, work = books_work
    with task_context(spec, work, TASK, NameLabeller()) as ctx:
        instances = family_builder("recall")(ctx, LENGTH)
    assert {i.language for i in instances} == {"zh", "en"}
    zh = next(i for i in instances if i.language == "zh")
    # Both 林黛玉 and 黛玉 occur in the text: one person, one canonical (fullest) name.
    assert "林黛玉" in zh.answers and "黛玉" not in zh.answers
    assert json.dumps(["林黛玉", "黛玉"], ensure_ascii=False) in zh.details["aliases"]
    for instance in instances:
        assert all(sum(n in instance.answers for n in person) <= 1 for person in PEOPLE)
        assert instance.details["aliases"]
        keys = [name_key(a) for a in instance.answers]
        assert len(keys) == len(set(keys)) and keys
        assert instance.lower <= instance.tokens <= instance.upper
        assert instance.tokens == len(instance.context)  # chars tokenizer: an independent count
    labels = WorkStore(WorkDir(work)).chunk_labels("recall")
    assert {c.instance_id for c in labels} == {i.id for i in instances}
    counts = get_tokenizer("chars").count_many([c.text for c in labels])
    assert max(counts) <= TASK.chunk_tokens
    for instance in instances:  # the chunks hold the whole context, in order
        chunks = sorted((c for c in labels if c.instance_id == instance.id), key=lambda c: c.chunk)
        assert instance.details["chunks"] == len(chunks)
        assert _visible("".join(c.text for c in chunks)) == _visible(instance.context)
    checked = [c for c in labels if c.check]
    assert len(checked) == -(-len(labels) // 10)  # ceil of the 10 % share


def test_recall_is_deterministic_and_served_from_the_cache(books_work: tuple[Spec, Path]) -> None:
    spec, work = books_work
    labeller = NameLabeller()
    with task_context(spec, work, TASK, labeller) as ctx:
        first = family_builder("recall")(ctx, LENGTH)
    calls: list[str] = []

    def counting(request):  # type: ignore[no-untyped-def]
        calls.append(request.prompt_version)
        return labeller(request)

    with task_context(spec, work, TASK, counting) as ctx:
        second = family_builder("recall")(ctx, LENGTH)
    assert first == second
    assert calls == []


def test_an_unreadable_reply_is_repaired_once_and_counted(books_work: tuple[Spec, Path]) -> None:
    spec, work = books_work
    with task_context(spec, work, TASK, NameLabeller(unreadable="宝钗")) as ctx:
        instances = family_builder("recall")(ctx, LENGTH)
        warnings = ctx.drops.warnings
    zh = [i for i in instances if i.language == "zh"]
    assert zh and sum(int(str(i.details["unreadable_replies"])) for i in zh) >= 1
    assert any("unreadable" in w and "read after a repair request" in w for w in warnings)


def test_an_instance_with_an_unreadable_chunk_is_dropped_and_counted(
    books_work: tuple[Spec, Path],
) -> None:
    spec, work = books_work
    script = NameLabeller(unreadable="黛玉", stubborn=True)
    with task_context(spec, work, TASK, script) as ctx:
        instances = family_builder("recall")(ctx, LENGTH)
        dropped = ctx.drops.dropped
    assert {i.language for i in instances} == {"en"}
    reason = "S: chunk labels incomplete (unreadable reply after a repair request)"
    assert dropped[reason] == 1  # the one 红楼梦 run (count 2 spreads over the two books)


def _visible(text: str) -> str:
    return "".join(text.split())


def test_an_unreadable_alias_reply_keeps_names_unmerged_and_says_so(
    books_work: tuple[Spec, Path],
) -> None:
    spec, work = books_work
    with task_context(spec, work, TASK, NameLabeller(alias_reply="They are all different.")) as ctx:
        instances = family_builder("recall")(ctx, LENGTH)
        warnings = ctx.drops.warnings
    zh = next(i for i in instances if i.language == "zh")
    assert {"林黛玉", "黛玉"} <= set(zh.answers)
    assert zh.details["alias_reply_readable"] is False and zh.details["aliases"] == []
    assert any("alias reply unreadable for 2 instances" in w for w in warnings)


_NAME = st.text(alphabet="abcABCｂ贾宝 ", min_size=1, max_size=6)


@given(st.lists(st.lists(_NAME, max_size=8), max_size=6))
def test_merged_names_are_deduplicated_and_cover_every_name(chunks: list[list[str]]) -> None:
    merged = merge_names(chunks)
    keys = [name_key(n) for n in merged]
    assert len(keys) == len(set(keys))
    assert set(keys) == {name_key(n) for chunk in chunks for n in chunk} - {""}


@given(st.lists(st.lists(_NAME, max_size=8), max_size=6), st.data())
def test_alias_groups_give_one_canonical_name_per_person(
    chunks: list[list[str]], data: st.DataObject
) -> None:
    merged = merge_names(chunks)
    groups = data.draw(st.lists(st.lists(st.sampled_from(merged or ["x"]), max_size=4)))
    people = group_people(merged, groups)
    flat = [name_key(n) for person in people.people for n in person]
    assert sorted(flat) == sorted(name_key(n) for n in merged)  # each name in one person
    assert len(people.canonical) == len(people.people)


def test_aliases_merge_only_where_the_model_says() -> None:
    merged = merge_names([["Elizabeth Bennet", "Mr. Darcy"], ["ELIZABETH", "Lizzy", "Jane"]])
    assert merged == ["Elizabeth Bennet", "Mr. Darcy", "ELIZABETH", "Lizzy", "Jane"]
    people = group_people(merged, [["Elizabeth Bennet", "elizabeth", "Lizzy"], ["Nobody", "Jane"]])
    assert people.canonical == ["Elizabeth Bennet", "Mr. Darcy", "Jane"]
    assert people.alias_groups == [["Elizabeth Bennet", "ELIZABETH", "Lizzy"]]
    assert people.ignored_alias_names == 2  # "Nobody" is not in the list; "Jane" alone
