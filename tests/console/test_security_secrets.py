"""Secrets at rest and in what the console says: provider keys, tool secrets and agent
environment variables are stored
encrypted (the key from AGENT_BUILDER_SECRET_KEY or a 0600 file beside the database, rotatable),
and no key, URL password or query key appears in a response, a provider error or a log."""

from __future__ import annotations

import logging
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from api_shortcuts import PROVIDER_KEY, sign_in
from cryptography.fernet import Fernet
from fastapi.testclient import TestClient

from agent_builder import cli
from agent_builder.console import crypto
from agent_builder.console.config import ConsoleConfig
from agent_builder.console.db import Database, new_id, utc_now
from agent_builder.redaction import scrub
from agent_builder.settings import ConfigError
from tests.fakes.upstream import FakeUpstream, Raw
from tests.product_services import agent_builder, running

TOOL_SECRET = "tvly-tool-secret-0123456789"
ENV_SECRET = "env-secret-value-0123456789"


def _add_secrets(client: TestClient, fake_provider: FakeUpstream) -> None:
    provider = client.post(
        "/console/api/model-providers",
        json={"name": "P", "base_url": fake_provider.base_url, "api_key": PROVIDER_KEY},
    )
    assert provider.json()["status"] == "active", provider.text
    credential = {
        "tool": "web_search",
        "name": "Search",
        "secret": TOOL_SECRET,
        "base_url": "http://127.0.0.1:9",
    }
    assert client.post("/console/api/tool-credentials", json=credential).status_code == 201
    agent = client.post("/console/api/agents", json={"name": "Holder"}).json()
    variable = {"name": "API_TOKEN", "value": ENV_SECRET, "secret": True}
    assert client.post(f"/console/api/agents/{agent['id']}/env-vars", json=variable).status_code == 201


def _stored(db_path: Path) -> list[str]:
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute(
            "SELECT api_key FROM providers UNION ALL SELECT secret FROM tool_credentials "
            "UNION ALL SELECT value FROM agent_env_vars"
        )
        return [row[0] for row in rows]


def test_secrets_are_stored_encrypted_with_a_private_key_file(
    client: TestClient, fake_provider: FakeUpstream, db_path: Path
) -> None:
    _add_secrets(client, fake_provider)
    stored = _stored(db_path)
    assert len(stored) == 3 and all(value.startswith("fernet:") for value in stored)
    for file in db_path.parent.glob(f"{db_path.name}*"):  # the database, its WAL, the key file
        content = file.read_bytes()
        for secret in (PROVIDER_KEY, TOOL_SECRET, ENV_SECRET):
            assert secret.encode() not in content, file
    key_file = db_path.with_name(db_path.name + ".secret-key")
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    box = crypto.SecretBox([key_file.read_bytes()], "test")
    assert sorted(box.open(value) for value in stored) == sorted([PROVIDER_KEY, TOOL_SECRET, ENV_SECRET])


def test_the_configured_key_is_used_instead_of_a_file(
    make_client: Callable[..., TestClient], fake_provider: FakeUpstream, db_path: Path
) -> None:
    key = Fernet.generate_key().decode()
    client = make_client(secret_key=key)
    sign_in(client)
    _add_secrets(client, fake_provider)
    assert not db_path.with_name(db_path.name + ".secret-key").exists()
    assert {crypto.SecretBox([key.encode()], "test").open(value) for value in _stored(db_path)} == {
        PROVIDER_KEY,
        TOOL_SECRET,
        ENV_SECRET,
    }


def test_plaintext_rows_of_an_older_console_are_encrypted_at_start(
    make_client: Callable[..., TestClient], db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=crypto.__name__)
    old = Database(db_path)
    with old.write() as conn:
        conn.execute(
            "INSERT INTO providers (id, name, base_url, api_key, status, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (new_id(), "Old", "http://127.0.0.1:9/v1", PROVIDER_KEY, "invalid", utc_now()),
        )
    old.close()
    client = make_client()
    sign_in(client)
    assert _stored(db_path)[0].startswith("fernet:")
    assert client.get("/console/api/model-providers").json()["data"][0]["api_key_masked"] == "…cdef"
    # The operator is told how many were encrypted, and only when there were some.
    sealed = [record.getMessage() for record in caplog.records if "kept in plain text" in record.getMessage()]
    assert sealed == ["encrypted 1 stored secrets that were kept in plain text"]
    caplog.clear()
    make_client()
    assert not [record for record in caplog.records if "kept in plain text" in record.getMessage()]


def test_a_key_that_does_not_fit_stops_the_console(
    make_client: Callable[..., TestClient], fake_provider: FakeUpstream, db_path: Path
) -> None:
    client = make_client()
    sign_in(client)
    _add_secrets(client, fake_provider)
    with pytest.raises(ConfigError, match="AGENT_BUILDER_SECRET_KEY") as error:
        make_client(secret_key=Fernet.generate_key().decode())
    assert PROVIDER_KEY not in str(error.value)


