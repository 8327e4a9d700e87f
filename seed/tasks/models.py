"""The model provider and the stable and decision chat models.

The provider is validated by a real call through the console (`GET <base>/models`): a seeded
provider is `verified` only when that call succeeds now, not because it once did.
"""

from __future__ import annotations

from seed.tasks import Done, Outcome, SeedContext, Task, find_one
from support.api.models import AgentModelRef, Model, Provider
from support.seeded.blocked import Blocked
from support.seeded.endpoints import model_endpoint
from support.seeded.specs import PROVIDER_NAME, ModelRole, model_name
from support.settings import Settings

MODEL_VARIABLES: dict[ModelRole, str] = {
    "stable": "E2E_STABLE_MODEL_NAME",
    "decision": "E2E_DECISION_MODEL_NAME",
}


def _validation_fix(settings: Settings) -> str:
    if settings.model_mode == "replay":
        return "make sure the record/replay server at E2E_REPLAY_URL is up and reachable from the console"
    return (
        "check E2E_STABLE_MODEL_BASE_URL and E2E_STABLE_MODEL_API_KEY: the provider must be reachable"
        + (" from the replay server at E2E_REPLAY_URL" if settings.replay_url else " from the console")
        + " and accept the key"
    )


def seed_provider(ctx: SeedContext) -> Outcome:
    base_url, api_key = model_endpoint(ctx.settings)
    existing = find_one(ctx.console.list_providers().data, PROVIDER_NAME, "model provider")
    if ctx.dry_run:
        if existing is None:
            return Outcome("created", f"would register {PROVIDER_NAME} at {base_url}")
        ctx.provider = existing
        if existing.base_url != base_url:
            return Outcome("updated", f"would point {PROVIDER_NAME} at {base_url} (now {existing.base_url})")
        if existing.status != "active":
            return Outcome("updated", f"would re-apply the key ({PROVIDER_NAME} is {existing.status})")
        return Outcome("verified", f"would revalidate {PROVIDER_NAME} at {base_url}")

    provider: Provider
    status: Done
    if existing is None:
        provider, status = ctx.console.create_provider(PROVIDER_NAME, base_url, api_key), "created"
    elif existing.base_url != base_url:
        provider, status = ctx.console.update_provider(existing.id, base_url, api_key), "updated"
    else:
        provider, status = ctx.console.validate_provider(existing.id), "verified"
        if provider.status != "active":
            # The stored key may be stale (rotated): the configured one is the source of truth.
            provider, status = ctx.console.update_provider(existing.id, base_url, api_key), "updated"
    if provider.status != "active":
        reason = f"{PROVIDER_NAME} at {base_url} failed validation: {provider.error}"
        raise Blocked(reason, _validation_fix(ctx.settings))
    ctx.provider = provider
    return Outcome(status, f"{PROVIDER_NAME} active at {base_url} ({len(provider.models)} chat models)")


def seed_model(ctx: SeedContext, role: ModelRole) -> Outcome:
    name = model_name(ctx.settings, role)
    provider = ctx.provider
    if provider is None:  # a dry run whose provider would be created first
        return Outcome("created", f"would activate {name} once {PROVIDER_NAME} exists")
    model = next((model for model in provider.models if model.name == name), None)
    if model is None:
        offered = ", ".join(model.name for model in provider.models) or "none"
        if ctx.settings.model_mode == "replay":
            fix = f"start the replay server with `--model {name}` (make post-merge does), or record with it"
        else:
            fix = f"set {MODEL_VARIABLES[role]} to a model the provider offers"
        raise Blocked(f"{PROVIDER_NAME} does not offer {name} (it offers: {offered})", fix)
    ctx.models[role] = model
    steps = [step for step in (_activate(ctx, model, role), _choose_decision(ctx, model, role)) if step]
    if not steps:
        return Outcome("verified", f"{name} active" + (", the decision model" if role == "decision" else ""))
    return Outcome("updated", ("would " if ctx.dry_run else "") + " and ".join(steps))


def _activate(ctx: SeedContext, model: Model, role: ModelRole) -> str | None:
    if model.active:
        return None
    if not ctx.dry_run:
        ctx.models[role] = ctx.console.set_model_active(model.provider_id, model.id, True)
    return f"activate {model.name}"


def _choose_decision(ctx: SeedContext, model: Model, role: ModelRole) -> str | None:
    """The build assistant asks the console's decision model: the seeded one must be it."""
    if role != "decision":
        return None
    models = ctx.console.get_system_models()
    chosen = models.decision_model
    if chosen is not None and (chosen.provider_id, chosen.name) == (model.provider_id, model.name):
        return None
    if not ctx.dry_run:
        ref = AgentModelRef(provider_id=model.provider_id, name=model.name)
        ctx.console.set_system_models(models.model_copy(update={"decision_model": ref}))
    return f"make {model.name} the console's decision model"


TASKS = (
    Task("model-provider", "seed/model-provider", (), seed_provider),
    Task("stable-model", "seed/models", ("model-provider",), lambda ctx: seed_model(ctx, "stable")),
    Task("decision-model", "seed/models", ("model-provider",), lambda ctx: seed_model(ctx, "decision")),
)
