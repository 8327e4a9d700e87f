"""The seed stage against a real console and replay server: create, verify, repair, dry run, block."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from seed.report import SeedReport
from seed.runner import EXIT_BLOCKED, EXIT_OK, EXIT_USAGE, run_seed
from support.api.models import SystemModels
from support.seeded.specs import PROVIDER_NAME, WEB_SEARCH_CREDENTIAL, agent_specs, dataset_specs
from support.settings import Settings
from tests.fakes.upstream import FakeUpstream
from tests.seed.conftest import ADMIN_EMAIL, ADMIN_PASSWORD, console_client, free_port, raw_api

ROOT = Path(__file__).resolve().parents[2]
MODEL_KEY = "sk-e2e-seed-test-MODEL-key-0123456789"
SEARCH_KEY = "tvly-e2e-seed-test-SEARCH-key-0123456789"


def statuses(report: SeedReport) -> dict[str, str]:
    return {result.task: result.status for result in report.results}


def snapshot(settings: Settings) -> dict[str, Any]:
    """Everything the seed may touch, as the console API returns it."""
    with raw_api(settings) as api:
        paths = ("/model-providers", "/tool-credentials", "/datasets", "/agents", "/system-models")
        state: dict[str, Any] = {path: api.get(path).json() for path in paths}
        for dataset in api.get("/datasets").json()["data"]:
            state[dataset["id"]] = api.get(f"/datasets/{dataset['id']}/documents").json()
        for agent in api.get("/agents").json()["data"]:
            state[agent["id"]] = api.get(f"/agents/{agent['id']}").json()
    return state


def run_cli(environ: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m seed` with exactly `environ` (plus PATH), as `make seed` runs it."""
    return subprocess.run(
        [sys.executable, "-m", "seed", *args],
        cwd=ROOT,
        env={"PATH": os.environ["PATH"], **environ},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_first_run_creates_everything_and_a_second_run_only_verifies(
    console_url: str, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for(console_url)
    first = run_seed(settings, "post-merge")
    assert statuses(first) == {
        "model-provider": "created",
        "stable-model": "updated",  # listed by the new provider, inactive until the seed activates it
        "decision-model": "updated",
        "builtin-tools": "verified",  # a catalog check: nothing to create
        "web-search-credential": "created",
        "ready-knowledge": "created",
        "speech-to-text-model": "created",  # chosen, then checked by transcribing the voice clip
        "secondary-knowledge": "created",
        "full-config-agent": "created",
        "tool-states-agent": "created",
        "dual-retrieval-agent": "created",
        "skill-agent": "created",
    }

    seeded = snapshot(settings)
    second = run_seed(settings, "post-merge")
    assert set(statuses(second).values()) == {"verified"}, second.results
    verified = snapshot(settings)
    for state in (seeded, verified):  # each run revalidates the provider: that is what "verified" means
        for provider in state["/model-providers"]["data"]:
            del provider["validated_at"]
    assert verified == seeded  # and changes nothing else

    console = console_client(settings)
    (provider,) = [p for p in console.list_providers().data if p.name == PROVIDER_NAME]
    assert provider.status == "active" and provider.base_url == f"{settings.replay_url}/v1"
    assert {m.name for m in provider.models if m.active} == {"gpt-4o-mini", "gpt-4o"}
    chosen = console.get_system_models()
    assert chosen.decision_model is not None and chosen.speech_to_text_model is not None
    assert (chosen.decision_model.provider_id, chosen.decision_model.name) == (provider.id, "gpt-4o")
    assert (chosen.speech_to_text_model.provider_id, chosen.speech_to_text_model.name) == (
        provider.id,
        "whisper-1",
    )
    full_config = console.get_agent(console.list_agents("e2e-seed-full-config-agent").data[0].id)
    assert full_config.published is not None and not full_config.has_unpublished_changes
    config = full_config.published.config
    assert len(config.suggested_questions) == 3 and config.opening_statement and config.instructions
    assert config.model is not None and config.model.name == "gpt-4o-mini"
    assert len(config.tools) == 4 and config.knowledge.score_threshold == 0.25


def test_profiles_seed_only_their_tasks(console_url: str, settings_for: Callable[..., Settings]) -> None:
    report = run_seed(settings_for(console_url), "external-runtime")
    assert list(statuses(report)) == [
        "model-provider",
        "stable-model",
        "decision-model",
        "builtin-tools",
        "web-search-credential",
        "ready-knowledge",
        "speech-to-text-model",
    ]
    assert not report.blocked
    assert not console_client(settings_for(console_url)).list_agents("e2e-seed").data


def test_drift_is_planned_by_a_dry_run_then_repaired(
    console_url: str, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for(console_url)
    assert not run_seed(settings, "post-merge").blocked
    console = console_client(settings)
    # Someone "helpfully" edits the environment between runs:
    (credential,) = [c for c in console.list_tool_credentials().data if c.name == WEB_SEARCH_CREDENTIAL]
    console.delete_tool_credential(credential.id)
    ready = console.list_datasets("e2e-seed-ready-knowledge").data[0]
    document = next(d for d in console.list_documents(ready.id).data if d.name == "support-desk-faq.md")
    segment = next(s for s in console.list_segments(ready.id, document.id).data if "HELIX-9" in s.content)
    with raw_api(settings) as api:  # no client method: only a drift test switches a segment off
        api.patch(f"/datasets/{ready.id}/segments/{segment.id}", json={"enabled": False}).raise_for_status()
    tool_states = console.list_agents("e2e-seed-tool-states-agent").data[0]
    edited = console.get_agent(tool_states.id).draft.config.model_copy(update={"instructions": "edited"})
    console.save_draft(tool_states.id, edited)
    dual = console.list_agents("e2e-seed-dual-retrieval-agent").data[0]
    republished = console.get_agent(dual.id).draft.config.model_copy(update={"instructions": "republished"})
    console.save_draft(dual.id, republished)
    console.publish_agent(dual.id)
    (provider,) = [p for p in console.list_providers().data if p.name == PROVIDER_NAME]
    stable = next(m for m in provider.models if m.name == "gpt-4o-mini")
    console.set_model_active(provider.id, stable.id, False)
    console.set_system_models(SystemModels())  # both console models switched off

    drifted = snapshot(settings)
    planned = run_seed(settings, "post-merge", dry_run=True)
    assert snapshot(settings) == drifted

    repaired = run_seed(settings, "post-merge")
    assert statuses(planned) == statuses(repaired)
    assert {task: status for task, status in statuses(repaired).items() if status != "verified"} == {
        "stable-model": "updated",
        "decision-model": "updated",
        "web-search-credential": "created",
        "ready-knowledge": "updated",
        "speech-to-text-model": "created",
        "tool-states-agent": "updated",
        "dual-retrieval-agent": "updated",
    }
    details = {result.task: result.detail for result in repaired.results}
    assert "no enabled segment contains" in details["ready-knowledge"]
    assert details["decision-model"] == "make gpt-4o the console's decision model"
    assert "draft differs in instructions" in details["tool-states-agent"]
    assert "published v3" in details["dual-retrieval-agent"]
    assert set(statuses(run_seed(settings, "post-merge")).values()) == {"verified"}


def test_a_dry_run_on_a_fresh_console_plans_everything_and_changes_nothing(
    console_url: str, settings_for: Callable[..., Settings]
) -> None:
    settings = settings_for(console_url)
    before = snapshot(settings)
    report = run_seed(settings, "post-merge", dry_run=True)
    assert report.dry_run
    assert {task for task, status in statuses(report).items() if status != "created"} == {"builtin-tools"}
    assert all(r.detail.startswith("would") for r in report.results if r.status == "created"), report.results
    assert snapshot(settings) == before


@pytest.fixture
def key_echoing_provider(fake_upstream: FakeUpstream) -> str:
    """A provider that refuses every key and echoes it back, as some real providers do."""
    fake_upstream.api_key = "sk-a-key-nobody-sends"
    fake_upstream.refusal = "Incorrect API key provided: {authorization}"
    return fake_upstream.base_url


def live_environ(console_url: str, artifacts: Path, provider_url: str) -> dict[str, str]:
    return {
        "E2E_BASE_URL": console_url,
        "E2E_ADMIN_EMAIL": ADMIN_EMAIL,
        "E2E_ADMIN_PASSWORD": ADMIN_PASSWORD,
        "E2E_ARTIFACTS_DIR": str(artifacts),
        "E2E_MODEL_MODE": "live",
        "E2E_STABLE_MODEL_BASE_URL": provider_url,
        "E2E_STABLE_MODEL_API_KEY": MODEL_KEY,
        "E2E_WEB_SEARCH_BASE_URL": "http://127.0.0.1:9/search",
        "E2E_WEB_SEARCH_API_KEY": SEARCH_KEY,
    }


def test_a_dead_provider_in_live_mode_blocks_with_owner_remediation_and_the_strict_code(
    console_url: str, tmp_path: Path
) -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"
    result = run_cli(live_environ(console_url, tmp_path, dead), "--profile", "post-merge", "--strict")
    assert result.returncode == EXIT_BLOCKED, result.stdout + result.stderr

    report = json.loads((tmp_path / "seed-report" / "post-merge.json").read_text())
    results = {result["task"]: result for result in report["results"]}
    provider = results["model-provider"]
    assert provider["status"] == "blocked" and provider["owner"] == "seed/model-provider"
    assert "connection refused" in provider["detail"]
    assert "E2E_STABLE_MODEL_BASE_URL" in provider["remediation"]
    assert "make seed PROFILE=post-merge" in provider["remediation"]
    # Dependents are blocked too, naming why: never skipped.
    assert results["full-config-agent"]["status"] == "blocked"
    assert "stable-model" in results["full-config-agent"]["detail"]
    assert report["blocked"] == 8
    assert "blocked" in result.stdout and "owner: seed/model-provider" in result.stdout

    # Without --strict the same run reports, and exits 0.
    assert run_cli(live_environ(console_url, tmp_path, dead), "--profile", "post-merge").returncode == EXIT_OK


def test_secrets_never_reach_the_report_or_the_output(
    console_url: str, tmp_path: Path, key_echoing_provider: str
) -> None:
    environ = live_environ(console_url, tmp_path, key_echoing_provider)
    result = run_cli(environ, "--profile", "prepared", "--strict")
    assert result.returncode == EXIT_BLOCKED
    report_text = (tmp_path / "seed-report" / "prepared.json").read_text()
    assert "HTTP 401: the provider refused the API key" in report_text  # the failure is reported...
    for secret in (MODEL_KEY, SEARCH_KEY, ADMIN_PASSWORD):  # ...but never a secret in it
        for text in (result.stdout, result.stderr, report_text):
            assert secret not in text


def test_the_cli_refuses_to_run_without_a_console_or_with_bad_settings(tmp_path: Path) -> None:
    no_target = run_cli({"E2E_ARTIFACTS_DIR": str(tmp_path)}, "--profile", "prepared")
    assert no_target.returncode == EXIT_USAGE
    assert "E2E_BASE_URL is not set" in no_target.stderr and "make post-merge" in no_target.stderr
    bad = run_cli({"E2E_BASE_URL": "not-a-url"}, "--profile", "prepared")
    assert bad.returncode == EXIT_USAGE and "E2E_BASE_URL" in bad.stderr


def test_an_unreachable_console_blocks_every_task(tmp_path: Path) -> None:
    environ = {"E2E_BASE_URL": f"http://127.0.0.1:{free_port()}", "E2E_ARTIFACTS_DIR": str(tmp_path)}
    result = run_cli(environ, "--profile", "prepared", "--strict")
    assert result.returncode == EXIT_BLOCKED
    report = json.loads((tmp_path / "seed-report" / "prepared.json").read_text())
    assert {r["status"] for r in report["results"]} == {"blocked"}
    assert len(report["results"]) == len(dataset_specs()) + len(agent_specs()) + 6
    assert "cannot sign in to the console" in report["results"][0]["detail"]
