"""Fixtures for the console UI tests: a real console process (port 0, temp database), the fake
upstream as its model provider, an API client for setup, and signed-in Chromium pages."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.console_api_setup import activate_model, signed_in
from tests.console_ui.page_errors import watch_errors
from tests.fakes.upstream import MODEL, UpstreamServer
from tests.product_services import agent_builder, running

ADMIN_EMAIL = "ui-tests@example.com"
ADMIN_PASSWORD = "ui-tests-password"


@pytest.fixture(scope="session")
def console_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir = tmp_path_factory.mktemp("console")
    env = {
        "AGENT_BUILDER_ADMIN_EMAIL": ADMIN_EMAIL,
        "AGENT_BUILDER_ADMIN_PASSWORD": ADMIN_PASSWORD,
        # Empty is unset: no public URL, no runtime, no test seeding router.
        "AGENT_BUILDER_PUBLIC_URL": "",
        "AGENT_BUILDER_RUNTIME_URL": "",
        "AGENT_BUILDER_ENABLE_TEST_SEED": "",
    }
    argv = agent_builder("console", "--host", "127.0.0.1", "--port", "0", "--db", str(workdir / "console.db"))
    with running(argv, "AGENT_BUILDER_READY", workdir / "console.log", env=env) as console:
        yield console.url


@pytest.fixture(scope="session")
def api(console_url: str) -> Iterator[httpx.Client]:
    """Setup client, signed in with a bearer token like the suite's API setup."""
    with signed_in(console_url, ADMIN_EMAIL, ADMIN_PASSWORD, timeout_s=15) as client:
        yield client


@pytest.fixture(scope="session")
def active_model(api: httpx.Client, upstream_server: UpstreamServer) -> dict[str, str]:
    """An active chat model of the fake upstream: `{provider_id, name}`."""
    name = f"UI fake {uuid.uuid4().hex[:6]}"
    fresh = upstream_server.fresh()  # registered as it is now: no key or models a test left
    return activate_model(api, name, fresh.base_url, MODEL, "sk-ui-tests")


@pytest.fixture
def agent(api: httpx.Client) -> Iterator[dict]:
    created = api.post("/console/api/agents", json={"name": f"UI test {uuid.uuid4().hex[:8]}"})
    created.raise_for_status()
    yield created.json()
    api.delete(f"/console/api/agents/{created.json()['id']}")


@pytest.fixture
def page(browser: Browser, console_url: str) -> Iterator[Page]:
    """A signed-in page. Fails the test on uncaught script errors or console errors; failed
    HTTP responses the test provokes on purpose (409, 403) are not script errors."""
    context = browser.new_context(base_url=console_url, viewport={"width": 1280, "height": 800})
    context.request.post("/console/api/login", data={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD})
    page = context.new_page()
    errors = watch_errors(page)
    yield page
    context.close()
    assert not errors, errors
