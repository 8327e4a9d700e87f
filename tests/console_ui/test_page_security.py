"""In a real browser: every page runs under its Content-Security-Policy without a violation, and
login.js sends a signed-in user exactly where the server's rule would (the same vectors)."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from agent_builder.console.security.redirects import safe_next
from tests.console.next_vectors import CONSOLE_PATHS, ELSEWHERE
from tests.console_ui.conftest import ADMIN_EMAIL, ADMIN_PASSWORD
from tests.console_ui.test_web_app import publish


def test_every_page_runs_without_a_policy_violation(
    page: Page, api: httpx.Client, agent: dict, active_model: dict
) -> None:
    violations: list[str] = []
    page.on(
        "console",
        lambda message: "Content Security Policy" in message.text and violations.append(message.text),
    )
    publish(api, agent, active_model)
    dataset = api.post("/console/api/datasets", json={"name": "CSP dataset"}).raise_for_status().json()
    web_app = api.get(f"/console/api/agents/{agent['id']}").json()["access"]["web_app_url"]
    paths = [
        "/agents",
        f"/agents/{agent['id']}/configure",
        f"/agents/{agent['id']}/access",
        "/knowledge",
        f"/knowledge/{dataset['id']}",
        "/settings/model-providers",
        "/settings/tools",
        "/docs/service-api",
        web_app,
    ]
    for path in paths:
        response = page.goto(path)
        assert response is not None and "script-src 'self'" in response.headers["content-security-policy"], (
            path
        )
        expect(page.locator("main")).not_to_have_attribute("aria-busy", "true")
    api.delete(f"/console/api/datasets/{dataset['id']}")
    assert not violations, violations


def test_login_js_follows_the_servers_rule_for_next(page: Page) -> None:
    page.context.clear_cookies()
    page.goto("/login")
    rule = page.evaluate("async () => (await import('/static/safe_next.js')).safeNext.toString()")
    assert "PATH" in rule  # the module the login page uses
    results = page.evaluate(
        "async (targets) => { const { safeNext } = await import('/static/safe_next.js');"
        " return targets.map((target) => safeNext(target)); }",
        [*ELSEWHERE, *CONSOLE_PATHS],
    )
    assert results == [safe_next(target) for target in [*ELSEWHERE, *CONSOLE_PATHS]]


def test_a_sign_in_link_to_another_site_lands_on_the_console(page: Page, console_url: str) -> None:
    page.context.clear_cookies()
    page.goto("/login?next=%2F%09%2Fevil.example%2F")
    page.get_by_label("Email").fill(ADMIN_EMAIL)
    page.get_by_label("Password").fill(ADMIN_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{console_url}/agents")
