"""The leftover audit reports what a run left in the console, and only that run's resources."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from support.api.console import ConsoleClient, sign_in
from support.lanes.audit import every_resource, left_behind, leftover_failure, leftovers
from support.stack import Service, console_command, start_service, wait_healthy


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ConsoleClient]:
    tmp = tmp_path_factory.mktemp("audit")
    argv, env = console_command(tmp / "console.db", "admin@example.com", "admin-password")
    service: Service = start_service(
        "console", argv, ready_prefix="AGENT_BUILDER_READY", log_path=Path(tmp) / "console.log", env=env
    )
    try:
        wait_healthy(service.url + "/healthz")
        yield ConsoleClient(service.url, sign_in(service.url, "admin@example.com", "admin-password"))
    finally:
        service.stop()


def test_resources_named_for_the_run_are_reported(console: ConsoleClient) -> None:
    agent = console.create_agent("E2E-audit1-w0-forgotten-agent-1")
    dataset = console.create_dataset("E2E-audit1-w1-forgotten-dataset-2")
    provider = console.create_provider("E2E-audit1-w0-forgotten-provider-4", "http://127.0.0.1:9/v1", "sk-x")
    credential = console.create_tool_credential(
        "web_search", "E2E-audit1-w0-forgotten-credential-5", "tvly-x", "http://127.0.0.1:9"
    )
    console.create_agent("E2E-other9-w0-someone-elses-3")
    console.create_agent("Hand-made agent")

    assert sorted(leftovers(console, "audit1")) == [
        ("agent", "E2E-audit1-w0-forgotten-agent-1"),
        ("dataset", "E2E-audit1-w1-forgotten-dataset-2"),
        ("model provider", "E2E-audit1-w0-forgotten-provider-4"),
        ("tool credential", "E2E-audit1-w0-forgotten-credential-5"),
    ]
    # A worker audits only its own names: another worker may still be using its resources.
    assert leftovers(console, "audit1", "w1") == [("dataset", "E2E-audit1-w1-forgotten-dataset-2")]
    failure = leftover_failure(
        console, "audit1", "w0", {"E2E-audit1-w0-forgotten-agent-1": 'features/a.feature:3 "Makes an agent"'}
    )
    assert failure is not None and failure.kind == "leftovers"
    assert 'agent E2E-audit1-w0-forgotten-agent-1 (created by features/a.feature:3 "Makes an agent")' in (
        failure.message
    )
    assert failure.fix is not None and "world.register_cleanup" in failure.fix

    console.delete_agent(agent.id)
    console.delete_dataset(dataset.id)
    console.delete_provider(provider.id)
    console.delete_tool_credential(credential.id)
    assert leftovers(console, "audit1") == []
    assert leftover_failure(console, "audit1", "w0", {}) is None


def test_what_a_scenario_left_behind_is_found_whatever_its_name(console: ConsoleClient) -> None:
    """Each scenario is checked against what the console held when it started (World.close): a
    resource without the run's name is caught too, and another worker's are its own business."""
    for number in range(101):  # more than a page of agents
        console.create_agent(f"Background agent {number}")
    before = every_resource(console)
    assert ("agent", "Background agent 0") in before and ("agent", "Background agent 100") in before

    console.create_agent("Hand-made by a step")
    console.create_agent("E2E-audit2-w1-still-in-use-7")  # another worker of the run
    console.create_agent("E2E-audit2-w0-mine-8")
    console.create_dataset("Unnamed dataset")

    assert left_behind(before, every_resource(console), "audit2", "w0") == [
        ("agent", "E2E-audit2-w0-mine-8"),
        ("agent", "Hand-made by a step"),
        ("dataset", "Unnamed dataset"),
    ]
    assert left_behind(before, before, "audit2", "w0") == []
