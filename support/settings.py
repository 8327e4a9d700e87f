"""Every `E2E_*` variable in one typed, frozen model, validated before anything starts.

Values come from the environment, then from `.env` for variables the environment does not set.
An empty value counts as unset. Unknown `E2E_*` variables are an error (with a suggestion), so a
typo never silently does nothing. `python -m support.settings --markdown` prints the README
table from the field metadata below, so the docs cannot drift from the code.
"""

from __future__ import annotations

import argparse
import difflib
import os
import secrets
import string
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_args
from urllib.parse import urlsplit

from dotenv import dotenv_values
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    model_validator,
)
from pydantic.fields import FieldInfo

from support.naming import RUN_ID_PATTERN, WORKER_ID_PATTERN

ENV_PREFIX = "E2E_"
# The only non-prefixed variable read: the agent backend URL other tooling already exports.
LEGACY_AGENT_BACKEND_URL = "AGENT_BACKEND_BASE_URL"


class SettingsError(Exception):
    """Invalid, unknown or conflicting settings; each problem names the variable and the fix."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("Invalid E2E settings:\n" + "\n".join(f"  - {problem}" for problem in problems))


def _parse_bool(value: object) -> object:
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("1", "true", "yes"):
            return True
        if word in ("0", "false", "no"):
            return False
        raise ValueError("expected 1/0, true/false or yes/no")
    return value


def _url(*schemes: str) -> Callable[[str], str]:
    def check(value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in schemes or not parts.hostname:
            raise ValueError(
                f"expected a URL starting with {' or '.join(f'{scheme}://' for scheme in schemes)}"
            )
        # Callers append paths; a trailing slash would double up.
        return value.rstrip("/")

    return check


def _executable(path: Path) -> Path:
    if not path.is_file():
        raise ValueError("no such file")
    if not os.access(path, os.X_OK):
        raise ValueError("file is not executable")
    return path


def _trimmed(secret: SecretStr) -> SecretStr:
    value = secret.get_secret_value()
    if value != value.strip():
        raise ValueError("has leading or trailing whitespace (copied with a newline?)")
    return secret


def _new_run_id() -> str:
    return "".join(secrets.choice(string.ascii_lowercase + string.digits) for _ in range(8))


EnvBool = Annotated[bool, BeforeValidator(_parse_bool)]
HttpUrl = Annotated[str, AfterValidator(_url("http", "https"))]
WsUrl = Annotated[str, AfterValidator(_url("ws", "wss"))]
Port = Annotated[int, Field(ge=1, le=65535)]
NonEmpty = Annotated[str, Field(min_length=1)]
ApiKey = Annotated[SecretStr, AfterValidator(_trimmed)]


def _var(
    env: str,
    default: Any = None,
    *,
    meaning: str,
    accepts: str,
    default_factory: Callable[[], Any] | None = None,
    shown_default: str | None = None,
) -> Any:
    """A field read from variable `env`; `meaning`/`accepts` feed errors and the README table."""
    extra: dict[str, Any] = {"accepts": accepts}
    if shown_default is not None:
        extra["shown_default"] = shown_default
    if default_factory is not None:
        return Field(default_factory=default_factory, alias=env, description=meaning, json_schema_extra=extra)
    return Field(default, alias=env, description=meaning, json_schema_extra=extra)


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: HttpUrl | None = _var(
        "E2E_BASE_URL",
        meaning="Console under test; unset starts the embedded console on a free port",
        accepts="an http(s) URL",
        shown_default="unset (embedded console)",
    )
    admin_email: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+$")] = _var(
        "E2E_ADMIN_EMAIL",
        "admin@example.com",
        meaning="Admin account for sign-in and API setup",
        accepts="an email address",
    )
    admin_password: SecretStr = _var(
        "E2E_ADMIN_PASSWORD",
        SecretStr("admin-password"),
        meaning="Password of that admin account",
        accepts="any non-empty text",
        shown_default="admin-password",
    )
    artifacts_dir: Path = _var(
        "E2E_ARTIFACTS_DIR",
        Path("artifacts"),
        meaning="Reports, evidence, service logs and databases",
        accepts="a directory path",
    )
    run_id: Annotated[str, Field(pattern=f"^{RUN_ID_PATTERN.pattern}$")] = _var(
        "E2E_RUN_ID",
        default_factory=_new_run_id,
        meaning="Run id in every created name (`E2E-<run>-<worker>-...`), for leftover audits",
        accepts=f"`{RUN_ID_PATTERN.pattern}`",
        shown_default="random, 8 characters",
    )
    worker_id: Annotated[str, Field(pattern=f"^{WORKER_ID_PATTERN.pattern}$")] = _var(
        "E2E_WORKER_ID",
        "w0",
        meaning="Worker id in every created name, so parallel workers stay apart",
        accepts=f"`{WORKER_ID_PATTERN.pattern}`",
    )
    browser_path: Annotated[Path, AfterValidator(_executable)] | None = _var(
        "E2E_BROWSER_PATH",
        meaning="Chromium executable; unset uses a Playwright-managed or system Chromium",
        accepts="an executable file",
    )
    browser_ws_endpoint: WsUrl | None = _var(
        "E2E_BROWSER_WS_ENDPOINT",
        meaning="Remote Playwright server to connect to instead of launching a browser",
        accepts="a ws(s) URL",
    )
    headed: EnvBool = _var(
        "E2E_HEADED",
        False,
        meaning="Show the browser window (local debugging)",
        accepts="1/0, true/false, yes/no",
    )
    slow_mo_ms: Annotated[int, Field(ge=0)] = _var(
        "E2E_SLOW_MO_MS",
        0,
        meaning="Delay after each browser action (local debugging)",
        accepts="an integer >= 0",
    )
    timeout_ms: Annotated[int, Field(ge=1000, le=120000)] = _var(
        "E2E_TIMEOUT_MS",
        10000,
        meaning="Timeout of browser actions and web-first assertions",
        accepts="an integer from 1000 to 120000",
    )
    trace: Literal["on-failure", "always", "off"] = _var(
        "E2E_TRACE",
        "on-failure",
        meaning="When to keep a Playwright trace per scenario",
        accepts="`on-failure`, `always` or `off`",
    )
    start_agent_backend: EnvBool = _var(
        "E2E_START_AGENT_BACKEND",
        False,
        meaning="Start the agent runtime and shellctl locally",
        accepts="1/0, true/false, yes/no",
    )
    agent_backend_base_url: HttpUrl | None = _var(
        "E2E_AGENT_BACKEND_URL",
        meaning="Existing agent runtime backend to use",
        accepts="an http(s) URL",
    )
    legacy_agent_backend_url: HttpUrl | None = _var(
        LEGACY_AGENT_BACKEND_URL,
        meaning="Fallback for `E2E_AGENT_BACKEND_URL`",
        accepts="an http(s) URL",
    )
    agent_backend_port: Port = _var(
        "E2E_AGENT_BACKEND_PORT",
        5050,
        meaning="Port of the locally started agent runtime",
        accepts="a port, 1 to 65535",
    )
    shellctl_base_url: HttpUrl | None = _var(
        "E2E_SHELLCTL_URL",
        meaning="Existing shellctl sandbox to use",
        accepts="an http(s) URL",
    )
    shellctl_port: Port = _var(
        "E2E_SHELLCTL_PORT",
        5004,
        meaning="Port of the locally started shellctl",
        accepts="a port, 1 to 65535",
    )
    model_mode: Literal["replay", "record", "live"] = _var(
        "E2E_MODEL_MODE",
        "replay",
        meaning="`replay` serves recorded model calls keylessly; `record` and `live` call the real provider",
        accepts="`replay`, `record` or `live`",
    )
    replay_url: HttpUrl | None = _var(
        "E2E_REPLAY_URL",
        meaning="The lane's record/replay server; the seed points the model provider at `<url>/v1` and web "
        "search at `<url>/search` (`make post-merge` starts one)",
        accepts="an http(s) URL",
    )
    stable_model_base_url: HttpUrl | None = _var(
        "E2E_STABLE_MODEL_BASE_URL",
        meaning="OpenAI-compatible provider for `record`/`live`",
        accepts="an http(s) URL",
    )
    stable_model_api_key: ApiKey | None = _var(
        "E2E_STABLE_MODEL_API_KEY",
        meaning="Provider key for `record`/`live`; never written to any artifact",
        accepts="the provider's key",
    )
    stable_model_name: NonEmpty = _var(
        "E2E_STABLE_MODEL_NAME",
        "gpt-4o-mini",
        meaning="Stable chat model for general runtime behaviour",
        accepts="a model name",
    )
    decision_model_name: NonEmpty = _var(
        "E2E_DECISION_MODEL_NAME",
        "gpt-4o",
        meaning="Decision model, only for autonomous planning",
        accepts="a model name",
    )
    web_search_base_url: HttpUrl | None = _var(
        "E2E_WEB_SEARCH_BASE_URL",
        meaning="Web-search provider for `record`/`live` (the replay server forwards `/search` to it)",
        accepts="an http(s) URL",
    )
    web_search_api_key: ApiKey | None = _var(
        "E2E_WEB_SEARCH_API_KEY",
        meaning="Web-search provider key for `record`/`live`; the seeded tool credential, never in artifacts",
        accepts="the provider's key",
    )
    recorded_from: str | None = _var(
        "E2E_RECORDED_FROM",
        meaning="`recorded_from` label written into cassettes in `record` mode (default: the upstream's host)",
        accepts="a short label, e.g. `reference-model`",
    )
    golden: Literal["check", "refresh"] = _var(
        "E2E_GOLDEN",
        "check",
        meaning="Compare with golden files, or rewrite them",
        accepts="`check` or `refresh`",
    )
    seed_timeout_s: Annotated[int, Field(ge=1)] = _var(
        "E2E_SEED_TIMEOUT_S",
        180,
        meaning="Bound for each waiting seed task (e.g. knowledge indexing)",
        accepts="seconds, an integer >= 1",
    )

    @model_validator(mode="after")
    def _check_combinations(self) -> Settings:
        problems: list[str] = []
        if self.browser_ws_endpoint and self.browser_path:
            problems.append(
                "E2E_BROWSER_WS_ENDPOINT and E2E_BROWSER_PATH are both set, but a remote Playwright server "
                "brings its own browser. Fix: unset one of them."
            )
        if self.browser_ws_endpoint and self.headed:
            problems.append(
                "E2E_HEADED cannot show a remote browser (E2E_BROWSER_WS_ENDPOINT is set). "
                "Fix: unset E2E_HEADED or E2E_BROWSER_WS_ENDPOINT."
            )
        if self.start_agent_backend:
            for variable, url in (
                ("E2E_AGENT_BACKEND_URL", self.agent_backend_base_url),
                (LEGACY_AGENT_BACKEND_URL, self.legacy_agent_backend_url),
                ("E2E_SHELLCTL_URL", self.shellctl_base_url),
            ):
                if url:
                    problems.append(
                        f"E2E_START_AGENT_BACKEND and {variable} are both set: the suite either starts the "
                        f"runtime services or uses existing ones. Fix: pick one; unset {variable} to start "
                        "them locally, or unset E2E_START_AGENT_BACKEND to use the existing service."
                    )
        if self.model_mode != "replay":
            missing = [
                variable
                for variable, value in (
                    ("E2E_STABLE_MODEL_BASE_URL", self.stable_model_base_url),
                    ("E2E_STABLE_MODEL_API_KEY", self.stable_model_api_key),
                )
                if not value
            ]
            if missing:
                problems.append(
                    f"E2E_MODEL_MODE={self.model_mode} calls the real model provider, which needs "
                    f"E2E_STABLE_MODEL_BASE_URL and E2E_STABLE_MODEL_API_KEY (missing: {', '.join(missing)}). "
                    "Fix: set them, or unset E2E_MODEL_MODE to use the default `replay` mode, which needs no key."
                )
        if problems:
            raise SettingsError(problems)
        return self

    def agent_backend_url(self) -> str | None:
        """Explicit URL, else the locally started runtime, else None (no runtime available)."""
        explicit = self.agent_backend_base_url or self.legacy_agent_backend_url
        if explicit:
            return explicit
        return f"http://127.0.0.1:{self.agent_backend_port}" if self.start_agent_backend else None

    def shellctl_url(self) -> str | None:
        """Explicit URL, else the locally started shellctl, else None (not probed)."""
        if self.shellctl_base_url:
            return self.shellctl_base_url
        return f"http://127.0.0.1:{self.shellctl_port}" if self.start_agent_backend else None

    def secret_values(self) -> set[str]:
        """Every secret value, for report redaction."""
        candidates = (self.admin_password, self.stable_model_api_key, self.web_search_api_key)
        return {secret.get_secret_value() for secret in candidates if secret and secret.get_secret_value()}


def _fields_by_variable() -> dict[str, FieldInfo]:
    return {field.alias: field for field in Settings.model_fields.values() if field.alias}


def _is_secret(field: FieldInfo) -> bool:
    def mentions_secret(annotation: Any) -> bool:  # through `| None` and `Annotated[...]`
        return annotation is SecretStr or any(mentions_secret(arg) for arg in get_args(annotation))

    return mentions_secret(field.annotation)


def _extra(field: FieldInfo, key: str) -> str | None:
    extra = field.json_schema_extra
    value = extra.get(key) if isinstance(extra, dict) else None
    return None if value is None else str(value)


def _shown_default(field: FieldInfo) -> str:
    shown = _extra(field, "shown_default")
    if shown is not None:
        return shown
    default = field.get_default(call_default_factory=False)
    if default is None:
        return "unset"
    if isinstance(default, bool):
        return "1" if default else "0"
    return str(default)


def _field_problem(variable: str, value: str, message: str) -> str:
    field = _fields_by_variable()[variable]
    shown = "<secret>" if _is_secret(field) else repr(value)
    message = message.removeprefix("Value error, ")
    return (
        f"{variable}={shown} is invalid: {message}. Fix: set it to {_extra(field, 'accepts')}, "
        f"or unset it (default: {_shown_default(field)})."
    )


def _unknown_problem(variable: str, known: list[str]) -> str:
    close = difflib.get_close_matches(variable, known, n=1)
    hint = f"did you mean {close[0]}?" if close else "`python -m support.settings --markdown` lists them all."
    return f"{variable} is not a known setting; {hint} Fix: rename or unset it."


def load_settings(environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")) -> Settings:
    """Validate the settings from `environ` (default: `os.environ`) plus `env_file`; never mutates either."""
    environment = os.environ if environ is None else environ
    from_file = dotenv_values(env_file) if env_file is not None and env_file.is_file() else {}
    merged = {key: value for key, value in from_file.items() if value is not None}
    merged.update(environment)
    fields = _fields_by_variable()
    values = {
        key: value
        for key, value in merged.items()
        if (key.startswith(ENV_PREFIX) or key == LEGACY_AGENT_BACKEND_URL) and value != ""
    }
    unknown = sorted(key for key in values if key not in fields)
    if unknown:
        raise SettingsError([_unknown_problem(key, sorted(fields)) for key in unknown])
    try:
        return Settings.model_validate(values)
    except ValidationError as error:
        problems = [
            _field_problem(str(detail["loc"][0]), values[str(detail["loc"][0])], detail["msg"])
            for detail in error.errors(include_url=False)
        ]
        # `from None`: pydantic's own message echoes input values, secrets included.
        raise SettingsError(problems) from None


def settings_table() -> list[tuple[str, str, str, str]]:
    """README rows: (variable, default, accepted values, meaning), in declaration order."""
    return [
        (variable, _shown_default(field), _extra(field, "accepts") or "", field.description or "")
        for variable, field in _fields_by_variable().items()
    ]


def settings_markdown() -> str:
    lines = ["| Variable | Default | Values | Meaning |", "|---|---|---|---|"]
    lines += [
        f"| `{variable}` | {default} | {accepts} | {meaning} |"
        for variable, default, accepts, meaning in settings_table()
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m support.settings",
        description="Validate the E2E settings, or print their documentation.",
    )
    parser.add_argument("--markdown", action="store_true", help="print the README configuration table")
    args = parser.parse_args(argv)
    if args.markdown:
        print(settings_markdown())
        return 0
    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    print(repr(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
