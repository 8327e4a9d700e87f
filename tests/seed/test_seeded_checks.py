"""The fixture steps and the checks of seeded resources behind them (support/seeded/), against real
consoles: resolve what the seed made, fail loudly (owner and remediation) on what it did not, and
never let a scenario change a seeded resource."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from fastapi import FastAPI
from playwright.sync_api import BrowserContext, Page

import steps.agent_setup as agent_steps
import steps.seeded as seeded_steps
from seed.runner import run_seed
from support.api.models import AgentTool, KnowledgeSettings
from support.api_setup.knowledge import create_dataset
from support.replay.server import BackgroundServer
from support.seeded.agents import seeded_agent
from support.seeded.errors import SeededPrerequisiteError
from support.seeded.knowledge import seeded_dataset
from support.seeded.models import seeded_model
from support.seeded.runtime import agent_backend
from support.seeded.specs import PROVIDER_NAME, WEB_SEARCH_CREDENTIAL, agent_specs, dataset_specs
from support.seeded.tools import seeded_web_search_credential
from support.settings import Settings
from support.world import World
from tests.seed.conftest import console_client, free_port, make_settings, raw_api

FIXTURE_STEPS = (
    seeded_steps.step_stable_model,
    seeded_steps.step_decision_model,
    seeded_steps.step_ready_knowledge,
    seeded_steps.step_web_search_credential,
    seeded_steps.step_full_config_agent,
    seeded_steps.step_tool_states_agent,
    seeded_steps.step_dual_retrieval_agent,
)


def api_world(settings: Settings) -> World:
    """A World for API-only steps: these steps never touch the browser."""
    assert settings.base_url is not None
    return World(
        settings=settings,
        console_url=settings.base_url,
        console=console_client(settings),
        browser_context=cast(BrowserContext, None),
        page=cast(Page, None),
        name_counter=itertools.count(1),
        creators={},
        scenario_label="tests/seed/test_seeded_checks.py",
        scenario_location="tests/seed/test_seeded_checks.py",
    )


def seeded_bytes(settings: Settings) -> dict[str, bytes]:
    """The console API's exact bytes for every seeded resource (not for scenario-owned ones)."""
    console = console_client(settings)
    paths = ["/model-providers", "/models", "/tools", "/tool-credentials"]
    for spec in dataset_specs().values():
        dataset = console.list_datasets(spec.name).data[0]
        paths += [f"/datasets/{dataset.id}", f"/datasets/{dataset.id}/documents"]
        paths += [
            f"/datasets/{dataset.id}/documents/{document.id}/segments"
            for document in console.list_documents(dataset.id).data
        ]
    for spec in agent_specs().values():
        agent_id = console.list_agents(spec.name).data[0].id
        paths += [f"/agents/{agent_id}{tail}" for tail in ("", "/versions", "/api-keys", "/files")]
    with raw_api(settings) as api:
        return {path: api.get(path).raise_for_status().content for path in paths}


def test_fixture_steps_resolve_every_seeded_resource(seeded_settings: Settings) -> None:
    world = api_world(seeded_settings)
    context = SimpleNamespace(world=world)
    for step in FIXTURE_STEPS:
        step(context)
    seeded = world.agent_builder.seeded
    assert seeded.stable_model is not None and seeded.stable_model.name == "gpt-4o-mini"
    assert seeded.decision_model is not None and seeded.decision_model.name == "gpt-4o"
    assert seeded.ready_knowledge is not None
    assert seeded.ready_knowledge.name == "e2e-seed-ready-knowledge"
    # The web search credential's step only checks it (no step reads it): it passed above.
    assert seeded_web_search_credential(world.console, seeded_settings).name == WEB_SEARCH_CREDENTIAL
    assert set(seeded.agents) == {"full-config", "tool-states", "dual-retrieval"}
    tools = seeded.agents["tool-states"].draft.config.tools
    assert {tool.enabled for tool in tools} == {True, False}


def test_a_scenario_style_flow_leaves_seeded_fixtures_byte_identical(seeded_settings: Settings) -> None:
    before = seeded_bytes(seeded_settings)
    world = api_world(seeded_settings)
    context = SimpleNamespace(world=world)
    for step in FIXTURE_STEPS:
        step(context)
    # What @prepared scenarios do: scenario-owned agents on seeded models and seeded knowledge...
    agent_steps.step_runnable_agent(context)
    agent = world.agent_builder.configure.agent
    assert agent is not None and world.agent_builder.seeded.ready_knowledge is not None
    config = agent.draft.config.model_copy(
        update={
            "knowledge": KnowledgeSettings(dataset_ids=[world.agent_builder.seeded.ready_knowledge.id]),
            "tools": [AgentTool(name="web_search"), AgentTool(name="knowledge_search", enabled=False)],
        }
    )
    world.console.save_draft(agent.id, config)
    world.console.publish_agent(agent.id)
    world.console.set_access(agent.id, web_app_enabled=False)
    agent_steps.step_decision_agent(context)
    dataset = create_dataset(world)
    world.console.upload_document(dataset.id, "notes.md", b"Scenario-owned notes.")
    # ...then the cleanup every scenario runs.
    assert world.cleanup.run() == []
    assert seeded_bytes(seeded_settings) == before


