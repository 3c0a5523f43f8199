"""Names that become paths: one validator (lengthwise/names.py), at spec load and on the
command line. A subset named ``../../evil`` once wrote a parquet outside the work dir."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from lengthwise.cli import main
from lengthwise.evaluation.config import EvalConfig
from lengthwise.names import NAME_VALIDATORS, InvalidNameError, check_name, check_repo_id
from lengthwise.spec import Spec, SpecError, load_spec
from lengthwise.workdir import WorkDir

BOOK = "CHAPTER I.\n\n" + "Alice was beginning to get very tired of sitting by her sister.\n" * 40


def _spec(tmp_path: Path, subset: str = "L", extra: str = "") -> Path:
    (tmp_path / "books").mkdir(exist_ok=True)
    for number in (1, 2, 3):
        (tmp_path / "books" / f"book{number}.txt").write_text(
            "\n\n".join(BOOK.replace("I.", f"{n}.") for n in range(1, 6)), encoding="utf-8"
        )
    path = tmp_path / "spec.toml"
    path.write_text(
        f"""name = "names"
[[sources]]
kind = "files"
path = "books"
[tokenizers]
primary = "chars"
[[subsets]]
name = "{subset}"
target = 2000
lower = 1000
upper = 3000
count = 1
{extra}""",
        encoding="utf-8",
    )
    return path


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize("subset", ["../../evil", "/tmp/lengthwise-evil", "a/b", ".hidden"])
def test_a_subset_name_that_is_a_path_is_refused_and_nothing_is_written(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    subset: str,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    spec = _spec(home, subset)
    monkeypatch.chdir(home)
    before = sorted(p for p in tmp_path.rglob("*"))
    assert main(["build", str(spec), "--work", str(home / "work")]) == 2
    line = _one_error_line(capsys)
    assert str(spec) in line and "subsets.0.name" in line and repr(subset) in line
    assert sorted(p for p in tmp_path.rglob("*")) == before  # no work dir, no parquet
    assert not Path("/tmp/lengthwise-evil.parquet").exists()


@pytest.mark.parametrize(
    ("extra", "key"),
    [
        ('[[tasks]]\nname = "../x"\nfamily = "ordering"\n', "tasks.0.ordering.name"),
        (
            '[[tasks]]\nname = "order"\nfamily = "ordering"\n'
            'lengths = [{ name = "../8k", target = 2000, lower = 1000, upper = 3000, count = 1 }]',
            "tasks.0.ordering.lengths.0.name",
        ),
        ('[release]\nrepo_id = "org/../../x"\n', "release.repo_id"),
        ('[release]\nrepo_id = "/abs/x"\n', "release.repo_id"),
    ],
)
def test_every_name_in_a_spec_is_checked_at_load(tmp_path: Path, extra: str, key: str) -> None:
    spec = _spec(tmp_path, extra=extra)
    with pytest.raises(SpecError) as caught:
        load_spec(spec)
    message = str(caught.value)
    assert message.startswith(f"{spec}: {key}: ") and "\n" not in message


def test_a_spec_name_that_is_a_path_is_refused(tmp_path: Path) -> None:
    spec = _spec(tmp_path)
    spec.write_text(spec.read_text().replace('"names"', '"../up"'), encoding="utf-8")
    with pytest.raises(SpecError, match=r"spec.toml: name: name '../up' is not a plain name"):
        load_spec(spec)


def test_plain_names_pass() -> None:
    for name in ("L", "2XL", "16k", "v1.0", "en_gutenberg-2"):
        assert check_name(name) == name
    assert check_repo_id("acme/demo-bench.v2") == "acme/demo-bench.v2"
    for bad in ("..", ".", "", "a/b", "a\\b", "a b", "a\nb", "x" * 101):
        with pytest.raises(InvalidNameError):
            check_name(bad)
    for bad in ("acme", "acme/", "/demo", "acme/../x", "acme/demo/extra", "../demo"):
        with pytest.raises(InvalidNameError):
            check_repo_id(bad)


def test_the_work_dir_never_builds_a_path_from_a_bad_name(tmp_path: Path) -> None:
    work = WorkDir(tmp_path)
    with pytest.raises(InvalidNameError):
        work.subset_samples("../../evil")
    with pytest.raises(InvalidNameError):
        work.task_file("ordering", "/abs")
    with pytest.raises(InvalidNameError):
        work.subset_annotated("../x")


# Fields named like a name but that never become a path, with the reason.
NOT_PATHS = {
    ("ExtraRule", "name"): "a cleaning rule's label in reports",
}


def _models(model: type[BaseModel], seen: set[type[BaseModel]]) -> None:
    if model in seen:
        return
    seen.add(model)
    for field in model.model_fields.values():
        for inner in _types(field.annotation):
            _models(inner, seen)


def _types(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [t for arg in typing.get_args(annotation) for t in _types(arg)]


def _validators(annotation: Any) -> set[Any]:
    """The validator functions an annotation (or anything inside it) carries."""
    found = {getattr(meta, "func", None) for meta in getattr(annotation, "__metadata__", ())}
    for arg in typing.get_args(annotation):
        found |= _validators(arg)
    return found


def test_every_name_field_of_the_spec_and_eval_models_uses_the_one_validator() -> None:
    models: set[type[BaseModel]] = set()
    for root in (Spec, EvalConfig):
        _models(root, models)
    checked = []
    for model in models:
        for field_name, field in model.model_fields.items():
            names_a_thing = field_name == "name" or field_name.endswith("repo_id")
            if model is EvalConfig and field_name in ("tasks", "subsets"):
                names_a_thing = True  # looked up as release config folders
            if not names_a_thing or (model.__name__, field_name) in NOT_PATHS:
                continue
            metadata = {getattr(meta, "func", None) for meta in field.metadata}
            validators = metadata | _validators(field.annotation)
            assert validators & set(NAME_VALIDATORS), f"{model.__name__}.{field_name}"
            checked.append(f"{model.__name__}.{field_name}")
    # The scan reached the models it must (not vacuous).
    for expected in ("Spec.name", "SubsetSpec.name", "TaskLength.name", "ReleaseConfig.repo_id"):
        assert expected in checked
    assert "EvalConfig.subsets" in checked and "OrderingTask.name" in checked
