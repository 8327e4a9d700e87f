"""Builtin tools and the web-search tool credential."""

from __future__ import annotations

from seed.tasks import Done, Outcome, SeedContext, Task, find_one
from support.seeded.blocked import Blocked
from support.seeded.endpoints import web_search_endpoint
from support.seeded.specs import WEB_SEARCH_CREDENTIAL

BUILTIN_TOOLS = ("json_replace", "sandbox_shell", "knowledge_search", "web_search")


def check_builtin_tools(ctx: SeedContext) -> Outcome:
    listed = {tool.name for tool in ctx.console.list_tools().data}
    missing = [name for name in BUILTIN_TOOLS if name not in listed]
    if missing:
        raise Blocked(
            f"the console's tool catalog lacks {', '.join(missing)}",
            "deploy a console build that ships every builtin tool (agent_builder/console owns the catalog)",
        )
    return Outcome("verified", f"{len(BUILTIN_TOOLS)} builtin tools listed: {', '.join(BUILTIN_TOOLS)}")


def seed_web_search_credential(ctx: SeedContext) -> Outcome:
    base_url, secret = web_search_endpoint(ctx.settings)
    credentials = [c for c in ctx.console.list_tool_credentials().data if c.tool == "web_search"]
    existing = find_one(credentials, WEB_SEARCH_CREDENTIAL, "web-search credential")
    # Secrets are never returned, so only the endpoint can drift visibly; a rotated key is picked
    # up by deleting the credential (Settings -> Tools) and re-seeding.
    if existing is not None and existing.base_url == base_url:
        return Outcome("verified", f"{WEB_SEARCH_CREDENTIAL} points at {base_url}")
    status: Done = "created" if existing is None else "updated"
    if ctx.dry_run:
        return Outcome(status, f"would point {WEB_SEARCH_CREDENTIAL} at {base_url}")
    if existing is not None:  # credentials cannot be edited: replace it
        ctx.console.delete_tool_credential(existing.id)
    ctx.console.create_tool_credential("web_search", WEB_SEARCH_CREDENTIAL, secret, base_url)
    return Outcome(status, f"{WEB_SEARCH_CREDENTIAL} points at {base_url}")


TASKS = (
    Task("builtin-tools", "seed/tools", (), check_builtin_tools),
    Task("web-search-credential", "seed/tools", ("builtin-tools",), seed_web_search_credential),
)
