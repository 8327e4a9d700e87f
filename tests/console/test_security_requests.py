"""What guards every request (docs/console.md, "Threat model"): cross-origin changes with the
console's cookies, the Host header, security headers, no slash redirects, and an `Allow` header
that names every method of a resource."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from api_shortcuts import ADMIN_EMAIL, ADMIN_PASSWORD, HTTPS_ADMIN_PASSWORD, assert_error, create_agent
from fastapi.testclient import TestClient

import agent_builder.console.ui

UI = Path(agent_builder.console.ui.__file__).parent
EVIL = {"Origin": "https://evil.example"}
AGENTS = "/console/api/agents"


def _bearer(client: TestClient, password: str = ADMIN_PASSWORD) -> dict[str, str]:
    login = {"email": ADMIN_EMAIL, "password": password}
    return {"Authorization": f"Bearer {client.post('/console/api/login', json=login).json()['access_token']}"}


# --- cross-origin changes -------------------------------------------------------------------


def test_cookie_changes_from_another_origin_are_refused_and_change_nothing(client: TestClient) -> None:
    agent = create_agent(client)
    refused = [
        client.post(AGENTS, json={"name": "Planted"}, headers=EVIL),
        client.patch(f"{AGENTS}/{agent['id']}", json={"name": "Renamed"}, headers=EVIL),
        client.delete(f"{AGENTS}/{agent['id']}", headers=EVIL),
        client.post(f"{AGENTS}/{agent['id']}/files", files={"file": ("a.txt", b"hi")}, headers=EVIL),
        client.post(f"{AGENTS}", data={"name": "Form"}, headers=EVIL),
        client.post("/console/api/logout", headers=EVIL),
    ]
    for response in refused:
        body = assert_error(response, 403, "cross_origin_request")
        assert "evil.example" in body["message"]
    assert [a["name"] for a in client.get(AGENTS).json()["data"]] == ["Support agent"]
    assert client.get(f"{AGENTS}/{agent['id']}/files").json()["data"] == []
    assert client.get("/console/api/me").status_code == 200  # logout was refused: still signed in


@pytest.mark.parametrize("origin", ["http://testserver:8080", "https://testserver", "http://testserver:443"])
def test_another_port_or_scheme_of_the_same_host_is_another_origin(client: TestClient, origin: str) -> None:
    # Same host, so the same site: the browser sends the SameSite=Lax session cookie along.
    refused = client.post("/console/api/logout", headers={"Origin": origin})
    assert origin in assert_error(refused, 403, "cross_origin_request")["message"]
    assert client.get("/console/api/me").status_code == 200
    own = client.post(AGENTS, json={"name": "Mine"}, headers={"Origin": "http://testserver:80"})
    assert own.status_code == 201, own.text


def test_a_browser_that_names_no_origin_must_say_same_origin(client: TestClient) -> None:
    # Without Origin a browser still sends Sec-Fetch-Site; a cookie with neither is not trusted.
    bare = TestClient(client.app, cookies=client.cookies)  # the cookie, and nothing about its page
    assert_error(
        bare.post(AGENTS, json={"name": "x"}, headers={"Sec-Fetch-Site": "cross-site"}),
        403,
        "cross_origin_request",
    )
    same = bare.post(AGENTS, json={"name": "Mine"}, headers={"Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 201, same.text
    assert_error(bare.post(AGENTS, json={"name": "x"}), 403, "cross_origin_request")
    assert_error(
        bare.post(AGENTS, json={"name": "x"}, headers={"Origin": "null"}), 403, "cross_origin_request"
    )


def test_bearer_calls_and_reads_are_not_affected(client: TestClient, anon: TestClient) -> None:
    headers = {**EVIL, **_bearer(anon)}
    assert anon.post(AGENTS, json={"name": "By token"}, headers=headers).status_code == 201
    assert client.get(AGENTS, headers=EVIL).status_code == 200  # reading changes nothing


def test_the_web_app_cookie_is_guarded_the_same_way(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    web_app = TestClient(client.app)
    page = web_app.get(published_agent["access"]["web_app_url"].removeprefix("http://testserver"))
    assert page.status_code == 200 and web_app.cookies.get("ab_visitor")
    token = published_agent["access"]["web_app_url"].rsplit("/", 1)[1]
    assert_error(
        web_app.post(f"/chat/{token}/api/messages", json={"query": "Hi"}, headers=EVIL),
        403,
        "cross_origin_request",
    )


# --- Host header ----------------------------------------------------------------------------


def test_an_unknown_host_is_refused_before_anything_uses_it(client: TestClient) -> None:
    for path in ("/agents", "/console/api/me", "/docs/service-api"):
        body = assert_error(client.get(path, headers={"Host": "evil.example"}), 400, "invalid_host")
        assert "AGENT_BUILDER_ALLOWED_HOSTS" in body["message"]
    # The default: the address the connection arrived at (TestClient's is `testserver`) and localhost.
    assert client.get("/console/api/me", headers={"Host": "localhost:5001"}).status_code == 200


def test_allowed_hosts_and_the_public_url_decide_the_urls(
    make_client: Any, published_agent: dict[str, Any]
) -> None:
    proxied = make_client(
        allowed_hosts=("console.internal",),
        public_url="https://agents.example.com",
        admin_password=HTTPS_ADMIN_PASSWORD,  # over https the default one is refused
    )
    headers = {**_bearer(proxied, HTTPS_ADMIN_PASSWORD), "Host": "console.internal"}
    access = proxied.get(f"{AGENTS}/{published_agent['id']}", headers=headers).json()["access"]
    assert access["service_api_base_url"] == "https://agents.example.com/v1"
    assert proxied.get("/healthz", headers={"Host": "agents.example.com"}).status_code == 200
    assert_error(proxied.get("/healthz", headers={"Host": "localhost"}), 400, "invalid_host")


# --- headers --------------------------------------------------------------------------------

CONSOLE_PAGES = ("/login", "/agents", "/knowledge", "/settings/model-providers", "/settings/tools")


def _assert_common_headers(response: Any) -> str:
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "same-origin"
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    return policy


def test_console_pages_have_a_strict_policy_and_cannot_be_framed(client: TestClient) -> None:
    agent = create_agent(client)
    dataset = client.post("/console/api/datasets", json={"name": "D"}).json()
    paths = (*CONSOLE_PAGES, f"/agents/{agent['id']}/configure", f"/agents/{agent['id']}/access")
    for path in (*paths, f"/knowledge/{dataset['id']}", "/docs/service-api", "/no-such-page"):
        response = client.get(path)
        assert response.headers["content-type"].startswith("text/html"), path
        policy = _assert_common_headers(response)
        assert "frame-ancestors 'none'" in policy, path
        assert response.headers["x-frame-options"] == "DENY", path
        assert response.headers["cache-control"] == "no-store", path


def test_the_web_app_stays_embeddable(client: TestClient, published_agent: dict[str, Any]) -> None:
    response = client.get(published_agent["access"]["web_app_url"].removeprefix("http://testserver"))
    policy = _assert_common_headers(response)
    assert "frame-ancestors" not in policy
    assert "x-frame-options" not in response.headers


def test_responses_that_carry_a_secret_are_never_stored(client: TestClient, anon: TestClient) -> None:
    login = anon.post("/console/api/login", json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD})
    agent = create_agent(client)
    key = client.post(f"{AGENTS}/{agent['id']}/api-keys", json={})
    for response in (login, key, client.get("/console/api/me")):
        assert response.headers["cache-control"] == "no-store"
    assert "no-store" not in client.get("/static/console.css").headers.get("cache-control", "")


def test_no_page_or_script_has_inline_code_or_styles() -> None:
    """The policy forbids inline script and style: the pages and scripts must not need them."""
    inline = re.compile(r"<script(?![^>]*\bsrc=)|<style|\sstyle=|\son[a-z]+=", re.IGNORECASE)
    for template in sorted((UI / "templates").glob("*.html")):
        assert not inline.search(template.read_text()), template.name
    dynamic = re.compile(
        r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|\.style\b"
    )
    for script in sorted((UI / "static").glob("*.js")):
        if script.name == "embed.js":
            continue  # the chat button script runs on other sites' pages, under their policy
        # The embed snippet is text for another site's HTML, not markup of this page.
        text = script.read_text().replace(
            'style="width: 100%; height: 100%; min-height: 700px; border: 0"', ""
        )
        assert not dynamic.search(text), script.name
        assert not re.search(r"setAttribute\(\s*['\"](style|on)", text), script.name


# --- routing --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/console/api/agents/", "/v1/info/", "/healthz/", "/console/api/me/"])
def test_a_trailing_slash_is_a_json_404_never_a_redirect(client: TestClient, path: str) -> None:
    response = client.get(path, follow_redirects=False)
    assert_error(response, 404, "not_found")
    assert "location" not in response.headers


def test_an_encoded_dot_dot_cannot_reach_the_parent(client: TestClient) -> None:
    agent = create_agent(client)
    for tail in ("files/%2e%2e%2f", "files/%2e%2e%2f%2e%2e%2f", "api-keys/%2e%2e%2f"):
        response = client.delete(f"{AGENTS}/{agent['id']}/{tail}", follow_redirects=False)
        assert response.status_code == 404 and "location" not in response.headers, tail
    assert client.get(f"{AGENTS}/{agent['id']}").status_code == 200


@pytest.mark.parametrize(
    ("path", "methods"),
    [
        ("/console/api/agents", "GET, POST"),
        ("/console/api/agents/x", "DELETE, GET, PATCH"),
        ("/console/api/agents/x/files", "GET, POST"),
        ("/console/api/datasets/x/documents/y", "DELETE, GET"),
        ("/console/api/model-providers", "GET, POST"),
    ],
)
def test_405_lists_every_method_of_the_resource(client: TestClient, path: str, methods: str) -> None:
    for method in ("OPTIONS", "PUT", "TRACE"):
        response = client.request(method, path)
        assert_error(response, 405, "method_not_allowed")
        assert response.headers["allow"] == methods, (method, path)


def test_the_schema_documents_what_any_body_can_get(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if "requestBody" in operation:
                assert {"400", "413"} <= set(operation["responses"]), (method, path)
            if method in ("post", "put", "patch", "delete"):
                assert "403" in operation["responses"], (method, path)
    publish = schema["paths"]["/console/api/agents/{agent_id}/publish"]["post"]["responses"]
    assert publish["409"]["content"]["application/json"]["schema"]["$ref"].endswith("/DraftInvalidResponse")
