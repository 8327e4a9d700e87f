"""The lane's progress on the terminal: one line per finished scenario, as it happens."""

from __future__ import annotations

import sys
import threading

from support.reports import ScenarioResult


class ResultPrinter:
    """One line per finished scenario, with the error of a failed one, as it happens."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def result(self, result: ScenarioResult) -> None:
        attempt = f" (attempt {result.attempt})" if result.attempt > 1 else ""
        head = f"[{result.worker_id}] {result.status:<7} {result.location} {result.name}{attempt}"
        lines = [f"{head} ({result.duration_s:.1f}s)"]
        if result.failed and result.error:
            lines += [f"    {line}" for line in result.error.splitlines()]
        with self._lock:
            print("\n".join(lines), file=sys.stderr, flush=True)
