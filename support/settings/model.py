"""The `Settings` model: every variable, its type, default and documentation, and the checks
that span several variables (each names the variables and the fix).

Reading the values (environment, `.env`) and turning pydantic's errors into ours is
`support.settings.loading`; this module only says what a valid configuration is.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, SecretStr, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, SettingsConfigDict

from support.naming import RUN_ID_PATTERN, WORKER_ID_PATTERN
from support.settings.fields import (
    MAX_AUTO_WORKERS,
    ApiKey,
    CaFile,
    EnvBool,
    HostRules,
    HttpUrl,
    NonEmpty,
    Port,
    Workers,
    WsUrl,
    executable,
    new_run_id,
    var,
)

ENV_PREFIX = "E2E_"
# The only non-prefixed variable read: the agent backend URL other tooling already exports.
LEGACY_AGENT_BACKEND_URL = "AGENT_BACKEND_BASE_URL"
DEFAULT_ENV_FILE = Path(".env")


class SettingsError(Exception):
    """Invalid, unknown or conflicting settings; each problem names the variable and the fix."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("Invalid E2E settings:\n" + "\n".join(f"  - {problem}" for problem in problems))


class Settings(BaseSettings):
    # Each field is read from its alias, case-sensitively; the environment wins over `.env`, and
    # an empty value counts as unset. `.env` lines for other variables are none of our business.
    model_config = SettingsConfigDict(
        frozen=True,
        extra="forbid",
        case_sensitive=True,
        env_file=DEFAULT_ENV_FILE,
        env_ignore_empty=True,
        dotenv_filtering="only_existing",
    )

    base_url: HttpUrl | None = var(
        "E2E_BASE_URL",
        meaning="Console under test; unset starts the embedded console on a free port",
        accepts="an http(s) URL",
        shown_default="unset (embedded console)",
    )
    admin_email: Annotated[str, Field(pattern=r"^[^@\s]+@[^@\s]+$")] = var(
        "E2E_ADMIN_EMAIL",
        "admin@example.com",
        meaning="Admin account for sign-in and API setup",
        accepts="an email address",
    )
    admin_password: SecretStr = var(
        "E2E_ADMIN_PASSWORD",
        SecretStr("admin-password"),
        meaning="Password of that admin account",
        accepts="any non-empty text",
        shown_default="admin-password",
    )
    artifacts_dir: Path = var(
        "E2E_ARTIFACTS_DIR",
        Path("artifacts"),
        meaning="Reports, evidence, service logs and databases",
        accepts="a directory path",
    )
    run_id: Annotated[str, Field(pattern=f"^{RUN_ID_PATTERN.pattern}$")] = var(
        "E2E_RUN_ID",
        default_factory=new_run_id,
        meaning="Run id in every created name (`E2E-<run>-<worker>-...`), for leftover audits",
        accepts=f"`{RUN_ID_PATTERN.pattern}`",
        shown_default="random, 8 characters",
    )
    worker_id: Annotated[str, Field(pattern=f"^{WORKER_ID_PATTERN.pattern}$")] = var(
        "E2E_WORKER_ID",
        "w0",
        meaning="Worker id in every created name, so parallel workers stay apart",
        accepts=f"`{WORKER_ID_PATTERN.pattern}`",
    )
    browser_path: Annotated[Path, AfterValidator(executable)] | None = var(
        "E2E_BROWSER_PATH",
        meaning="Chromium executable; unset uses chromium-headless-shell (headless), else a Playwright-managed or system Chromium",
        accepts="an executable file",
    )
    browser_ws_endpoint: WsUrl | None = var(
        "E2E_BROWSER_WS_ENDPOINT",
        meaning="Remote Playwright server to connect to instead of launching a browser",
        accepts="a ws(s) URL",
    )
    ca_file: CaFile | None = var(
        "E2E_CA_FILE",
        meaning="CA certificates the suite's HTTP calls trust besides the system's, and whose keys its browser pins: a deployment's root and the intermediate that signs its server certificate",
        accepts="a PEM certificate file",
    )
    host_resolver_rules: HostRules | None = var(
        "E2E_HOST_RESOLVER_RULES",
        meaning="Name resolution of the suite's HTTP calls and browser, e.g. `MAP agents.e2e.test 127.0.0.1`",
        accepts="`MAP <host> <IPv4>` rules, comma-separated",
    )
    headed: EnvBool = var(
        "E2E_HEADED",
        False,
        meaning="Show the browser window (local debugging)",
        accepts="1/0, true/false, yes/no",
    )
    slow_mo_ms: Annotated[int, Field(ge=0)] = var(
        "E2E_SLOW_MO_MS",
        0,
        meaning="Delay after each browser action (local debugging)",
        accepts="an integer >= 0",
    )
    timeout_ms: Annotated[int, Field(ge=1000, le=120000)] = var(
        "E2E_TIMEOUT_MS",
        10000,
        meaning="Timeout of browser actions and web-first assertions",
        accepts="an integer from 1000 to 120000",
    )
    trace: Literal["on-failure", "always", "off"] = var(
        "E2E_TRACE",
        "on-failure",
        meaning="When to keep a Playwright trace per scenario (`always` adds DOM snapshots)",
        accepts="`on-failure`, `always` or `off`",
    )
    start_agent_backend: EnvBool = var(
        "E2E_START_AGENT_BACKEND",
        False,
        meaning="Start the agent runtime and shellctl locally",
        accepts="1/0, true/false, yes/no",
    )
    agent_backend_base_url: HttpUrl | None = var(
        "E2E_AGENT_BACKEND_URL",
        meaning="Existing agent runtime backend to use",
        accepts="an http(s) URL",
    )
    legacy_agent_backend_url: HttpUrl | None = var(
        LEGACY_AGENT_BACKEND_URL,
        meaning="Fallback for `E2E_AGENT_BACKEND_URL`",
        accepts="an http(s) URL",
    )
    agent_backend_port: Port | None = var(
        "E2E_AGENT_BACKEND_PORT",
        meaning="Pins the port of the locally started agent runtime (one worker only)",
        accepts="a port, 1 to 65535",
        shown_default="unset (a free port)",
    )
    shellctl_base_url: HttpUrl | None = var(
        "E2E_SHELLCTL_URL",
        meaning="Existing shellctl sandbox to use",
        accepts="an http(s) URL",
    )
    shellctl_port: Port | None = var(
        "E2E_SHELLCTL_PORT",
        meaning="Pins the port of the locally started shellctl (one worker only)",
        accepts="a port, 1 to 65535",
        shown_default="unset (a free port)",
    )
    model_mode: Literal["replay", "record", "live"] = var(
        "E2E_MODEL_MODE",
        "replay",
        meaning="`replay` serves recorded model calls keylessly; `record` and `live` call the real provider",
        accepts="`replay`, `record` or `live`",
    )
    replay_url: HttpUrl | None = var(
        "E2E_REPLAY_URL",
        meaning="The lane's record/replay server; the seed points the model provider at `<url>/v1` and web "
        "search at `<url>/search` (`make post-merge` starts one)",
        accepts="an http(s) URL",
    )
    stable_model_base_url: HttpUrl | None = var(
        "E2E_STABLE_MODEL_BASE_URL",
        meaning="OpenAI-compatible provider for `record`/`live`",
        accepts="an http(s) URL",
    )
    stable_model_api_key: ApiKey | None = var(
        "E2E_STABLE_MODEL_API_KEY",
        meaning="Provider key for `record`/`live`; never written to any artifact",
        accepts="the provider's key",
    )
    stable_model_name: NonEmpty = var(
        "E2E_STABLE_MODEL_NAME",
        "gpt-4o-mini",
        meaning="Stable chat model for general runtime behaviour",
        accepts="a model name",
    )
    decision_model_name: NonEmpty = var(
        "E2E_DECISION_MODEL_NAME",
        "gpt-4o",
        meaning="Decision model: the console's build assistant, and autonomous planning",
        accepts="a model name",
    )
    speech_to_text_model_name: NonEmpty = var(
        "E2E_SPEECH_TO_TEXT_MODEL_NAME",
        "whisper-1",
        meaning="Speech-to-text model of voice input (the provider's `/audio/transcriptions`)",
        accepts="a model name",
    )
    web_search_base_url: HttpUrl | None = var(
        "E2E_WEB_SEARCH_BASE_URL",
        meaning="Web-search provider for `record`/`live` (the replay server forwards `/search` to it)",
        accepts="an http(s) URL",
    )
    web_search_api_key: ApiKey | None = var(
        "E2E_WEB_SEARCH_API_KEY",
        meaning="Web-search provider key for `record`/`live`; the seeded tool credential, never in artifacts",
        accepts="the provider's key",
    )
    recorded_from: str | None = var(
        "E2E_RECORDED_FROM",
        meaning="`recorded_from` label written into cassettes in `record` mode (default: the upstream's host)",
        accepts="a short label, e.g. `reference-model`",
    )
    workers: Workers = var(
        "E2E_WORKERS",
        "auto",
        meaning="Worker processes of a lane run (`python -m support.lanes`); `auto` is one more than the CPU count, at most 4",
        accepts="`auto` or an integer from 1 to 16",
    )
    cpu_throttle: Annotated[float, Field(ge=1, le=20)] = var(
        "E2E_CPU_THROTTLE",
        1.0,
        meaning="Slow every page's CPU down by this factor (Chromium DevTools), to flush out races",
        accepts="a number from 1 (off) to 20",
        shown_default="1",
    )
    impact_dir: Path | None = var(
        "E2E_IMPACT_DIR",
        meaning="Record what each scenario executes of the product into this folder (`make impact-map` sets it)",
        accepts="a folder path; unset (the default) measures nothing",
    )
    golden: Literal["check", "refresh"] = var(
        "E2E_GOLDEN",
        "check",
        meaning="Compare with golden files, or rewrite them",
        accepts="`check` or `refresh`",
    )
    seed_timeout_s: Annotated[int, Field(ge=1)] = var(
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
        """The runtime behave talks to (the orchestrator passes the one it started), else None."""
        return self.agent_backend_base_url or self.legacy_agent_backend_url

    def shellctl_url(self) -> str | None:
        """The shellctl behave probes (the orchestrator passes the one it started), else None."""
        return self.shellctl_base_url

    def worker_count(self) -> int:
        # One more than the cores: a worker keeps about 0.9 of a core busy (it waits on the console,
        # timers and the browser), so N workers leave cores idle (benchmarks/parallel.py).
        return min((os.cpu_count() or 1) + 1, MAX_AUTO_WORKERS) if self.workers == "auto" else self.workers

    def secret_values(self) -> set[str]:
        """Every secret value, for report redaction."""
        candidates = (self.admin_password, self.stable_model_api_key, self.web_search_api_key)
        return {secret.get_secret_value() for secret in candidates if secret and secret.get_secret_value()}


def fields_by_variable() -> dict[str, FieldInfo]:
    """Every field by the variable it is read from, in declaration order."""
    return {field.alias: field for field in Settings.model_fields.values() if field.alias}
