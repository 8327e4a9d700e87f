"""The web app's visitor cookie over https: Secure, SameSite=None and Partitioned (CHIPS), so an
embedded web app keeps its visitor in the embedding site's partition. Python 3.11's
`http.cookies` cannot write `Partitioned`; these tests pin that the console writes it anyway."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from api_shortcuts import BROWSER_HEADERS
from fastapi.testclient import TestClient

from agent_builder.console.app import create_app
from agent_builder.console.config import ConsoleConfig

PASSWORD = "a-deployment-password"  # an https console refuses the default one


def _attributes(set_cookie: str) -> set[str]:
    return {part.strip().lower() for part in set_cookie.split(";")[1:]}


def test_over_https_the_visitor_cookie_is_secure_cross_site_and_partitioned(
    make_client: Callable[..., TestClient], published_agent: dict[str, Any]
) -> None:
    path = published_agent["access"]["web_app_url"].removeprefix("http://testserver")
    https = make_client(
        public_url="https://agents.example.com",
        allowed_hosts=("agents.example.com",),
        admin_password=PASSWORD,
    )
    https.base_url = https.base_url.copy_with(scheme="https", host="agents.example.com")

    response = https.get(path)

    assert response.status_code == 200, response.text
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("ab_visitor="), cookie
    assert {"secure", "httponly", "samesite=none", "partitioned", "path=/chat/"} <= _attributes(cookie)


def test_over_plain_http_the_visitor_cookie_stays_first_party(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    response = client.get(published_agent["access"]["web_app_url"].removeprefix("http://testserver"))

    assert response.status_code == 200, response.text
    attributes = _attributes(response.headers["set-cookie"])
    assert "samesite=lax" in attributes
    assert not {"secure", "partitioned", "samesite=none"} & attributes


def test_a_console_behind_an_https_proxy_serves_the_web_app(
    db_path: Any, published_agent: dict[str, Any]
) -> None:
    """The console itself on plain http, told it is public at an https URL (as behind a proxy)."""
    config = ConsoleConfig(db_path=db_path, public_url="https://agents.example.com", admin_password=PASSWORD)
    app = create_app(config)
    with TestClient(app, headers=BROWSER_HEADERS) as behind_proxy:
        response = behind_proxy.get(
            published_agent["access"]["web_app_url"].removeprefix("http://testserver")
        )

    assert response.status_code == 200, response.text
    assert "partitioned" in _attributes(response.headers["set-cookie"])
