"""What each scenario executes of the product, while `make impact-map` measures (E2E_IMPACT_DIR).

Python: the product's services measure their own coverage (ci/impact/site/sitecustomize.py); at
each scenario's start this names the scenario in `<dir>/context`, signals every measuring process
and waits for each to acknowledge, so the scenario's first request is already counted for it.
JavaScript: every page of the scenario runs with V8's precise (block) coverage through the
DevTools protocol; at the scenario's end the executed lines of each console script are written to
`<dir>/js/`. ci/impact/ turns both into the impact map.
"""

from __future__ import annotations

import json
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from playwright.sync_api import BrowserContext, CDPSession, Page

from support.settings.network import tls

STATIC_PREFIX = "/static/"
# Acknowledging is one file write in an idle process: seconds mean the process is wedged.
_ACK_DEADLINE_S = 10.0


class ImpactError(RuntimeError):
    """A measuring service did not switch to the scenario: its lines would be counted elsewhere."""


def scenario_id(feature_path: str, line: int) -> str:
    return f"{feature_path}:{line}"


def enter_scenario(folder: Path, scenario: str) -> None:
    """Every measuring service counts from now on for `scenario`."""
    (folder / "context").write_text(scenario, encoding="utf-8")
    waiting: list[int] = []
    for pid_file in sorted((folder / "pids").glob("*")) if (folder / "pids").is_dir() else []:
        pid = int(pid_file.name)
        (folder / "acks" / pid_file.name).unlink(missing_ok=True)
        if _signalled(pid):
            waiting.append(pid)
        else:  # a service that has stopped measures nothing more
            pid_file.unlink()
    deadline = time.monotonic() + _ACK_DEADLINE_S
    for pid in waiting:
        ack = folder / "acks" / str(pid)
        while not (ack.is_file() and ack.read_text(encoding="utf-8") == scenario):
            if time.monotonic() > deadline:
                raise ImpactError(f"measuring process {pid} did not switch to {scenario} within 10 s")
            time.sleep(0.002)  # polling a file another process writes; bounded by the deadline


def _signalled(pid: int) -> bool:
    """Asks a measuring process to switch; False if it ended, or is a zombie its parent has not
    waited for yet (it would never answer): a unit test's services come and go while it measures."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rpartition(")")[2].split()[0]
        if state in ("Z", "X"):
            return False
        os.kill(pid, signal.SIGUSR1)
    except (FileNotFoundError, ProcessLookupError):
        return False
    return True


@dataclass
class PageCoverage:
    """Precise coverage of the pages of one scenario's browser context.

    A document's coverage goes with it when its page navigates, and once the navigation's request
    has started the page answers no DevTools command until the next document commits. So every
    document stops in the debugger at `beforeunload`, which runs before that request, while its
    coverage is taken. It is also taken before every step (for a page a step closes) and at the end."""

    folder: Path
    scenario: str
    console_url: str
    sessions: list[CDPSession] = field(default_factory=list)
    lines: dict[str, set[int]] = field(default_factory=dict)  # console script -> lines run so far

    def watch(self, context: BrowserContext, first_page: Page) -> None:
        context.add_init_script("addEventListener('beforeunload', () => { debugger; });")
        self._start(context, first_page)
        context.on("page", lambda page: self._start(context, page))

    def _start(self, context: BrowserContext, page: Page) -> None:
        session = context.new_cdp_session(page)
        session.send("Profiler.enable")
        session.send("Profiler.startPreciseCoverage", {"callCount": True, "detailed": True})
        session.send("Debugger.enable")
        session.on("Debugger.paused", lambda _: self._collect_then_resume(session))
        self.sessions.append(session)

    def _collect_then_resume(self, session: CDPSession) -> None:
        try:
            self.collect()
        finally:
            session.send("Debugger.resume")

    def collect(self) -> None:
        """Adds the lines each open page's console scripts ran since the last time."""
        for session in self.sessions:
            try:
                scripts = session.send("Profiler.takePreciseCoverage")["result"]
            except Exception:  # noqa: BLE001 - a page the scenario closed took its coverage along
                scripts = []
            for script in scripts:
                path = urlsplit(script["url"]).path
                if path.startswith(STATIC_PREFIX) and script["url"].startswith(self.console_url):
                    source = _served_source(script["url"])
                    self.lines.setdefault(_static_name(path), set()).update(executed_lines(source, script))

    def save(self) -> None:
        """The executed lines of each console script, over the whole scenario."""
        self.collect()
        out = self.folder / "js"
        out.mkdir(exist_ok=True)
        target = out / f"{os.getpid()}-{time.monotonic_ns()}.json"
        target.write_text(
            json.dumps({"scenario": self.scenario, "lines": {k: sorted(v) for k, v in self.lines.items()}}),
            encoding="utf-8",
        )


_sources: dict[str, str] = {}


def _served_source(url: str) -> str:
    """The script as the console served it (imports renamed, lines as on disk)."""
    if url not in _sources:
        _sources[url] = httpx.get(url, verify=tls(), timeout=10.0).raise_for_status().text
    return _sources[url]


def _static_name(path: str) -> str:
    """`/static/configure.3f2a9c01b7d4.js` -> `configure.js` (the file under static/)."""
    stem, _, ext = path.removeprefix(STATIC_PREFIX).rpartition(".")
    base, dot, digest = stem.rpartition(".")
    return f"{base}.{ext}" if dot and len(digest) == 12 else f"{stem}.{ext}"


def executed_lines(source: str, script: dict[str, Any]) -> set[int]:
    """1-based lines with code that ran: the innermost block range covering a character decides."""
    counts = [0] * len(source)
    ranges = [r for function in script["functions"] for r in function["ranges"]]
    # Outer ranges first (earlier start, then longer): an inner block's count overrides its function's.
    for block in sorted(ranges, key=lambda r: (r["startOffset"], -r["endOffset"])):
        start, end = block["startOffset"], min(block["endOffset"], len(source))
        counts[start:end] = [block["count"]] * (end - start)
    executed: set[int] = set()
    line = 1
    for char, count in zip(source, counts, strict=True):
        if char == "\n":
            line += 1
        elif count > 0 and not char.isspace():
            executed.add(line)
    return executed
