"""`make fuzz` (`python -m ci.fuzz`): the console's API against its own /openapi.json, checked by a
third-party fuzzer (Schemathesis, every check), so that the schema says what the server enforces
and the server answers what the schema says.

It starts an embedded console (support/stack) and the reference model, signs in, and prepares
what a fuzzer cannot make up: a published agent with an API key, so the service API and the web
app answer more than 401/404. Then `schemathesis run --checks all` with a fixed seed and a bounded
number of examples per operation; logout runs last, alone, with a session of its own (it revokes
the session it is called with). Any failed check fails the run, except those configured away in
ALLOWANCES below, each with its reason. Reports: `artifacts/fuzz/` (JUnit). Credentials reach
Schemathesis only through the environment, never a file.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from support.api.console import ConsoleClient, sign_in
from support.api.models import AgentConfig, AgentModelRef
from support.stack import Service, console_command, python_module_argv, start_service, wait_healthy

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "artifacts" / "fuzz"
SEED = 20261201
MAX_EXAMPLES = 20  # per operation and phase: about 2,000 requests, a few minutes on two cores
ADMIN_EMAIL, ADMIN_PASSWORD = "fuzz@example.com", "fuzz-admin-password"
LOGOUT = "logout"


@dataclass(frozen=True)
class Allowance:
    """A check that accepts more statuses on some operations, and why."""

    operations: tuple[str, ...]
    check: str
    statuses: tuple[str, ...]  # Schemathesis' default list for the check, plus what `reason` allows
    reason: str


# Nothing else is configured away.
ALLOWANCES = (
    Allowance(
        operations=("send_web_app_message", "send_chat_message", "send_preview_message"),
        check="not_a_server_error",
        statuses=("2xx", "3xx", "4xx", "503"),
        reason="No agent runtime runs beside the fuzzed console: chat answers 503 runtime_unavailable, "
        "as documented. Chat with a runtime is the post-merge lane's and tests/console's job.",
    ),
    Allowance(
        operations=("save_draft",),
        check="positive_data_acceptance",
        statuses=("2xx", "3xx", "401", "403", "404", "409", "429", "5xx", "422"),
        reason="Each tool may appear once in `tools` (422 otherwise, as documented). JSON Schema can "
        "say it (allOf/contains/maxContains per name), but the generated client then mistypes "
        "`tools`, and uniqueItems compares whole {name, enabled} items, which is not the rule.",
    ),
    Allowance(
        operations=("update_model_provider",),
        check="positive_data_acceptance",
        statuses=("2xx", "3xx", "401", "403", "404", "409", "429", "5xx", "422"),
        reason="A base_url on another host needs api_key again (422 naming api_key, as documented): "
        "the stored key is never sent to a host it was not saved for. JSON Schema cannot say "
        "'required when base_url names another host than the stored one'.",
    ),
    Allowance(
        operations=("update_env_var",),
        check="positive_data_acceptance",
        statuses=("2xx", "3xx", "401", "403", "404", "409", "429", "5xx", "422"),
        reason="Making a secret variable plain needs a new value (422 value_required naming `value`, "
        "as documented): the stored secret is never turned into plain text. JSON Schema cannot say "
        "'required when the stored variable is secret'.",
    ),
    Allowance(
        operations=("add_skill", "replace_skill"),
        check="positive_data_acceptance",
        statuses=("2xx", "3xx", "401", "403", "404", "409", "429", "5xx", "413", "415", "422"),
        reason="A skill is files of the listed types holding a SKILL.md with its front matter (415 "
        "unsupported_file_type, 422 for a missing or malformed SKILL.md, as documented): a multipart "
        "schema can say neither a file's type nor its content.",
    ),
    Allowance(
        operations=("import_env_file",),
        check="negative_data_rejection",
        statuses=("400", "401", "403", "404", "405", "406", "409", "415", "422", "428", "429", "5xx", "200"),
        reason="A multipart part is bytes: a 'number' sent as the file is a one-line text file, read "
        "and reported line by line as documented (skipped: no '='), not a type error.",
    ),
    Allowance(
        operations=("save_web_app_settings",),
        check="positive_data_acceptance",
        statuses=("2xx", "3xx", "401", "403", "404", "409", "429", "5xx", "422"),
        reason="The privacy policy link must be an http:// or https:// URL with a host (422 naming "
        "privacy_policy_url, as documented), or empty; a schema format cannot say 'a URL or nothing' "
        "in a way the generated client types.",
    ),
)


@dataclass(frozen=True)
class Target:
    url: str
    environment: dict[str, str]  # the credentials and ids the config file refers to


def _config(exclude_logout: bool) -> str:
    lines = [
        f"seed = {SEED}",
        "workers = 1",
        "[generation]",
        f"max-examples = {MAX_EXAMPLES}",
        "[auth.openapi.SessionBearer]",
        'bearer = "${FUZZ_SESSION_TOKEN}"',
        "[auth.openapi.AppApiKey]",
        'bearer = "${FUZZ_APP_API_KEY}"',
        "[parameters]",
        '"path.site_token" = "${FUZZ_SITE_TOKEN}"',
    ]
    for allowance in ALLOWANCES:
        ids = ", ".join(f'"{operation}"' for operation in allowance.operations)
        accepted = ", ".join(f'"{status}"' for status in allowance.statuses)
        lines += ["[[operations]]", f"include-operation-id = [{ids}]"]
        lines += [f"checks.{allowance.check}.expected-statuses = [{accepted}]"]
    if exclude_logout:
        lines += ["[[operations]]", f'include-operation-id = "{LOGOUT}"', "enabled = false"]
    return "\n".join(lines) + "\n"


def _schemathesis(target: Target, config: Path, workdir: Path, *arguments: str) -> int:
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(config),
        "run",
        f"{target.url}/openapi.json",
        "--checks",
        "all",
        "--report",
        "junit",
        "--report-dir",
        str(REPORTS),
        *arguments,
    ]
    # Run in the work folder: Schemathesis keeps a cache folder in its working directory.
    environment = {**os.environ, **target.environment}
    return subprocess.run(command, env=environment, cwd=workdir, check=False).returncode


def fuzz(target: Target, workdir: Path) -> int:
    main_config, logout_config = workdir / "schemathesis.toml", workdir / "logout.toml"
    main_config.write_text(_config(exclude_logout=True), encoding="utf-8")
    logout_config.write_text(_config(exclude_logout=False), encoding="utf-8")
    everything = _schemathesis(
        target, main_config, workdir, "--report-junit-path", str(REPORTS / "junit.xml")
    )
    # A fresh session for logout, which ends it on its first call (later calls: 401, documented).
    logout_target = Target(
        target.url,
        {**target.environment, "FUZZ_SESSION_TOKEN": sign_in(target.url, ADMIN_EMAIL, ADMIN_PASSWORD)},
    )
    logout = _schemathesis(
        logout_target,
        logout_config,
        workdir,
        "--include-operation-id",
        LOGOUT,
        "--report-junit-path",
        str(REPORTS / "junit-logout.xml"),
    )
    return everything or logout


@contextmanager
def fuzz_target(workdir: Path) -> Iterator[Target]:
    """A console with a published agent (on the reference model) and an API key."""
    with ExitStack() as stack:
        model = _start(
            stack, "reference-model", python_module_argv("support.replay.reference_model"), workdir
        )
        argv, env = console_command(workdir / "console.db", ADMIN_EMAIL, ADMIN_PASSWORD)
        console = _start(stack, "console", argv, workdir, env=env)
        wait_healthy(f"{console.url}/healthz")
        token = sign_in(console.url, ADMIN_EMAIL, ADMIN_PASSWORD)
        api = ConsoleClient(console.url, token)
        provider = api.create_provider("Reference model", model.url, "sk-fuzz-reference")
        chat_model = provider.models[0]
        api.set_model_active(provider.id, chat_model.id, True)
        agent = api.create_agent("Fuzzed agent")
        ref = AgentModelRef(provider_id=provider.id, name=chat_model.name)
        api.save_draft(agent.id, AgentConfig(instructions="Answer briefly.", model=ref))
        api.publish_agent(agent.id)
        access = api.get_agent(agent.id).access
        assert access.web_app_url is not None
        yield Target(
            console.url,
            {
                "FUZZ_SESSION_TOKEN": token,
                "FUZZ_APP_API_KEY": api.create_api_key(agent.id).secret,
                "FUZZ_SITE_TOKEN": access.web_app_url.rsplit("/", 1)[-1],
            },
        )


def _start(
    stack: ExitStack, name: str, argv: list[str], workdir: Path, env: dict[str, str] | None = None
) -> Service:
    prefix = "REFERENCE_MODEL_READY" if name == "reference-model" else "AGENT_BUILDER_READY"
    service = start_service(name, argv, ready_prefix=prefix, log_path=REPORTS / f"{name}.log", env=env)
    stack.callback(service.stop)
    return service


def main() -> int:
    REPORTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp, fuzz_target(Path(tmp)) as target:
        code = fuzz(target, Path(tmp))
    print(
        f"make fuzz: {'passed' if code == 0 else 'FAILED'} (seed {SEED}, {MAX_EXAMPLES} examples per operation)"
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
