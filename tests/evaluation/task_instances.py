"""Task-family instance sets for evaluator tests (TEST FIXTURES, not a test module).

Instances are `TaskInstance` rows made here from seeded synthetic text, with known
answers, written into a copy of a verified release folder as task configs
(``<task>-<length>/test-00000-of-00001.parquet``, listed under ``tasks`` in
manifest.json with the files' checksums), the way a release ships them. The task
builders make the real ones from book chapters; the evaluator only needs rows.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from lengthwise.builders.tasks.report_record import TaskLengthReport
from lengthwise.releases.release.layout import data_file
from lengthwise.releases.release.manifest import file_entries
from lengthwise.releases.release.task_configs import TaskConfig, manifest_tasks
from lengthwise.storage import atomic_write_json, read_json
from lengthwise.task_records import TaskInstance, release_config_name, task_arrow_schema

_EN_NOUNS = ["lantern", "river", "orchard", "bell", "harbour", "ledger", "mill", "bridge"]
_EN_VERBS = ["glowed", "waited", "turned", "rang", "shifted", "closed", "opened", "fell"]
_ZH_NOUNS = ["灯笼", "河流", "果园", "钟声", "港口", "账本", "磨坊", "石桥"]
_ZH_VERBS = ["亮了", "等着", "转动", "响起", "移动", "关上", "打开", "落下"]
EN_NAMES = [
    "Alice Hart",
    "Bram Cole",
    "Cora Vance",
    "Dmitri Orlov",
    "Edith Shaw",
    "Felix Lane",
    "Greta Moss",
]
ZH_NAMES = [
    "林黛玉",
    "贾宝玉",
    "王熙凤",
    "薛宝钗",
    "史湘云",
    "袁承志",
    "郭靖",
    "黄蓉",
    "杨过",
    "周伯通",
]


def sentence(rng: random.Random, language: str, subject: str = "") -> str:
    if language == "zh":
        who = subject or rng.choice(_ZH_NOUNS)
        return f"{who}在{rng.choice(_ZH_NOUNS)}旁边{rng.choice(_ZH_VERBS)}。"
    who = subject or f"The {rng.choice(_EN_NOUNS)}"
    return f"{who} {rng.choice(_EN_VERBS)} beside the {rng.choice(_EN_NOUNS)}."


def paragraph(rng: random.Random, language: str, count: int = 4) -> str:
    return ("" if language == "zh" else " ").join(sentence(rng, language) for _ in range(count))


def _instance(family: str, n: int, language: str, context: str, **fields: object) -> TaskInstance:
    task, length = fields.pop("task", family.replace("-", "_")), fields.pop("length", "S")
    base: dict[str, object] = {
        "id": f"{task}:{length}:{language}:{n}",
        "task": task,
        "family": family,
        "length": length,
        "language": language,
        "book_id": f"book-{language}",
        "context": context,
        "question": "",
        "answers": [],
        "tokens": len(context),
        "tokenizer": "qwen2.5",
        "target": 700,
        "lower": 1,
        "upper": 100000,
    }
    return TaskInstance(**(base | fields))  # type: ignore[arg-type]


def ordering(n: int, language: str, rng: random.Random, parts: int = 4) -> TaskInstance:
    """N segments shown shuffled under labels [1].. [N]; answers: labels in reading order."""
    segments = [f"({language}{n}.{i}) " + paragraph(rng, language) for i in range(parts)]
    shown = list(range(parts))
    rng.shuffle(shown)  # shown[k] = reading position of the segment shown k-th
    label_of = {reading: f"[{k + 1}]" for k, reading in enumerate(shown)}
    body = "\n\n".join(f"[{k + 1}]\n{segments[reading]}" for k, reading in enumerate(shown))
    context = f"{paragraph(rng, language, 2)}\n\n{body}\n\n{paragraph(rng, language, 2)}"
    return _instance("ordering", n, language, context, answers=[label_of[i] for i in range(parts)])


def synopsis_ordering(n: int, language: str, rng: random.Random, parts: int = 5) -> TaskInstance:
    synopses = [f"({language}{n}.{i}) " + sentence(rng, language) for i in range(parts)]
    shown = list(range(parts))
    rng.shuffle(shown)
    label_of = {reading: f"[{k + 1}]" for k, reading in enumerate(shown)}
    question = "\n".join(f"[{k + 1}] {synopses[reading]}" for k, reading in enumerate(shown))
    context = "\n\n".join(paragraph(rng, language) for _ in range(parts))
    answers = [label_of[i] for i in range(parts)]
    return _instance(
        "synopsis-ordering", n, language, f"({n}) {context}", question=question, answers=answers
    )


def recall(n: int, language: str, rng: random.Random) -> TaskInstance:
    names = rng.sample(ZH_NAMES if language == "zh" else EN_NAMES, 4)
    lines = [sentence(rng, language, name) for name in names for _ in range(2)]
    rng.shuffle(lines)
    context = f"({n}) " + "\n".join([*lines, paragraph(rng, language)])
    return _instance("recall", n, language, context, answers=names)


def sections(n: int, language: str, rng: random.Random, count: int = 3) -> TaskInstance:
    bodies = [paragraph(rng, language) for _ in range(count)]
    marker = "第{}节" if language == "zh" else "Section {}"
    context = f"({n})\n" + "\n\n".join(
        f"{marker.format(k + 1)}\n{body}" for k, body in enumerate(bodies)
    )
    first = [
        body.split("。")[0] + "。" if language == "zh" else body.split(".")[0] + "."
        for body in bodies
    ]
    return _instance("sections", n, language, context, answers=first)


_KINDS = ("extractive", "yes-no", "unanswerable", "abstractive")


def qa(n: int, language: str, rng: random.Random) -> TaskInstance:
    kind = _KINDS[n % len(_KINDS)]
    code = f"{rng.choice(_EN_NOUNS)}-{rng.randrange(1000, 9999)}"
    fact = (
        f"仓库{n}的暗号是{code}。" if language == "zh" else f"The password of vault {n} is {code}."
    )
    context = "\n".join([paragraph(rng, language), fact, paragraph(rng, language)])
    asked = {"zh": f"仓库{n}的暗号是什么？", "en": f"What is the password of vault {n}?"}
    answers = [code]
    if kind == "yes-no":
        asked = {"zh": f"仓库{n}的暗号是{code}吗？", "en": f"Is the password of vault {n} {code}?"}
        answers = ["是，文中这样写。" if language == "zh" else "Yes, the text says so."]
    elif kind == "unanswerable":
        asked = {"zh": f"仓库{n}有几扇门？", "en": f"How many doors does vault {n} have?"}
        answers = []
    return _instance(
        "qa",
        n,
        language,
        context,
        question=asked[language],
        answers=answers,
        depth=0.5,
        details={"kind": kind},
    )


def needle(n: int, language: str, rng: random.Random, depth: float | None = None) -> TaskInstance:
    depth = depth if depth is not None else [0.0, 0.25, 0.5, 0.75, 1.0][n % 5]
    code = f"{rng.randrange(100, 999)}"
    needle_doc = (
        f"灯塔{n}的编号是{code}。" if language == "zh" else f"Lighthouse {n} has number {code}."
    )
    documents = [paragraph(rng, language) for _ in range(4)]
    documents.insert(round(depth * len(documents)), needle_doc)
    question = (
        f"灯塔{n}的编号是多少？" if language == "zh" else f"What number does lighthouse {n} have?"
    )
    return _instance(
        "needles",
        n,
        language,
        "\n\n".join(documents),
        question=question,
        answers=[code],
        depth=depth,
        fill=None,  # the main series (a fill value marks the fill series, scored apart)
    )


def incremental(n: int, language: str, rng: random.Random) -> TaskInstance:
    return _instance("incremental", n, language, f"({n}) " + paragraph(rng, language, 6))


Maker = Callable[[int, str, random.Random], TaskInstance]
MAKERS: dict[str, Maker] = {
    "ordering": ordering,
    "synopsis-ordering": synopsis_ordering,
    "recall": recall,
    "sections": sections,
    "qa": qa,
    "needles": needle,
    "incremental": incremental,
}


def make_instances(family: str, count: int, seed: int = 0) -> list[TaskInstance]:
    """`count` instances of `family`, alternating zh and en."""
    rng = random.Random(f"{family}:{seed}")
    return [MAKERS[family](n, ("zh", "en")[n % 2], rng) for n in range(count)]


def write_task_release(base: Path, out: Path, instances: Sequence[TaskInstance]) -> Path:
    """A copy of release `base` with `instances` as task configs, manifest updated."""
    shutil.copytree(base, out)
    configs: dict[str, list[TaskInstance]] = {}
    for instance in instances:
        configs.setdefault(release_config_name(instance.task, instance.length), []).append(instance)
    manifest = read_json(out / "manifest.json")
    released: list[TaskConfig] = []
    for name, rows in configs.items():
        path = out / data_file(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        table = pa.Table.from_pylist([r.to_row() for r in rows], schema=task_arrow_schema())
        pq.write_table(table, path)
        first, count = rows[0], len(rows)
        built = TaskLengthReport(
            first.length, first.target, first.lower, first.upper, count, count, count, 0,
            None, None, None, 0, None,
        )  # fmt: skip
        released.append(TaskConfig(name, first.task, first.family, first.length, rows, built))
    manifest["tasks"] = manifest_tasks(released)  # exactly as `lengthwise release` writes it
    manifest["files"] = file_entries(out)
    atomic_write_json(out / "manifest.json", manifest)
    return out
