"""Builtin tools and the web-search tool credential."""

from __future__ import annotations

from seed.tasks import Blocked, Done, Outcome, SeedContext, Task, find_one, provider_url
from support.settings import Settings

BUILTIN_TOOLS = ("json_replace", "sandbox_shell", "knowledge_search", "web_search")
WEB_SEARCH_CREDENTIAL = "e2e-seed-web-search"
# Replayed searches need no key, but the console requires a secret. Not a secret.
REPLAY_SEARCH_SECRET = "replay-keyless"


def check_builtin_tools(ctx: SeedContext) -> Outcome:
    listed = {tool.name for tool in ctx.console.list_tools().data}
    missing = [name for name in BUILTIN_TOOLS if name not in listed]
    if missing:
        raise Blocked(
            f"the console's tool catalog lacks {', '.join(missing)}",
            "deploy a console build that ships every builtin tool (agent_builder/console owns the catalog)",
        )
    return Outcome("verified", f"{len(BUILTIN_TOOLS)} builtin tools listed: {', '.join(BUILTIN_TOOLS)}")


def web_search_endpoint(settings: Settings) -> tuple[str, str]:
    """The credential's base URL and secret. The replay server forwards the product's own
    Authorization header upstream, so record and live need the real key even through it."""
    base_url = provider_url(settings, "/search", settings.web_search_base_url, "E2E_WEB_SEARCH_BASE_URL")
    if settings.model_mode == "replay":
        return base_url, REPLAY_SEARCH_SECRET
    if settings.web_search_api_key is None:
        raise Blocked(
            f"E2E_MODEL_MODE={settings.model_mode} calls the real web-search provider, "
            "but E2E_WEB_SEARCH_API_KEY is not set",
            "set E2E_WEB_SEARCH_BASE_URL and E2E_WEB_SEARCH_API_KEY, "
            "or unset E2E_MODEL_MODE to replay recorded searches",
        )
    return base_url, settings.web_search_api_key.get_secret_value()


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
