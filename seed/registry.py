"""Every seed task by name, and each profile's tasks: `support/seeded/profiles.py` names them in
order (and says what each profile is for); this module resolves every name to the task that seeds it."""

from __future__ import annotations

from collections.abc import Mapping

from seed.tasks import Task, agents, models, speech, tools
from seed.tasks.knowledge import dataset_task
from support.seeded.profiles import PROFILE_TASKS
from support.seeded.specs import agent_specs, dataset_specs

TASKS: Mapping[str, Task] = {
    task.name: task
    for task in (
        *models.TASKS,
        *tools.TASKS,
        *speech.TASKS,
        *(dataset_task(key) for key in dataset_specs()),
        *(agents.agent_task(key) for key in agent_specs()),
    )
}
# A profile naming a task that does not exist fails here, on import, before anything is seeded.
PROFILES: Mapping[str, tuple[Task, ...]] = {
    profile: tuple(TASKS[name] for name in names) for profile, names in PROFILE_TASKS.items()
}
