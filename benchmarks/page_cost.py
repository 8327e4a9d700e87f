"""Print the CPU that one page open and one console request cost: where a PR lane's CPU goes.

    .venv/bin/python -m benchmarks.page_cost [--opens N] [--requests N]

An embedded console and the lanes' browser, all in a cgroup of their own. Two tables:
- the console's CPU per request (a static file, API reads, an HTML page), from its /proc stat;
- a fresh signed-in context opening a page until it has loaded, as each scenario's "I open ..."
  step does: the CPU of everything (browser, Playwright's driver, console, this process) and
  the console's part, for about:blank, the roster and the configure page.
Figures only: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import httpx

from benchmarks.lane_runs import CpuAccount
from support.api.console import ConsoleClient, sign_in
from support.browser.loading import wait_until_loaded
from support.browser.session import BrowserSession
from support.settings import Settings, load_settings
from support.stack import Service, console_command, die_with_parent, start_service

WARM_UP = 3


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--opens", type=int, default=20, help="page opens measured per page")
    parser.add_argument("--requests", type=int, default=300, help="requests measured per path")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)  # the child
    args = parser.parse_args()
    if args.measure:
        measure(args.opens, args.requests)
        return
    # The measuring child runs in the cgroup, so the browser's renderers count even once gone.
    with CpuAccount() as account:
        subprocess.run(
            die_with_parent(
                [
                    sys.executable,
                    "-m",
                    "benchmarks.page_cost",
                    "--measure",
                    f"--opens={args.opens}",
                    f"--requests={args.requests}",
                ]
            ),
            check=True,
            preexec_fn=account.join,
        )


def measure(opens: int, requests: int) -> None:
    settings = load_settings()
    with tempfile.TemporaryDirectory(prefix="page-cost-") as folder:
        password = settings.admin_password.get_secret_value()
        argv, env = console_command(Path(folder) / "console.db", settings.admin_email, password)
        console = start_service(
            "console",
            argv,
            ready_prefix="AGENT_BUILDER_READY",
            log_path=Path(folder) / "console.log",
            env=env,
        )
        try:
            client = ConsoleClient(console.url, sign_in(console.url, settings.admin_email, password))
            agent_id = str(client.create_agent("page-cost").id)
            _requests_table(console, client, agent_id, requests)
            _opens_table(console, client, settings, agent_id, opens)
        finally:
            console.stop()


def _requests_table(console: Service, client: ConsoleClient, agent_id: str, count: int) -> None:
    paths = [
        "/healthz",
        "/static/configure.js",
        "/console/api/models",
        f"/console/api/agents/{agent_id}",
        f"/agents/{agent_id}/configure",
    ]
    http = httpx.Client(base_url=console.url, headers={"Authorization": f"Bearer {client.token}"})
    print(f"console CPU per request ({count} requests each)")
    for path in paths:
        [cpu] = _per_call(partial(_get, http, path), count, [partial(_process_cpu_s, console)])
        print(f"  {cpu * 1000:6.2f} ms  GET {path.replace(agent_id, '<agent>')}")


def _opens_table(
    console: Service, client: ConsoleClient, settings: Settings, agent_id: str, count: int
) -> None:
    browser = BrowserSession.start(settings)
    state = client.storage_state()
    print(f"\nCPU per fresh context opening a page until loaded ({count} opens each)")
    try:
        for label, path in (
            ("about:blank", None),
            ("roster", "/agents"),
            ("configure", f"/agents/{agent_id}/configure"),
        ):
            url = None if path is None else console.url + path
            total, console_part = _per_call(
                partial(_open, browser, state, url), count, [_cgroup_cpu_s, partial(_process_cpu_s, console)]
            )
            print(f"  {total:5.3f} CPU-s  (console {console_part:5.3f})  {label}")
    finally:
        browser.close()


def _get(http: httpx.Client, path: str) -> None:
    http.get(path).raise_for_status()


def _open(browser: BrowserSession, state: dict[str, Any], url: str | None) -> None:
    """What a scenario's context costs: made, signed in, on one page until it has loaded, closed."""
    context = browser.new_context(state)
    page = context.new_page()
    if url is not None:
        page.goto(url)
        wait_until_loaded(page)
    context.close()


def _per_call(call: Callable[[], object], count: int, meters: list[Callable[[], float]]) -> list[float]:
    """Each meter's CPU seconds per call, after a few calls that warm caches up."""
    for _ in range(WARM_UP):
        call()
    before = [meter() for meter in meters]
    for _ in range(count):
        call()
    return [(meter() - start) / count for meter, start in zip(meters, before, strict=True)]


def _process_cpu_s(service: Service) -> float:
    fields = Path(f"/proc/{service.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cgroup_cpu_s() -> float:
    """This process's cgroup v2 (the one CpuAccount made): its CPU, and all its children's."""
    group = next(
        line[3:] for line in Path("/proc/self/cgroup").read_text().splitlines() if line.startswith("0::")
    )
    mount = next(
        line.split()[1]
        for line in Path("/proc/mounts").read_text().splitlines()
        if line.split()[2] == "cgroup2"
    )
    stat = dict(line.split() for line in (Path(mount + group) / "cpu.stat").read_text().splitlines())
    return int(stat["usage_usec"]) / 1e6


if __name__ == "__main__":
    main()