def test_rotation_re_encrypts_with_the_newest_key(
    make_client: Callable[..., TestClient],
    fake_provider: FakeUpstream,
    db_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    client = make_client(secret_key=old)
    sign_in(client)
    _add_secrets(client, fake_provider)
    client.app.state.db.close()  # the console is stopped for the rotation
    monkeypatch.setenv("AGENT_BUILDER_SECRET_KEY", f"{new},{old}")
    assert cli.main(["console", "rotate-secrets", "--db", str(db_path)]) == 0
    assert "re-encrypted 3 stored secrets" in capsys.readouterr().out
    rotated = make_client(secret_key=new)  # the old key can go now
    sign_in(rotated)
    assert rotated.get("/console/api/model-providers").json()["data"][0]["api_key_masked"] == "…cdef"
    with pytest.raises(ConfigError):
        make_client(secret_key=old)


def test_a_provider_that_quotes_the_key_back_is_shown_without_it(
    client: TestClient, fake_provider: FakeUpstream
) -> None:
    fake_provider.models_answer = Raw(
        b'{"error": {"message": "Incorrect API key provided: ' + PROVIDER_KEY.encode() + b". "
        b'Bearer sk-other-9876543210abcdef and token=0123456789abcdefABCDEF0123456789 are no good"}}',
        401,
    )
    provider = client.post(
        "/console/api/model-providers",
        json={"name": "P", "base_url": fake_provider.base_url, "api_key": PROVIDER_KEY},
    ).json()
    assert provider["status"] == "invalid"
    assert provider["error"] == "HTTP 401: the provider refused the API key."  # its status, never its words
    for secret in (PROVIDER_KEY, "sk-other-9876543210abcdef", "0123456789abcdefABCDEF0123456789"):
        assert secret not in provider["error"]
        assert secret not in client.get("/console/api/model-providers").text


def test_base_urls_are_shown_without_their_password_or_query_key(client: TestClient, db_path: Path) -> None:
    url = "http://admin:hunter2@127.0.0.1:9/v1?api-key=sekrit-query-key&region=eu"
    provider = client.post(
        "/console/api/model-providers", json={"name": "P", "base_url": url, "api_key": "sk-x"}
    )
    assert provider.json()["base_url"] == "http://admin:***@127.0.0.1:9/v1?api-key=***&region=eu"
    credential = {"tool": "web_search", "name": "S", "secret": TOOL_SECRET, "base_url": url}
    created = client.post("/console/api/tool-credentials", json=credential).json()
    assert created["base_url"] == "http://admin:***@127.0.0.1:9/v1?api-key=***&region=eu"
    for text in (
        client.get("/console/api/model-providers").text,
        client.get("/console/api/tool-credentials").text,
    ):
        assert "hunter2" not in text and "sekrit-query-key" not in text
    # Sending the masked URL back keeps the real one.
    patched = client.patch(
        f"/console/api/model-providers/{provider.json()['id']}",
        json={"base_url": provider.json()["base_url"]},
    )
    assert patched.json()["base_url"] == provider.json()["base_url"]
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT base_url FROM providers").fetchone()[0] == url


def test_scrub_keeps_random_runs_only_when_asked_and_masks_keys_either_way() -> None:
    run = "a1B2c3D4e5F6g7H8i9J0k1L2m3"  # a random token, or an id in a log line
    text = f"id {run}, Authorization: Bearer abc.def, key sk-proj-0123456789"
    assert scrub(text) == "id ***, Authorization: Bearer ***, key ***"
    assert scrub(text, random_runs=False) == f"id {run}, Authorization: Bearer ***, key ***"


def test_logs_never_show_url_credentials(tmp_path: Path, fake_upstream: FakeUpstream) -> None:
    fake_upstream.models_answer = Raw(b"", 404)
    listener = fake_upstream.url.removeprefix("http://")
    env = {"AGENT_BUILDER_ADMIN_EMAIL": "a@example.com", "AGENT_BUILDER_ADMIN_PASSWORD": "log-test-password"}
    command = agent_builder("console", "--port", "0", "--db", str(tmp_path / "c.db"))
    with (
        running(command, "AGENT_BUILDER_READY", tmp_path / "console.log", env=env) as console,
        httpx.Client(base_url=console.url, headers={"Origin": console.url}) as http,
    ):
        http.post("/console/api/login", json={"email": "a@example.com", "password": "log-test-password"})
        url = f"http://admin:hunter2@{listener}/v1?api-key=sekrit-query-key"
        created = http.post(
            "/console/api/model-providers", json={"name": "P", "base_url": url, "api_key": "sk-x"}
        )
        assert created.json()["error"].startswith("HTTP 404"), created.text
    log = console.log_path.read_text()
    assert f"HTTP Request: GET http://admin:***@{listener}/v1" in log  # httpx logged the request...
    assert "hunter2" not in log and "sekrit-query-key" not in log  # ...without its credentials


def test_a_bad_secret_key_setting_is_named_but_never_echoed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("AGENT_BUILDER_SECRET_KEY", "not-a-fernet-key-but-still-secret")
    with pytest.raises(ConfigError, match="AGENT_BUILDER_SECRET_KEY") as error:
        ConsoleConfig.load(db_path=tmp_path / "c.db")
    assert "not-a-fernet-key-but-still-secret" not in str(error.value)
