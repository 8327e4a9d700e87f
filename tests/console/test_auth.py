from __future__ import annotations

from collections.abc import Callable

from api_shortcuts import ADMIN_EMAIL, ADMIN_PASSWORD, assert_error
from fastapi.testclient import TestClient

from agent_builder.console import auth


def test_login_sets_an_httponly_session_cookie_and_returns_a_token(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client()
    response = client.post("/console/api/login", json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD})
    assert response.status_code == 200
    body = response.json()
    assert body["email"] == ADMIN_EMAIL and len(body["access_token"]) >= 32
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"ab_session={body['access_token']};")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert client.get("/console/api/me").json() == {"email": ADMIN_EMAIL}


def test_bearer_token_works_without_the_cookie(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    token = client.post("/console/api/login", json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}).json()[
        "access_token"
    ]
    client.cookies.clear()
    assert_error(client.get("/console/api/me"), 401, "unauthorized")
    response = client.get("/console/api/me", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200 and response.json() == {"email": ADMIN_EMAIL}


def test_wrong_credentials_get_401_and_no_cookie(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    for email, password in ((ADMIN_EMAIL, "wrong"), ("nobody@example.com", ADMIN_PASSWORD)):
        response = client.post("/console/api/login", json={"email": email, "password": password})
        body = assert_error(response, 401, "invalid_credentials")
        assert body["message"] == "Invalid email or password."
        assert "set-cookie" not in response.headers
    assert_error(client.get("/console/api/me"), 401, "unauthorized")


def test_email_is_case_insensitive(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    response = client.post(
        "/console/api/login", json={"email": " ADMIN@Example.com ", "password": ADMIN_PASSWORD}
    )
    assert response.status_code == 200
    assert response.json()["email"] == ADMIN_EMAIL


def test_login_body_is_validated(make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    body = assert_error(
        client.post("/console/api/login", json={"email": ADMIN_EMAIL}), 422, "invalid_request"
    )
    assert body["errors"] == [{"field": "password", "message": "Field required"}]
    assert "password" in body["message"]


def test_logout_revokes_the_session_for_cookie_and_bearer(client: TestClient) -> None:
    token = client.cookies.get("ab_session")
    assert token
    response = client.post("/console/api/logout")
    assert response.status_code == 204 and response.content == b""
    assert 'ab_session=""' in response.headers["set-cookie"] or "Max-Age=0" in response.headers["set-cookie"]
    assert_error(
        client.get("/console/api/me", headers={"Authorization": f"Bearer {token}"}), 401, "unauthorized"
    )
    assert_error(client.post("/console/api/logout"), 401, "unauthorized")


def test_garbage_tokens_are_rejected(anon: TestClient) -> None:
    for headers in (
        {"Authorization": "Bearer nope"},
        {"Authorization": "Basic abc"},
        {"Cookie": "ab_session=nope"},
    ):
        assert_error(anon.get("/console/api/me", headers=headers), 401, "unauthorized")


def test_admin_password_follows_the_configuration(make_client: Callable[..., TestClient]) -> None:
    make_client()  # bootstraps the admin with the default password
    client = make_client(admin_password="rotated-password")
    assert_error(
        client.post("/console/api/login", json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}),
        401,
        "invalid_credentials",
    )
    ok = client.post("/console/api/login", json={"email": ADMIN_EMAIL, "password": "rotated-password"})
    assert ok.status_code == 200


def test_sessions_survive_an_app_restart(make_client: Callable[..., TestClient]) -> None:
    first = make_client()
    token = first.post("/console/api/login", json={"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}).json()[
        "access_token"
    ]
    second = make_client()
    assert second.get("/console/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_passwords_are_stored_as_salted_scrypt_hashes(client: TestClient) -> None:
    with client.app.state.db.read() as conn:
        (stored,) = conn.execute("SELECT password_hash FROM admins").fetchone()
        tokens = [row[0] for row in conn.execute("SELECT token_hash FROM sessions")]
    assert ADMIN_PASSWORD not in stored and stored.startswith("scrypt$")
    assert auth.verify_password(ADMIN_PASSWORD, stored) and not auth.verify_password(
        "admin-passwordx", stored
    )
    assert auth.hash_password(ADMIN_PASSWORD) != auth.hash_password(ADMIN_PASSWORD)  # salted
    # Sessions are stored hashed: the cookie value itself is not in the database.
    assert client.cookies.get("ab_session") not in tokens
    assert auth.token_hash(client.cookies["ab_session"]) in tokens
