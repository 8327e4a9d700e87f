"""`make deployed` (`python -m ci.deployed [--shard I/N] [--repeat N] [behave args...]`): the PR and
post-merge scenarios against the product as it is deployed (docs/deploy.md).

1. select the deployed lane's scenarios (support/tags.py: all but @needs-test-hooks);
2. start the record/replay model server;
3. bring a deployment up with `python -m deploy up` in `<artifacts>/deployed/deployment/`: console,
   runtime and shellctl as separate processes with their own settings, behind Caddy terminating
   TLS at https://agents.e2e.test:<port>;
4. hand the lane only what any client of a deployment has: its URL, the admin credentials, the
   CA bundle, the host name's address (E2E_HOST_RESOLVER_RULES: no /etc/hosts, no system trust
   store), the runtime's and shellctl's probe URLs and the replay URL; run the strict seed;
5. run the lane on one worker: the replay server holds one scenario's cassette at a time;
6. take the deployment down (`python -m deploy down`): on success, failure, Ctrl-C and SIGTERM.

Exit codes as `ci.post_merge`: the lane's; 3 when the seed blocked; 4 when the deployment or the
replay server did not start; 130/143 when interrupted.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from pydantic import SecretStr

from ci.lifecycle import EXIT_SERVICE_FAILED, Interrupted, ignore_signals, interrupt_on_signals
from ci.stacks import replay_argv
from seed.runner import EXIT_BLOCKED, EXIT_USAGE, seed_and_print
from support.lanes.cli import parse_lane_args
from support.lanes.coordinator import run_pool
from support.lanes.finish import finish_without_run, fresh_lane_folder, lane_folder
from support.lanes.plan import LanePlan, plan_lane
from support.reports import LaneFailure
from support.settings import Settings, SettingsError, load_settings
from support.settings.network import use_network_settings
from support.stack import ServiceStartError, Stack, launch_service

LANE = "deployed"
SEED_PROFILE = "post-merge"
# Short, so the sandbox-timeout scenario is quick; its cassette records this value.
SANDBOX_TIMEOUT_S = 3


def _announce(message: str) -> None:
    print(f"[deployed] {message}", file=sys.stderr, flush=True)


def _deploy(action: str, folder: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "deploy", action, "--dir", str(folder), *extra]
    return subprocess.run(argv, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, check=False)


def deploy_up(folder: Path) -> dict[str, str]:
    shell_timeout = f"runtime.AGENT_BUILDER_RUNTIME_SHELL_TIMEOUT_S={SANDBOX_TIMEOUT_S}"
    done = _deploy("up", folder, "--json", "--set", shell_timeout)
    if done.returncode != 0:
        raise ServiceStartError(f"`python -m deploy up` failed (exit {done.returncode}); logs in {folder}/*/")
    urls: dict[str, str] = json.loads(done.stdout)
    return urls


def lane_settings(settings: Settings, urls: dict[str, str], replay_url: str) -> Settings:
    """The settings of a client of this deployment, and nothing of how it was started."""
    console = urls["console"]
    host = console.split("://", 1)[1].split(":", 1)[0]
    password = Path(urls["admin_password_file"]).read_text().strip()
    return settings.model_copy(
        update={
            "base_url": console,
            "admin_password": SecretStr(password),
            "ca_file": Path(urls["ca_bundle"]),
            "host_resolver_rules": f"MAP {host} 127.0.0.1",
            "replay_url": replay_url,
            "agent_backend_base_url": urls["runtime (internal)"],
            "shellctl_base_url": urls["shellctl (internal)"],
            "start_agent_backend": False,
        }
    )


def worker_env(client: Settings) -> dict[str, str]:
    assert client.ca_file is not None and client.host_resolver_rules is not None
    return {
        "E2E_BASE_URL": client.base_url or "",
        "E2E_ADMIN_EMAIL": client.admin_email,
        "E2E_ADMIN_PASSWORD": client.admin_password.get_secret_value(),
        "E2E_CA_FILE": str(client.ca_file),
        "E2E_HOST_RESOLVER_RULES": client.host_resolver_rules,
        "E2E_REPLAY_URL": client.replay_url or "",
        "E2E_AGENT_BACKEND_URL": client.agent_backend_base_url or "",
        "E2E_SHELLCTL_URL": client.shellctl_base_url or "",
        "E2E_START_AGENT_BACKEND": "",  # an empty value also overrides a .env entry
    }


def _start_seed_and_run(settings: Settings, plan: LanePlan, stack: Stack, deployment: Path) -> int:
    stages: dict[str, float] = {}
    started = time.monotonic()
    argv, env = replay_argv(settings)
    log = lane_folder(settings, LANE) / "services" / "replay.log"
    replay = stack.add(
        launch_service("replay", argv, ready_prefix="REPLAY_READY", log_path=log, env=env).wait()
    )
    stages["replay server"] = time.monotonic() - started
    started = time.monotonic()
    urls = deploy_up(deployment)
    stages["deploy up"] = time.monotonic() - started
    _announce(f"deployment up at {urls['console']} (logs in {deployment}/*/)")
    client = lane_settings(settings, urls, replay.url)
    use_network_settings(client)
    started = time.monotonic()
    seed = seed_and_print(
        client.model_copy(update={"artifacts_dir": lane_folder(settings, LANE)}), SEED_PROFILE
    )
    stages["seed"] = time.monotonic() - started
    if seed.blocked:
        failure = LaneFailure(
            "seed-blocked",
            "the strict seed blocked: "
            + "; ".join(f"{task.task} (owner {task.owner}): {task.detail}" for task in seed.blocked),
            "; ".join(task.remediation for task in seed.blocked if task.remediation),
        )
        finish_without_run(plan, client, [failure], workers=1, stage_durations=stages)
        return EXIT_BLOCKED
    return run_pool(plan, client, workers=1, worker_env=lambda _: worker_env(client), stage_durations=stages)


def main(argv: list[str]) -> int:
    try:
        settings = load_settings()
        args = parse_lane_args([LANE, *argv])
        plan = plan_lane(
            LANE,
            args.behave_args,
            shard=args.shard,
            repeat=args.repeat,
            order_seed=args.order_seed,
            stop=args.stop,
        )
    except (SettingsError, ValueError) as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    if settings.base_url is not None:
        print(
            "E2E_BASE_URL is set: run that deployment's lane with `make lane LANE=deployed`; "
            "`make deployed` brings up a deployment of its own.",
            file=sys.stderr,
        )
        return EXIT_USAGE
    fresh_lane_folder(settings, LANE)
    if not plan.assignments:
        return run_pool(plan, settings, workers=0)
    interrupt_on_signals()
    deployment = lane_folder(settings, LANE) / "deployment"
    stack = Stack()
    try:
        return _start_seed_and_run(settings, plan, stack, deployment)
    except ServiceStartError as error:
        _announce(str(error))
        failure = LaneFailure(
            "service-failed", str(error), "read the service's log named above; fix it, then rerun"
        )
        finish_without_run(plan, settings, [failure], workers=1, stage_durations={})
        return EXIT_SERVICE_FAILED
    except Interrupted as interrupted:
        _announce(f"interrupted by {interrupted}: tearing down")
        return 128 + interrupted.signum
    finally:
        ignore_signals()
        _deploy("down", deployment)
        stack.stop()
        _announce("deployment and replay server stopped")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
