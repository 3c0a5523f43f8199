"""SWiM's seed tasks (../shared) evaluate as needles once loaded as TaskInstance rows.

The rows are built here from SWiM's JSON and document archive as they are: each
question's answer document is placed at depths 0..100 % among shuffled distractor
documents of the same archive (the task builder does this for real releases).
"""

from __future__ import annotations

import json
import random
import tarfile
from pathlib import Path

import pytest

from lengthwise.evaluation.backends import EngineSettings
from lengthwise.evaluation.runner import EvalConfig, run_eval
from lengthwise.evaluation.task_results import depth_bin
from lengthwise.task_records import TaskInstance
from tests.evaluation.task_answerers import at_random, perfect, script
from tests.evaluation.task_instances import write_task_release

DEPTHS = (0.0, 0.25, 0.5, 0.75, 1.0)
DISTRACTORS = 4


def _documents(archive: Path) -> dict[str, str]:
    documents: dict[str, str] = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            handle = tar.extractfile(member) if member.isfile() else None
            if handle is not None:
                documents[Path(member.name).name] = handle.read().decode("utf-8", "replace")
    return documents


def swim_needles(swim: Path, questions: int) -> list[TaskInstance]:
    tasks = json.loads((swim / "data_cosmostory.json").read_text(encoding="utf-8"))
    documents = _documents(swim / "cosmostoryforumdataset.tar.gz")
    rng = random.Random(0)
    names = sorted(documents)
    instances: list[TaskInstance] = []
    for key, task in list(tasks.items())[:questions]:
        others = rng.sample([n for n in names if n != task["answer_doc"]], DISTRACTORS)
        for depth in DEPTHS:
            parts = [documents[n] for n in others]
            parts.insert(round(depth * DISTRACTORS), documents[task["answer_doc"]])
            context = "\n\n".join(parts)
            instances.append(
                TaskInstance(
                    id=f"swim:S:{key}:{depth:g}",
                    task="swim",
                    family="needles",
                    length="S",
                    language="en",
                    book_id="",
                    context=context,
                    question=task["question"],
                    answers=[task["answer"]],
                    tokens=len(context) // 4,
                    tokenizer="qwen2.5",
                    target=4096,
                    lower=1,
                    upper=10**6,
                    depth=depth,
                    fill=None,
                    source_ids=[task["answer_doc"], *others],
                )
            )
    return instances


@pytest.mark.slow
def test_swim_seed_tasks_evaluate_as_needles(
    shared_corpora: Path, tiny_release: Path, tmp_path: Path
) -> None:
    instances = swim_needles(shared_corpora / "seed_artifacts" / "swim", questions=6)
    release = write_task_release(tiny_release, tmp_path / "release", instances)

    def run(name: str, answerer: object) -> dict[str, object]:
        config = EvalConfig(
            release=str(release),
            out=tmp_path / name,
            tasks=["swim"],
            prompts=["IE"],
            tokenizer="qwen2.5",
            write_report=False,
            engine=EngineSettings(backend="scripted", model=name),
        )
        result = run_eval(config, provider_options={"script": script(instances, answerer)})
        (cell,) = result.results["tasks"]["swim"]["lengths"]["S"].values()
        return dict(cell)

    best = run("perfect", perfect)
    assert best["n"] == len(instances) == 30 and best["mean"] == pytest.approx(100.0)
    assert best["by_depth"] == {depth_bin(d): pytest.approx(100.0) for d in DEPTHS}
    guess = run("random", at_random)
    assert guess["mean"] < 50 and guess["random_baseline"] is not None