def test_the_runnable_agent_needs_the_stable_model_fixture_first(seeded_settings: Settings) -> None:
    context = SimpleNamespace(world=api_world(seeded_settings))
    with pytest.raises(AssertionError, match="Given the stable chat model is available"):
        agent_steps.step_runnable_agent(context)
    with pytest.raises(AssertionError, match="Given the decision chat model is available"):
        agent_steps.step_decision_agent(context)
    seeded_steps.step_stable_model(context)
    agent_steps.step_runnable_agent(context)
    agent = context.world.agent_builder.configure.agent
    assert agent is not None and agent.draft.config.model is not None
    assert agent.draft.config.model.name == "gpt-4o-mini"
    assert agent.draft.config.opening_statement == "Hello from the E2E runnable agent."
    assert len(agent.draft.config.suggested_questions) == 2
    assert context.world.cleanup.run() == []


def expect_prerequisite(owner: str, fragment: str, resolve: Callable[..., object], *args: object) -> None:
    with pytest.raises(SeededPrerequisiteError) as caught:
        resolve(*args)
    assert caught.value.owner == owner
    assert fragment in str(caught.value), str(caught.value)
    assert "make seed PROFILE=" in str(caught.value) and "make post-merge" in str(caught.value)


def test_missing_and_drifted_fixtures_fail_with_owner_and_the_seed_command(
    console_url: str, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for(console_url)
    console = console_client(settings)
    missing = "does not exist"
    expect_prerequisite("seed/model-provider", missing, seeded_model, console, settings, "stable")
    expect_prerequisite("seed/knowledge", missing, seeded_dataset, console, "ready-knowledge")
    expect_prerequisite("seed/tools", missing, seeded_web_search_credential, console, settings)
    expect_prerequisite("seed/agents", missing, seeded_agent, console, settings, "full-config")
    with pytest.raises(SeededPrerequisiteError, match="make seed PROFILE=prepared"):
        seeded_model(console, settings, "stable")
    with pytest.raises(SeededPrerequisiteError, match="make seed PROFILE=prepared"):
        seeded_agent(console, settings, "tool-states")

    assert not run_seed(settings, "post-merge").blocked
    (provider,) = [p for p in console.list_providers().data if p.name == PROVIDER_NAME]
    decision = next(model for model in provider.models if model.name == "gpt-4o")
    console.set_model_active(provider.id, decision.id, False)
    expect_prerequisite("seed/models", "gpt-4o is inactive", seeded_model, console, settings, "decision")
    full_config = console.list_agents("e2e-seed-full-config-agent").data[0]
    draft = console.get_agent(full_config.id).draft.config.model_copy(update={"opening_statement": "Hi"})
    console.save_draft(full_config.id, draft)
    drift = "draft differs in opening_statement"
    expect_prerequisite("seed/agents", drift, seeded_agent, console, settings, "full-config")
    ready = console.list_datasets("e2e-seed-ready-knowledge").data[0]
    console.upload_document(ready.id, "stray.md", b"Not part of the seed.")
    stray = "unexpected document stray.md"
    expect_prerequisite("seed/knowledge", stray, seeded_dataset, console, "ready-knowledge")
    skill_agent = console.list_agents("e2e-seed-skill-agent").data[0]
    console.remove_skill(skill_agent.id, "house-rules")
    lost = "its skills are not seed/data/skills/ house-rules"
    expect_prerequisite("seed/agents", lost, seeded_agent, console, settings, "skill")


@pytest.fixture
def runtime_stub() -> Iterator[str]:
    """Answers the two readiness probes like the agent backend and shellctl do (anything else: 404)."""
    app = FastAPI(openapi_url=None)  # the stub's own /openapi.json is one of the two probes

    async def ready() -> dict[str, str]:
        return {}

    for probe in ("/openapi.json", "/healthz"):
        app.add_api_route(probe, ready, methods=["GET"])
    with BackgroundServer(app) as server:
        yield server.url


def test_the_runtime_readiness_probes_the_backend_and_shellctl(tmp_path: Path, runtime_stub: str) -> None:
    def settings(**variables: str) -> Settings:
        return make_settings("http://127.0.0.1:1", tmp_path, **variables)

    with pytest.raises(SeededPrerequisiteError) as none_configured:
        agent_backend(settings())
    message = str(none_configured.value)
    assert none_configured.value.owner == "e2e/runtime"
    assert "E2E_START_AGENT_BACKEND=1" in message and "E2E_AGENT_BACKEND_URL=" in message

    dead = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(SeededPrerequisiteError, match="agent runtime backend at .* is not ready"):
        agent_backend(settings(E2E_AGENT_BACKEND_URL=dead))
    with pytest.raises(SeededPrerequisiteError, match="shellctl sandbox at .* is not ready"):
        agent_backend(settings(E2E_AGENT_BACKEND_URL=runtime_stub, E2E_SHELLCTL_URL=dead))

    ready = agent_backend(settings(AGENT_BACKEND_BASE_URL=runtime_stub, E2E_SHELLCTL_URL=runtime_stub))
    assert (ready.url, ready.shellctl_url) == (runtime_stub, runtime_stub)
