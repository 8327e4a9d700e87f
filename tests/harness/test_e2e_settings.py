"""Settings: every E2E_* variable validated up front, with the variable and the fix named."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from support.settings import Settings, SettingsError, load_settings
from support.settings.cli import main, settings_markdown, settings_table


def load(**environ: str) -> Settings:
    return load_settings(environ, env_file=None)


def problems(**environ: str) -> str:
    with pytest.raises(SettingsError) as caught:
        load(**environ)
    return str(caught.value)


def test_defaults_need_no_configuration() -> None:
    settings = load()
    assert settings.base_url is None
    assert settings.admin_email == "admin@example.com"
    assert settings.admin_password.get_secret_value() == "admin-password"
    assert settings.artifacts_dir == Path("artifacts")
    assert settings.worker_id == "w0"
    assert (settings.headed, settings.slow_mo_ms, settings.timeout_ms) == (False, 0, 10000)
    assert (settings.trace, settings.model_mode, settings.golden) == ("on-failure", "replay", "check")
    assert (settings.stable_model_name, settings.decision_model_name) == ("gpt-4o-mini", "gpt-4o")
    assert (settings.agent_backend_port, settings.shellctl_port, settings.seed_timeout_s) == (None, None, 180)
    assert (settings.workers, settings.cpu_throttle) == ("auto", 1.0)
    assert settings.agent_backend_url() is None and settings.shellctl_url() is None


def test_run_id_is_random_per_load_and_valid() -> None:
    first, second = load().run_id, load().run_id
    assert first != second
    assert len(first) == 8 and first.isalnum() and first.islower()


def test_values_are_typed() -> None:
    settings = load(
        E2E_BASE_URL="https://console.example.com/",
        E2E_HEADED="Yes",
        E2E_SLOW_MO_MS="250",
        E2E_TIMEOUT_MS="120000",
        E2E_TRACE="always",
        E2E_RUN_ID="ci42",
        E2E_WORKER_ID="w3",
    )
    assert settings.base_url == "https://console.example.com"  # no trailing slash to double up
    assert settings.headed is True
    assert (settings.slow_mo_ms, settings.timeout_ms) == (250, 120000)
    assert (settings.trace, settings.run_id, settings.worker_id) == ("always", "ci42", "w3")


@pytest.mark.parametrize(("word", "value"), [("1", True), ("TRUE", True), ("no", False), ("0", False)])
def test_booleans_accept_common_words(word: str, value: bool) -> None:
    assert load(E2E_HEADED=word).headed is value


def test_settings_are_frozen() -> None:
    settings = load()
    with pytest.raises(ValueError):
        settings.headed = True  # type: ignore[misc]


@pytest.mark.parametrize(
    ("variable", "value", "fix"),
    [
        ("E2E_BASE_URL", "console.example.com", "an http(s) URL"),
        ("E2E_BASE_URL", "ftp://console.example.com", "an http(s) URL"),
        ("E2E_ADMIN_EMAIL", "admin", "an email address"),
        ("E2E_RUN_ID", "Run-1", "`[a-z0-9]{1,12}`"),
        ("E2E_RUN_ID", "a" * 13, "`[a-z0-9]{1,12}`"),
        ("E2E_WORKER_ID", "worker-1", "`[a-z0-9]{1,8}`"),
        ("E2E_BROWSER_PATH", "/no/such/chromium", "an executable file"),
        ("E2E_BROWSER_WS_ENDPOINT", "http://grid:3000", "a ws(s) URL"),
        ("E2E_HEADED", "maybe", "1/0, true/false, yes/no"),
        ("E2E_HEADED", "on", "1/0, true/false, yes/no"),
        ("E2E_SLOW_MO_MS", "-1", "an integer >= 0"),
        ("E2E_SLOW_MO_MS", "fast", "an integer >= 0"),
        ("E2E_TIMEOUT_MS", "999", "an integer from 1000 to 120000"),
        ("E2E_TIMEOUT_MS", "120001", "an integer from 1000 to 120000"),
        ("E2E_TRACE", "sometimes", "`on-failure`, `always` or `off`"),
        ("E2E_START_AGENT_BACKEND", "sure", "1/0, true/false, yes/no"),
        ("E2E_AGENT_BACKEND_URL", "localhost:5050", "an http(s) URL"),
        ("AGENT_BACKEND_BASE_URL", "localhost:5050", "an http(s) URL"),
        ("E2E_AGENT_BACKEND_PORT", "0", "a port, 1 to 65535"),
        ("E2E_SHELLCTL_URL", "shellctl", "an http(s) URL"),
        ("E2E_SHELLCTL_PORT", "65536", "a port, 1 to 65535"),
        ("E2E_MODEL_MODE", "mock", "`replay`, `record` or `live`"),
        ("E2E_STABLE_MODEL_BASE_URL", "api.openai.com", "an http(s) URL"),
        ("E2E_GOLDEN", "update", "`check` or `refresh`"),
        ("E2E_SEED_TIMEOUT_S", "0", "seconds, an integer >= 1"),
    ],
)
def test_invalid_value_names_variable_value_and_fix(variable: str, value: str, fix: str) -> None:
    message = problems(**{variable: value})
    assert f"{variable}={value!r} is invalid" in message
    assert f"Fix: set it to {fix}" in message


def test_all_invalid_values_are_reported_at_once() -> None:
    message = problems(E2E_TIMEOUT_MS="1", E2E_TRACE="never")
    assert "E2E_TIMEOUT_MS" in message and "E2E_TRACE" in message


def test_browser_path_must_be_executable(tmp_path: Path) -> None:
    browser = tmp_path / "chromium"
    browser.write_text("#!/bin/sh\n")
    assert "not executable" in problems(E2E_BROWSER_PATH=str(browser))
    browser.chmod(browser.stat().st_mode | stat.S_IXUSR)
    assert load(E2E_BROWSER_PATH=str(browser)).browser_path == browser


def test_unknown_variable_suggests_the_closest_name() -> None:
    message = problems(E2E_HEADLES="1", E2E_TIMEOUT="5000")
    assert "E2E_HEADLES is not a known setting; did you mean E2E_HEADED?" in message
    assert "E2E_TIMEOUT is not a known setting; did you mean E2E_TIMEOUT_MS?" in message


def test_unknown_variable_without_close_match_points_to_the_list() -> None:
    assert "python -m support.settings --markdown" in problems(E2E_ZZZZZZZZZZ="1")


def test_other_variables_are_ignored_and_empty_means_unset() -> None:
    settings = load(PATH="/usr/bin", HOME="/root", E2E_BASE_URL="", E2E_TIMEOUT_MS="")
    assert settings.base_url is None and settings.timeout_ms == 10000


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        (
            {"E2E_BROWSER_WS_ENDPOINT": "ws://grid:3000", "E2E_HEADED": "1"},
            ("E2E_HEADED", "E2E_BROWSER_WS_ENDPOINT"),
        ),
        (
            {"E2E_START_AGENT_BACKEND": "1", "E2E_AGENT_BACKEND_URL": "http://runtime:5050"},
            ("E2E_START_AGENT_BACKEND", "E2E_AGENT_BACKEND_URL", "pick one"),
        ),
        (
            {"E2E_START_AGENT_BACKEND": "1", "AGENT_BACKEND_BASE_URL": "http://runtime:5050"},
            ("E2E_START_AGENT_BACKEND", "AGENT_BACKEND_BASE_URL", "pick one"),
        ),
        (
            {"E2E_START_AGENT_BACKEND": "1", "E2E_SHELLCTL_URL": "http://shellctl:5004"},
            ("E2E_START_AGENT_BACKEND", "E2E_SHELLCTL_URL", "pick one"),
        ),
        ({"E2E_MODEL_MODE": "record"}, ("E2E_STABLE_MODEL_BASE_URL", "E2E_STABLE_MODEL_API_KEY", "`replay`")),
        (
            {"E2E_MODEL_MODE": "live", "E2E_STABLE_MODEL_BASE_URL": "https://api.example.com"},
            ("missing: E2E_STABLE_MODEL_API_KEY", "needs no key"),
        ),
    ],
)
def test_conflicting_values_name_both_sides(environ: dict[str, str], named: tuple[str, ...]) -> None:
    message = problems(**environ)
    for text in named:
        assert text in message


def test_browser_path_conflicts_with_remote_browser(tmp_path: Path) -> None:
    browser = tmp_path / "chromium"
    browser.write_text("")
    browser.chmod(0o755)
    message = problems(E2E_BROWSER_PATH=str(browser), E2E_BROWSER_WS_ENDPOINT="wss://grid:3000")
    assert "E2E_BROWSER_WS_ENDPOINT and E2E_BROWSER_PATH" in message


def test_live_mode_with_provider_is_valid() -> None:
    settings = load(
        E2E_MODEL_MODE="live",
        E2E_STABLE_MODEL_BASE_URL="https://api.example.com/v1",
        E2E_STABLE_MODEL_API_KEY="k",
    )
    assert settings.model_mode == "live"


def test_runtime_urls_resolve_explicit_then_legacy_then_none() -> None:
    explicit = load(E2E_AGENT_BACKEND_URL="http://runtime:1/", AGENT_BACKEND_BASE_URL="http://legacy:2")
    assert explicit.agent_backend_url() == "http://runtime:1"
    assert load(AGENT_BACKEND_BASE_URL="http://legacy:2").agent_backend_url() == "http://legacy:2"
    assert load(E2E_SHELLCTL_URL="http://shell:3").shellctl_url() == "http://shell:3"
    # Started services reach behave as explicit URLs (ci/post_merge.py); a pinned port alone names none.
    started = load(E2E_START_AGENT_BACKEND="1", E2E_AGENT_BACKEND_PORT="6000", E2E_SHELLCTL_PORT="6001")
    assert (started.agent_backend_url(), started.shellctl_url()) == (None, None)


@pytest.mark.parametrize(
    ("value", "count"), [("1", 1), ("3", 3), ("16", 16), ("auto", min((os.cpu_count() or 1) + 1, 4))]
)
def test_workers_are_a_count_or_auto_capped_at_four(value: str, count: int) -> None:
    assert load(E2E_WORKERS=value).worker_count() == count


@pytest.mark.parametrize("value", ["0", "17", "two", "-1"])
def test_a_bad_worker_count_names_the_variable(value: str) -> None:
    with pytest.raises(SettingsError, match=r"E2E_WORKERS=.* is invalid: expected `auto` or a whole number"):
        load(E2E_WORKERS=value)


def test_dotenv_fills_only_what_the_environment_does_not_set(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("E2E_TIMEOUT_MS=20000\nE2E_TRACE=always\nE2E_WORKER_ID=w9\n")
    before = dict(os.environ)
    settings = load_settings({"E2E_TRACE": "off"}, env_file=env_file)
    assert (settings.timeout_ms, settings.trace, settings.worker_id) == (20000, "off", "w9")
    assert dict(os.environ) == before


def test_an_empty_environment_value_unsets_a_dotenv_line(tmp_path: Path) -> None:
    # ci/post_merge.py relies on it: the lane's behave must not start the runtime a .env asks for.
    env_file = tmp_path / ".env"
    env_file.write_text("E2E_START_AGENT_BACKEND=1\nE2E_TIMEOUT_MS=\n")
    settings = load_settings({"E2E_START_AGENT_BACKEND": "", "E2E_AGENT_BACKEND_URL": "http://r:1"}, env_file)
    assert (settings.start_agent_backend, settings.timeout_ms) == (False, 10000)


def test_an_explicit_environ_never_reads_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("E2E_WORKER_ID", "w7")
    monkeypatch.setenv("E2E_TYPO_FROM_THE_SHELL", "1")
    assert load_settings({}, env_file=None).worker_id == "w0"


def test_dotenv_typos_are_errors_too(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("E2E_BASEURL=http://x\n")
    with pytest.raises(SettingsError, match="did you mean E2E_BASE_URL"):
        load_settings({}, env_file=env_file)


def test_missing_dotenv_is_fine(tmp_path: Path) -> None:
    assert load_settings({}, env_file=tmp_path / ".env").timeout_ms == 10000


def test_default_environ_is_the_process_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("E2E_WORKER_ID", "w7")
    assert load_settings(env_file=tmp_path / ".env").worker_id == "w7"


SECRET = "sk-live-abcdefghijklmnop"


def test_secrets_never_appear_in_repr_str_or_errors() -> None:
    settings = load(
        E2E_MODEL_MODE="record",
        E2E_STABLE_MODEL_BASE_URL="https://api.example.com",
        E2E_STABLE_MODEL_API_KEY=SECRET,
        E2E_ADMIN_PASSWORD="hunter2-password",
    )
    for text in (repr(settings), str(settings), settings.model_dump_json()):
        assert SECRET not in text and "hunter2-password" not in text
    assert settings.secret_values() == {SECRET, "hunter2-password"}
    message = problems(E2E_MODEL_MODE="live", E2E_STABLE_MODEL_API_KEY=SECRET)
    assert SECRET not in message


def test_invalid_secret_is_not_echoed() -> None:
    with pytest.raises(SettingsError) as caught:
        load(E2E_STABLE_MODEL_API_KEY=f"{SECRET}\n")
    error = caught.value
    assert "E2E_STABLE_MODEL_API_KEY=<secret> is invalid: has leading or trailing whitespace" in str(error)
    assert SECRET not in str(error)
    # pydantic's own error echoes the input: it must not be chained into tracebacks.
    assert error.__cause__ is None and error.__suppress_context__


def test_readme_table_is_generated_from_the_model() -> None:
    rows = {row[0]: row for row in settings_table()}
    assert set(rows) == {field.alias for field in Settings.model_fields.values()}
    assert rows["E2E_TIMEOUT_MS"][1] == "10000"
    assert rows["E2E_RUN_ID"][1].startswith("random")
    assert all(meaning for _, _, _, meaning in rows.values())
    markdown = settings_markdown()
    assert markdown.splitlines()[0] == "| Variable | Default | Values | Meaning |"
    assert "| `E2E_TRACE` | on-failure | `on-failure`, `always` or `off` |" in markdown


def test_cli_prints_markdown_and_validates(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert main(["--markdown"]) == 0
    assert "`E2E_BASE_URL`" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("E2E_TIMEOUT_MS", "1")
    assert main([]) == 2
    assert "E2E_TIMEOUT_MS" in capsys.readouterr().err
