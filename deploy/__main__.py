"""`python -m deploy up|down|status --dir DIR`: bring a deployment up (creating its folder the
first time), take it down, or say what runs. `up --json` prints its URLs as one JSON object."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from deploy.processes import DeployError, running_pid, start, stop, wait_ready
from deploy.recipe import DEFAULT_HOST, SERVICES, Deployment, create, load

DEFAULT_DIR = Path("artifacts/deployment")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deploy", description=__doc__)
    parser.add_argument("action", choices=("up", "down", "status"))
    parser.add_argument(
        "--dir", type=Path, default=DEFAULT_DIR, help=f"the deployment's folder (default {DEFAULT_DIR})"
    )
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"public host name of a new deployment (default {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SERVICE.VARIABLE=VALUE",
        help="a setting written into a new deployment's settings file, e.g. runtime.AGENT_BUILDER_RUNTIME_SHELL_TIMEOUT_S=3",
    )
    parser.add_argument("--json", action="store_true", help="print the URLs as JSON (up, status)")
    args = parser.parse_args(argv)
    deployment = load(args.dir)
    if args.action == "down":
        if deployment is not None:
            stopped = stop(deployment)
            print(f"stopped: {', '.join(stopped) or 'nothing was running'}", file=sys.stderr)
        return 0
    if args.action == "status":
        if deployment is None:
            print(f"no deployment in {args.dir}", file=sys.stderr)
            return 1
        states = {service: running_pid(deployment.pid_file(service)) for service in (*SERVICES, "caddy")}
        for service, pid in states.items():
            print(f"{service:9} {'running, pid ' + str(pid) if pid else 'stopped'}")
        return 0 if all(states.values()) else 1
    if shutil.which("caddy") is None:
        print(
            "caddy is not installed: run `make setup` (it installs Debian's caddy package)", file=sys.stderr
        )
        return 2
    if deployment is None:
        try:
            overrides = _overrides(args.set)
        except ValueError as error:
            print(error, file=sys.stderr)
            return 2
        deployment = create(args.dir, args.host, overrides)
    return _up(deployment, args.json)


def _up(deployment: Deployment, as_json: bool) -> int:
    try:
        for service in (*SERVICES, "caddy"):
            start(deployment, service)
            wait_ready(deployment, service)
        deployment.write_ca_bundle()
    except DeployError as error:
        print(f"{error}; taking the deployment down", file=sys.stderr)
        stop(deployment)
        return 1
    urls = deployment.urls()
    if as_json:
        print(json.dumps(urls))
    else:
        for name, url in urls.items():
            print(f"{name:20} {url}")
        print(
            f"\nResolve {deployment.host} to 127.0.0.1 (e.g. curl --resolve {deployment.host}:{deployment.ports.https}:127.0.0.1 "
            f"--cacert {deployment.ca_root} {deployment.public_url}/healthz).",
            file=sys.stderr,
        )
    return 0


def _overrides(assignments: list[str]) -> dict[str, dict[str, str]]:
    overrides: dict[str, dict[str, str]] = {}
    for assignment in assignments:
        target, equals, value = assignment.partition("=")
        service, dot, variable = target.partition(".")
        if not equals or not dot or service not in SERVICES or not variable.startswith("AGENT_BUILDER_"):
            raise ValueError(
                f"--set {assignment!r}: expected SERVICE.AGENT_BUILDER_VARIABLE=VALUE with SERVICE one of {', '.join(SERVICES)}"
            )
        overrides.setdefault(service, {})[variable] = value
    return overrides


if __name__ == "__main__":
    sys.exit(main())
