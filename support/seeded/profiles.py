"""Seed profiles: the seed tasks a lane needs, by name, in dependency order (a task's `needs`
come first). `seed/registry.py` resolves each name to its task.

- `external-runtime`: the base every model- or tool-calling scenario needs: model provider,
  stable and decision models, builtin tools, web-search credential, `ready-knowledge` dataset,
  the speech-to-text model of voice input.
- `prepared`: the base plus the fixture agents (and the second dataset one of them uses) that
  `@prepared` scenarios read.
- `post-merge`: both, for the post-merge lane.
"""

from __future__ import annotations

from collections.abc import Mapping

from support.seeded.specs import agent_specs

BASE_TASKS = (
    "model-provider",
    "stable-model",
    "decision-model",
    "builtin-tools",
    "web-search-credential",
    "ready-knowledge",
    "speech-to-text-model",
)
AGENT_TASKS = ("secondary-knowledge", *(f"{key}-agent" for key in agent_specs()))


def _union(*profiles: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(name for profile in profiles for name in profile))


PREPARED = BASE_TASKS + AGENT_TASKS
EXTERNAL_RUNTIME = BASE_TASKS
PROFILE_TASKS: Mapping[str, tuple[str, ...]] = {
    "prepared": PREPARED,
    "external-runtime": EXTERNAL_RUNTIME,
    "post-merge": _union(EXTERNAL_RUNTIME, PREPARED),
}


def reseed_command(task: str) -> str:
    """The exact command that (re)creates the resource of `task`, as the README documents it:
    `prepared` holds every fixture a scenario step reads (the base tasks too), so it repairs any
    of them; otherwise the smallest profile holding the task."""
    holding = [name for name, tasks in PROFILE_TASKS.items() if task in tasks]
    profile = "prepared" if "prepared" in holding else min(holding, key=lambda name: len(PROFILE_TASKS[name]))
    return f"make seed PROFILE={profile}"
