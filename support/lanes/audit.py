"""Leftover audit: after a lane, nothing named for this run (and worker) may remain in the console.

Cleanup queues remove what scenarios tracked; this catches what they created and never
tracked (say, a resource made through the UI by a step that forgot to register it).
"""

from __future__ import annotations

from collections.abc import Mapping

from support.api.console import ConsoleClient
from support.naming import E2E_PREFIX, parse_e2e_name
from support.reports import LaneFailure


def leftovers(console: ConsoleClient, run_id: str, worker_id: str | None = None) -> list[tuple[str, str]]:
    """(kind, name) of every resource named for the run (and worker, when given)."""

    def ours(name: str) -> bool:
        parsed = parse_e2e_name(name)
        return parsed is not None and parsed.run_id == run_id and worker_id in (None, parsed.worker_id)

    prefix = f"{E2E_PREFIX}-{run_id}-" + (f"{worker_id}-" if worker_id else "")
    found = [("agent", agent.name) for agent in console.list_agents(prefix).data if ours(agent.name)]
    found += [
        ("dataset", dataset.name) for dataset in console.list_datasets(prefix).data if ours(dataset.name)
    ]
    found += [("model provider", p.name) for p in console.list_providers().data if ours(p.name)]
    found += [("tool credential", c.name) for c in console.list_tool_credentials().data if ours(c.name)]
    return found


def leftover_failure(
    console: ConsoleClient, run_id: str, worker_id: str, creators: Mapping[str, str]
) -> LaneFailure | None:
    """The lane failure for what this worker left behind, naming the scenario that created each."""
    left = leftovers(console, run_id, worker_id)
    if not left:
        return None
    lines = [
        f"  {kind} {name} (created by {creators.get(name, 'a scenario of this run')})" for kind, name in left
    ]
    return LaneFailure(
        "leftovers",
        f"The lane left {len(left)} resource(s) of run {run_id} behind:\n" + "\n".join(lines),
        "register a cleanup for every resource a step creates: world.track(...) for the typed queues "
        "or world.register_cleanup(...) (features/README.md, 'Writing a step'); then delete the "
        "leftovers in the console",
    )


Resource = tuple[str, str]  # (kind, name)


def every_resource(console: ConsoleClient) -> set[Resource]:
    """(kind, name) of every agent, dataset, model provider and tool credential in the console,
    whatever its name: what a scenario leaves behind need not carry the run's name."""
    found = {("agent", name) for name in console.all_agent_names()}
    found |= {("dataset", dataset.name) for dataset in console.list_datasets().data}
    found |= {("model provider", provider.name) for provider in console.list_providers().data}
    found |= {("tool credential", credential.name) for credential in console.list_tool_credentials().data}
    return found


def left_behind(before: set[Resource], after: set[Resource], run_id: str, worker_id: str) -> list[Resource]:
    """What appeared during a scenario and outlived its cleanup, but for what another worker of the
    run made (its own scenario answers for it)."""

    def another_workers(name: str) -> bool:
        parsed = parse_e2e_name(name)
        return parsed is not None and parsed.run_id == run_id and parsed.worker_id != worker_id

    return sorted(resource for resource in after - before if not another_workers(resource[1]))
