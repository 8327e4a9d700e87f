"""Leftover audit: after a lane, nothing named for this run may remain in the console.

Cleanup queues remove what scenarios tracked; this catches what they created and never
tracked (say, a resource made through the UI by a step that forgot to register it).
"""

from __future__ import annotations

from support.api.console import ConsoleClient
from support.naming import E2E_PREFIX, belongs_to_run


def leftovers(console: ConsoleClient, run_id: str) -> list[str]:
    prefix = f"{E2E_PREFIX}-{run_id}-"
    found = [f"agent {a.name}" for a in console.list_agents(prefix).data if belongs_to_run(a.name, run_id)]
    found += [
        f"dataset {d.name}" for d in console.list_datasets(prefix).data if belongs_to_run(d.name, run_id)
    ]
    found += [
        f"model provider {p.name}" for p in console.list_providers().data if belongs_to_run(p.name, run_id)
    ]
    found += [
        f"tool credential {c.name}"
        for c in console.list_tool_credentials().data
        if belongs_to_run(c.name, run_id)
    ]
    return found
