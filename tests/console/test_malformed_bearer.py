"""A malformed bearer is not a bearer (issue 25, item 3): `Authorization: Bearer` with no token
(or only spaces) skipped the cross-origin check while the session cookie still authenticated.
Now such a header counts as absent: the cookie rules apply, and it never authenticates itself."""

from __future__ import annotations

import pytest
from api_shortcuts import ADMIN_EMAIL, ADMIN_PASSWORD, assert_error
from fastapi.testclient import TestClient

from agent_builder.console.auth import bearer_token

EVIL = {"Origin": "https://evil.example"}
AGENTS = "/console/api/agents"
MALFORMED = ["Bearer", "Bearer ", "Bearer    ", "bearer \t", "Bearer a b"]


@pytest.mark.parametrize("authorization", MALFORMED)
def test_a_cookie_change_from_another_origin_with_a_malformed_bearer_is_refused(
    client: TestClient, authorization: str
) -> None:
    response = client.post(AGENTS, json={"name": "Planted"}, headers={**EVIL, "Authorization": authorization})
    assert_error(response, 403, "cross_origin_request")
    assert client.get(AGENTS).json()["data"] == []


@pytest.mark.parametrize("authorization", MALFORMED)
def test_a_malformed_bearer_does_not_authenticate_and_does_not_hide_the_cookie(
    client: TestClient, anon: TestClient, authorization: str
) -> None:
    headers = {"Authorization": authorization}
    assert_error(anon.get("/console/api/me", headers=headers), 401, "unauthorized")
    # With the cookie beside it, the cookie is what signs in (from the console's own pages).
    assert client.get("/console/api/me", headers=headers).json() == {"email": ADMIN_EMAIL}


def test_a_well_formed_bearer_is_still_exempt(anon: TestClient) -> None:
    login = {"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}
    token = anon.post("/console/api/login", json=login).json()["access_token"]
    headers = {**EVIL, "Authorization": f"Bearer {token}"}
    assert anon.post(AGENTS, json={"name": "By token"}, headers=headers).status_code == 201


@pytest.mark.parametrize(
    ("header", "token"),
    [
        ("Bearer abc", "abc"),
        ("bearer  abc ", "abc"),
        ("BEARER abc", "abc"),
        (None, None),
        ("", None),
        ("Basic abc", None),
        ("Bearerabc", None),
        *((header, None) for header in MALFORMED),
    ],
)
def test_bearer_token_reads_only_a_well_formed_header(header: str | None, token: str | None) -> None:
    assert bearer_token(header) == token
