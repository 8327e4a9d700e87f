"""The console's settings: `AGENT_BUILDER_*` variables, their defaults, and errors that name the
variable and the fix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agent_builder.console.config import ConsoleConfig
from agent_builder.settings import ConfigError

_VARIABLES = (
    "ADMIN_EMAIL",
    "ADMIN_PASSWORD",
    "PUBLIC_URL",
    "RUNTIME_URL",
    "RUNTIME_TOKEN",
    "SHELLCTL_URL",
    "ENABLE_TEST_SEED",
    "MAX_DOCUMENT_BYTES",
    "MAX_AGENT_FILE_BYTES",
    "SHELLCTL_TOKEN",
    "MAX_AUDIO_BYTES",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "TRUSTED_PROXIES",
    "MAX_RUNS_PER_VISITOR",
    "MAX_RUNS_PER_CLIENT",
    "MAX_RUNS_PER_AGENT",
    "MAX_HISTORY_CHARS",
)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _VARIABLES:
        monkeypatch.delenv(f"AGENT_BUILDER_{name}", raising=False)


def _defaults(db_path: Path) -> dict[str, object]:
    return {
        "db_path": db_path,
        "admin_email": "admin@example.com",
        "admin_password": "admin-password",
        "public_url": None,
        "runtime_url": None,
        "runtime_token": None,
        "shellctl_url": None,
        "shellctl_token": None,
        "enable_test_seed": False,
        "max_document_bytes": 1_048_576,
        "max_agent_file_bytes": 2_097_152,
        "max_agent_files": 20,
        "max_audio_bytes": 10_485_760,
        "secret_key": None,
        "allowed_hosts": ("localhost",),
        "trusted_proxies": (),
        "max_runs_per_visitor": 2,
        "max_runs_per_client": 10,
        "max_runs_per_agent": 20,
        "max_history_chars": 32_000,
    }


def test_defaults_without_variables(tmp_path: Path) -> None:
    assert ConsoleConfig.load(db_path=tmp_path / "c.db").model_dump() == _defaults(tmp_path / "c.db")


def test_empty_variables_count_as_unset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _VARIABLES:
        monkeypatch.setenv(f"AGENT_BUILDER_{name}", "")
    assert ConsoleConfig.load(db_path=tmp_path / "c.db").model_dump() == _defaults(tmp_path / "c.db")


def test_variables_are_read_and_normalized(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_BUILDER_ADMIN_EMAIL", "owner@example.com")
    monkeypatch.setenv("AGENT_BUILDER_ADMIN_PASSWORD", "a-long-random-password")
    monkeypatch.setenv("AGENT_BUILDER_PUBLIC_URL", "http://agents.internal:5001/")
    monkeypatch.setenv("AGENT_BUILDER_MAX_DOCUMENT_BYTES", "2048")
    monkeypatch.setenv("AGENT_BUILDER_ENABLE_TEST_SEED", "1")
    config = ConsoleConfig.load(db_path=tmp_path / "c.db")
    assert (config.admin_email, config.public_url, config.max_document_bytes, config.enable_test_seed) == (
        "owner@example.com",
        "http://agents.internal:5001",
        2048,
        True,
    )


def test_the_chat_limits_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = {"MAX_RUNS_PER_VISITOR": "1", "MAX_RUNS_PER_CLIENT": "4", "MAX_RUNS_PER_AGENT": "50"}
    for name, value in {**settings, "MAX_HISTORY_CHARS": "0"}.items():
        monkeypatch.setenv(f"AGENT_BUILDER_{name}", value)
    config = ConsoleConfig.load(db_path=tmp_path / "c.db")
    limits = (config.max_runs_per_visitor, config.max_runs_per_client, config.max_runs_per_agent)
    assert (limits, config.max_history_chars) == ((1, 4, 50), 0)


@pytest.mark.parametrize("value", ["true", "yes", "0"])
def test_only_1_enables_the_test_seed_router(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("AGENT_BUILDER_ENABLE_TEST_SEED", value)
    assert ConsoleConfig.load(db_path=tmp_path / "c.db").enable_test_seed is False


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("AGENT_BUILDER_RUNTIME_URL", "runtime:5050", "must be an http(s):// URL, got 'runtime:5050'"),
        ("AGENT_BUILDER_SHELLCTL_URL", "ftp://shellctl", "must be an http(s):// URL, got 'ftp://shellctl'"),
        ("AGENT_BUILDER_MAX_DOCUMENT_BYTES", "lots", "must be a positive integer, got 'lots'"),
        ("AGENT_BUILDER_MAX_AGENT_FILE_BYTES", "0", "must be a positive integer, got '0'"),
        # A limit of no runs at all would switch chat off: that is the access switches' job.
        ("AGENT_BUILDER_MAX_RUNS_PER_VISITOR", "0", "must be a positive integer, got '0'"),
        ("AGENT_BUILDER_MAX_RUNS_PER_CLIENT", "many", "must be a positive integer, got 'many'"),
        ("AGENT_BUILDER_MAX_RUNS_PER_AGENT", "-5", "must be a positive integer, got '-5'"),
        ("AGENT_BUILDER_MAX_HISTORY_CHARS", "-1", "must be an integer >= 0, got '-1'"),
        # `*` would let a client name its own address (the sign-in throttle's key) in X-Forwarded-For.
        (
            "AGENT_BUILDER_TRUSTED_PROXIES",
            "*",
            "must be proxy IP addresses or networks, comma-separated, got '*'",
        ),
    ],
)
def test_an_invalid_variable_is_named_with_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str, expected: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as error:
        ConsoleConfig.load(db_path=tmp_path / "c.db")
    assert str(error.value).startswith(f"{variable} {expected}. Fix: set {variable} to ")
    assert "or unset it (default: " in str(error.value)


def test_every_invalid_variable_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_URL", "nope")
    monkeypatch.setenv("AGENT_BUILDER_MAX_DOCUMENT_BYTES", "-1")
    with pytest.raises(ConfigError) as error:
        ConsoleConfig.load(db_path=tmp_path / "c.db")
    assert [line.split(" ", 1)[0] for line in str(error.value).splitlines()] == [
        "AGENT_BUILDER_RUNTIME_URL",
        "AGENT_BUILDER_MAX_DOCUMENT_BYTES",
    ]


@pytest.mark.parametrize("public_url", ["https://agents.example.com", "HTTPS://agents.example.com/"])
def test_the_default_admin_password_is_refused_behind_https(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, public_url: str
) -> None:
    """Issue 25, item 10: a console published over https accepted `admin-password`."""
    monkeypatch.setenv("AGENT_BUILDER_PUBLIC_URL", public_url)
    with pytest.raises(ConfigError) as error:
        ConsoleConfig.load(db_path=tmp_path / "c.db")
    message = str(error.value)
    assert message.startswith("AGENT_BUILDER_ADMIN_PASSWORD is the default 'admin-password' while")
    assert f"AGENT_BUILDER_PUBLIC_URL is {public_url.rstrip('/')}: anyone could sign in" in message
    assert "Fix: set AGENT_BUILDER_ADMIN_PASSWORD to a long random password" in message


@pytest.mark.parametrize(
    ("public_url", "password"),
    [(None, None), ("http://localhost:5001", None), ("https://agents.example.com", "a-long-random-password")],
)
def test_the_default_admin_password_is_fine_without_https(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, public_url: str | None, password: str | None
) -> None:
    for name, value in (("PUBLIC_URL", public_url), ("ADMIN_PASSWORD", password)):
        if value is not None:
            monkeypatch.setenv(f"AGENT_BUILDER_{name}", value)
    assert ConsoleConfig.load(db_path=tmp_path / "c.db").public_url == public_url


def test_a_console_with_the_default_password_behind_https_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_BUILDER_PUBLIC_URL", "https://agents.example.com")
    argv = [sys.executable, "-m", "agent_builder", "console", "--port", "0", "--db", str(tmp_path / "c.db")]
    finished = subprocess.run(argv, check=False, capture_output=True, text=True, timeout=60)
    assert finished.returncode == 2, finished.stderr
    assert "AGENT_BUILDER_ADMIN_PASSWORD is the default 'admin-password'" in finished.stderr
    assert "Fix: set AGENT_BUILDER_ADMIN_PASSWORD" in finished.stderr
    assert not (tmp_path / "c.db").exists()  # refused before anything was created


def test_the_test_seeding_router_is_refused_behind_https(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_BUILDER_PUBLIC_URL", "https://agents.example.com")
    monkeypatch.setenv("AGENT_BUILDER_ADMIN_PASSWORD", "a-long-random-password")
    monkeypatch.setenv("AGENT_BUILDER_ENABLE_TEST_SEED", "1")
    with pytest.raises(ConfigError) as error:
        ConsoleConfig.load(db_path=tmp_path / "c.db")
    assert str(error.value).startswith("AGENT_BUILDER_ENABLE_TEST_SEED=1 while AGENT_BUILDER_PUBLIC_URL is")
    assert "Fix: unset AGENT_BUILDER_ENABLE_TEST_SEED." in str(error.value)
    monkeypatch.setenv("AGENT_BUILDER_PUBLIC_URL", "http://localhost:5001")
    assert ConsoleConfig.load(db_path=tmp_path / "c.db").enable_test_seed  # the suite's own consoles
