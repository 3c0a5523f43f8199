"""`lengthwise annotate tasks push|pull`: the human checks of model-written task items."""

from __future__ import annotations

import argparse

from lengthwise.cli_options import SPEC, WORK, Command, opt
from lengthwise.spec import load_spec


def _push(args: argparse.Namespace) -> int:
    from lengthwise.annotation.annotate_commands import label_studio_api, work_dir_for
    from lengthwise.annotation.task_checks.push import push_task_checks

    spec = load_spec(args.spec)
    work = work_dir_for(spec, args.work)
    api = label_studio_api(spec, work, args.url)
    results = push_task_checks(spec, work, api)
    if not results:
        print("no qa or recall task in the spec: nothing to check")
    for r in results:
        state = "created" if r.created_project else "found"
        items = ", ".join(f"{k} {v}" for k, v in sorted(r.items.items())) or "none"
        print(f"task {r.task} ({r.family}): project {r.project_title!r} (id {r.project_id}, "
              f"{state}); items: {items}")  # fmt: skip
        print(
            f"  imported {r.imported}, refreshed {r.updated}, unchanged {r.unchanged}, kept "
            f"(human work, item changed) {r.kept}, duplicates removed {r.removed_duplicates}"
        )
        print(f"  open {api.url}/projects/{r.project_id}/data to check")
    return 0


def _pull(args: argparse.Namespace) -> int:
    from lengthwise.annotation.annotate_commands import label_studio_api, work_dir_for
    from lengthwise.annotation.task_checks.gate import label_agreement, released_instances
    from lengthwise.annotation.task_checks.pull import pull_task_checks
    from lengthwise.store import WorkStore
    from lengthwise.workdir import WorkDir

    spec = load_spec(args.spec)
    work = work_dir_for(spec, args.work)
    families = {t.name: t.family for t in spec.tasks}
    for r in pull_task_checks(spec, work, label_studio_api(spec, work, args.url)):
        if r.project_id is None:
            print(f"task {r.task}: not pushed yet (run `lengthwise annotate tasks push SPEC`)")
            continue
        decisions = ", ".join(f"{k} {v}" for k, v in sorted(r.decisions.items())) or "none yet"
        print(f"task {r.task}: pulled {r.annotations} annotations ({r.new} new, {r.updated} "
              f"updated); decisions: {decisions}")  # fmt: skip
        instances = WorkStore(WorkDir(work)).task_instances(r.task)
        kept, dropped = released_instances(WorkDir(work), r.task, families[r.task], instances)
        print(f"  a release now would carry {len(kept)} of {len(instances)} instances")
        for reason, count in dropped.most_common():
            print(f"    held back: {count} {reason}")
        if families[r.task] == "recall":
            print(f"  {label_agreement(WorkDir(work), r.task).describe()}")
        print(f"  validations: {WorkDir(work).task_validations(r.task)}")
    return 0


_URL = opt("--url", default=None, help="Label Studio URL (default: as for annotate push)")

TASKS = Command(
    "tasks",
    help="human checks of model-written task items (qa, recall) in Label Studio",
    description=(
        "push: one project per qa/recall task of the spec; qa sends every built item "
        "(accept / edit / reject; no qa item is released unvalidated), recall the chunks "
        "sampled for a check (confirm / correct the names). pull: the decisions into "
        "WORK/tasks/<task>/validations.jsonl, and what a release would carry now."
    ),
    subcommands=(
        Command(
            "push",
            help="import the items to check",
            description=None,
            handler=_push,
            options=(SPEC, WORK, _URL),
        ),
        Command(
            "pull",
            help="store the decisions; show what a release would carry",
            description=None,
            handler=_pull,
            options=(SPEC, WORK, _URL),
        ),
    ),
    subcommand_dest="tasks_command",
)
