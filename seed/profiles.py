"""Seed profiles: the tasks a lane needs, in dependency order (a task's `needs` come first).

- `external-runtime`: the base every model- or tool-calling scenario needs: model provider,
  stable and decision models, builtin tools, web-search credential, `ready-knowledge` dataset.
- `prepared`: the base plus the fixture agents (and the second dataset one of them uses) that
  `@prepared` scenarios read.
- `post-merge`: both, for the post-merge lane.
"""

from __future__ import annotations

from collections.abc import Mapping

from seed.specs import agent_specs
from seed.tasks import Task, agents, models, tools
from seed.tasks.knowledge import dataset_task

BASE_TASKS: tuple[Task, ...] = (*models.TASKS, *tools.TASKS, dataset_task("ready-knowledge"))
FIXTURE_TASKS: tuple[Task, ...] = (
    dataset_task("secondary-knowledge"),
    *(agents.agent_task(key) for key in agent_specs()),
)


def _union(*profiles: tuple[Task, ...]) -> tuple[Task, ...]:
    by_name = {task.name: task for profile in profiles for task in profile}
    return tuple(by_name.values())


PREPARED = BASE_TASKS + FIXTURE_TASKS
EXTERNAL_RUNTIME = BASE_TASKS
PROFILES: Mapping[str, tuple[Task, ...]] = {
    "prepared": PREPARED,
    "external-runtime": EXTERNAL_RUNTIME,
    "post-merge": _union(EXTERNAL_RUNTIME, PREPARED),
}


def reseed_command(task: str) -> str:
    """The exact command that (re)creates the resource of `task`: the smallest profile holding it."""
    profile = min(
        (name for name, tasks in PROFILES.items() if any(t.name == task for t in tasks)),
        key=lambda name: len(PROFILES[name]),
    )
    return f"make seed PROFILE={profile}"
