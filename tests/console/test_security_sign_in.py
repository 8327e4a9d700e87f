"""Sign-in under attack: where `next` may lead, throttled guessing, unknown accounts that cost
the same, sessions that end with a password change, and cookies that are Secure behind https."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from api_shortcuts import ADMIN_EMAIL, ADMIN_PASSWORD, BROWSER_HEADERS, HTTPS_ADMIN_PASSWORD, assert_error
from fastapi.testclient import TestClient

from agent_builder.console import auth
from agent_builder.console.errors import ApiError
from agent_builder.console.security.redirects import safe_next
from agent_builder.console.security.throttle import FREE_FAILURES, LoginThrottle
from tests.console.next_vectors import CONSOLE_PATHS, ELSEWHERE

LOGIN = "/console/api/login"
RIGHT = {"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}
WRONG = {"email": ADMIN_EMAIL, "password": "not-the-password"}


@pytest.mark.parametrize("target", ELSEWHERE)
def test_next_never_leads_off_the_console(target: str) -> None:
    assert safe_next(target) == "/agents"


@pytest.mark.parametrize("target", CONSOLE_PATHS)
def test_next_keeps_console_paths(target: str) -> None:
    assert safe_next(target) == target


def test_the_signed_in_redirect_follows_the_same_rule(client: TestClient) -> None:
    for target, expected in [
        ("/%09/evil.example/", "/agents"),
        ("//evil", "/agents"),
        ("/knowledge", "/knowledge"),
    ]:
        response = client.get("/login", params={"next": target}, follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"] == expected, target


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(client: TestClient) -> Clock:
    clock = Clock()
    client.app.state.login_throttle = LoginThrottle(clock=clock)
    return clock


def _login(client: TestClient, body: dict[str, str], address: str = "192.0.2.1") -> Any:
    return TestClient(client.app, client=(address, 1234), headers=BROWSER_HEADERS).post(LOGIN, json=body)


def test_wrong_passwords_cost_a_growing_delay_and_the_right_one_works_after_it(
    client: TestClient, clock: Clock
) -> None:
    for _ in range(FREE_FAILURES):
        assert_error(_login(client, WRONG), 401, "invalid_credentials")
    assert_error(_login(client, WRONG), 401, "invalid_credentials")  # counted: now 1 s
    for delay in (1, 2, 4):
        for body in (WRONG, RIGHT):  # while it runs, even the right password waits
            locked = _login(client, body)
            assert_error(locked, 429, "too_many_attempts")
            assert locked.headers["retry-after"] == str(delay)
        clock.now += delay
        if delay < 4:
            assert_error(_login(client, WRONG), 401, "invalid_credentials")
    assert _login(client, RIGHT).status_code == 200  # the delay passed: in, and the count is reset
    assert_error(_login(client, WRONG), 401, "invalid_credentials")


def test_the_delay_stops_doubling_at_15_minutes() -> None:
    clock = Clock()
    throttle = LoginThrottle(clock=clock)
    for _ in range(FREE_FAILURES + 20):  # uncapped, the last delay would be 2**19 s
        clock.now += 10**6  # past any delay so far: each wrong password is checked and counted
        with pytest.raises(PermissionError), throttle.attempt(ADMIN_EMAIL, "192.0.2.1"):
            raise PermissionError("wrong password")
    with pytest.raises(ApiError) as locked, throttle.attempt(ADMIN_EMAIL, "192.0.2.1"):
        pass
    assert locked.value.headers == {"Retry-After": "900"}


def test_the_delay_holds_per_client_and_per_account_for_clients_that_failed(
    client: TestClient, clock: Clock
) -> None:
    for number in range(FREE_FAILURES + 1):  # one client guessing many accounts
        _login(client, {"email": f"user{number}@example.com", "password": "x"}, "198.51.100.7")
    assert_error(_login(client, RIGHT, "198.51.100.7"), 429, "too_many_attempts")
    assert _login(client, RIGHT, "203.0.113.9").status_code == 200  # another client is not held up
    for number in range(FREE_FAILURES + 1):  # many clients guessing one account, once each
        assert_error(_login(client, WRONG, f"203.0.113.{number + 10}"), 401, "invalid_credentials")
    # Each has failed: now it waits for the account's delay too, even with the right password.
    assert_error(_login(client, RIGHT, "203.0.113.10"), 429, "too_many_attempts")
    assert_error(_login(client, WRONG, "203.0.113.11"), 429, "too_many_attempts")
    # A new address still gets its one try (and a wrong one counts for the account).
    assert_error(_login(client, WRONG, "203.0.113.50"), 401, "invalid_credentials")
    assert_error(_login(client, WRONG, "203.0.113.50"), 429, "too_many_attempts")


def test_failures_elsewhere_never_lock_out_a_client_that_has_not_failed(
    client: TestClient, clock: Clock
) -> None:
    """Issue 25, item 6: 7 wrong passwords from one client, then one every 15 minutes, used to
    answer the right password from any other client with 429."""
    attacker = "198.51.100.66"
    for _ in range(FREE_FAILURES + 2):
        _login(client, WRONG, attacker)
    assert_error(_login(client, RIGHT, attacker), 429, "too_many_attempts")  # its own delay holds
    for _ in range(8):  # keeping it up: one guess each time its delay (up to 15 min) has passed
        clock.now += 900
        assert_error(_login(client, WRONG, attacker), 401, "invalid_credentials")
        assert _login(client, RIGHT, "203.0.113.9").status_code == 200
        assert _login(client, RIGHT, "2001:db8:1::5").status_code == 200
    for number in range(50):  # a hundred addresses guessing once each
        _login(client, WRONG, f"192.0.2.{number + 100}")
        _login(client, WRONG, f"2001:db8:{number + 100:x}::1")
    assert _login(client, RIGHT, "203.0.113.77").status_code == 200


def test_an_ipv6_client_is_its_64_network(client: TestClient, clock: Clock) -> None:
    for number in range(FREE_FAILURES + 1):  # a fresh address of the same /64 for every guess
        _login(client, {"email": f"user{number}@example.com", "password": "x"}, f"2001:db8:7:7::{number + 1}")
    assert_error(_login(client, RIGHT, "2001:db8:7:7::ffff"), 429, "too_many_attempts")
    assert _login(client, RIGHT, "2001:db8:7:8::1").status_code == 200  # the next /64 is another client


def test_behind_a_trusted_proxy_the_client_is_the_forwarded_address(
    make_client: Callable[..., TestClient],
) -> None:
    app = make_client(trusted_proxies=("10.0.0.1",)).app
    app.state.login_throttle = LoginThrottle(clock=Clock())
    proxy = TestClient(app, client=("10.0.0.1", 4000), headers=BROWSER_HEADERS)

    def via_proxy(body: dict[str, str], forwarded_for: str) -> Any:
        return proxy.post(LOGIN, json=body, headers={"X-Forwarded-For": forwarded_for})

    for number in range(FREE_FAILURES + 1):
        # The guesser writes an address of its own choosing in front; the proxy appends the real one.
        assert_error(via_proxy(WRONG, f"192.0.2.{number}, 198.51.100.66"), 401, "invalid_credentials")
    assert_error(via_proxy(RIGHT, "203.0.113.9, 198.51.100.66"), 429, "too_many_attempts")
    assert via_proxy(RIGHT, "203.0.113.9").status_code == 200  # everyone else behind the proxy


def test_unknown_accounts_cost_the_same_hashing_as_known_ones(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    real = hashlib.scrypt

    def counted(*args: Any, **kwargs: Any) -> bytes:
        calls.append(kwargs["n"])
        return real(*args, **kwargs)

    monkeypatch.setattr(auth.hashlib, "scrypt", counted)
    assert_error(_login(client, WRONG), 401, "invalid_credentials")
    known = list(calls)
    calls.clear()
    assert_error(_login(client, {"email": "nobody@example.com", "password": "x"}), 401, "invalid_credentials")
    assert calls == known and len(known) == 1  # one scrypt of the same cost, either way


def test_a_new_admin_password_ends_every_session(make_client: Callable[..., TestClient]) -> None:
    first = make_client()
    token = first.post(LOGIN, json=RIGHT).json()["access_token"]
    assert first.get("/console/api/me").status_code == 200
    restarted = make_client(admin_password="a-brand-new-password")  # same database
    bearer = {"Authorization": f"Bearer {token}"}
    assert_error(restarted.get("/console/api/me", headers=bearer), 401, "unauthorized")
    assert_error(restarted.post(LOGIN, json=RIGHT), 401, "invalid_credentials")
    new = {"email": ADMIN_EMAIL, "password": "a-brand-new-password"}
    new_token = restarted.post(LOGIN, json=new).json()["access_token"]
    unchanged = make_client(admin_password="a-brand-new-password")  # same password: sessions stay
    assert (
        unchanged.get("/console/api/me", headers={"Authorization": f"Bearer {new_token}"}).status_code == 200
    )


def _session_cookie(response: Any) -> str:
    return next(value for value in response.headers.get_list("set-cookie") if value.startswith("ab_session="))


def test_the_session_cookie_is_secure_behind_https(make_client: Callable[..., TestClient]) -> None:
    plain = _session_cookie(make_client().post(LOGIN, json=RIGHT))
    assert "Secure" not in plain and "HttpOnly" in plain and "SameSite=lax" in plain
    public_https = make_client(public_url="https://agents.example.com", admin_password=HTTPS_ADMIN_PASSWORD)
    https_login = {"email": ADMIN_EMAIL, "password": HTTPS_ADMIN_PASSWORD}
    assert "Secure" in _session_cookie(public_https.post(LOGIN, json=https_login))

    proxied = make_client(trusted_proxies=("10.0.0.1",)).app
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.5"}
    trusted = TestClient(proxied, client=("10.0.0.1", 4000), headers={"Origin": "https://testserver"})
    assert "Secure" in _session_cookie(trusted.post(LOGIN, json=RIGHT, headers=forwarded))
    # Anyone else saying "https" is not believed (and uvicorn's own proxy headers are off).
    untrusted = TestClient(proxied, client=("192.0.2.50", 4000), headers=BROWSER_HEADERS)
    assert "Secure" not in _session_cookie(untrusted.post(LOGIN, json=RIGHT, headers=forwarded))
