"""A small client for the replay server's control API, for the suite's hooks and steps.

Typical use from hooks and steps:

```python
control = ReplayControl(url)
control.open_scope(scenario.name, scenario.feature.filename)  # before_scenario
control.add_patch(FailPatch(status=500))  # "the model provider fails the next call with status 500"
control.add_patch(HangPatch())  # "the model provider stalls the next call"
control.wait_until_parked()  # before clicking Stop
report = control.close_scope()  # after_scenario
if not report.ok:
    raise AssertionError(report.problems_text())
```
"""

from __future__ import annotations

from typing import Any, Self

import httpx

from support.api.polling import poll_until
from support.replay.scope import AnyPatch, ScopeReport
from support.settings.network import tls


class ReplayControlError(RuntimeError):
    """The control API refused a request; the message is the server's reason."""


class ReplayControl:
    def __init__(self, url: str, timeout: float = 10.0) -> None:
        self._http = httpx.Client(base_url=url.rstrip("/"), timeout=timeout, verify=tls())

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def open_scope(
        self,
        name: str,
        feature: str | None = None,
        *,
        cassette: str | None = None,
        pace_ms: int | None = None,
    ) -> dict[str, Any]:
        """Starts a scenario: loads its cassette (replay) or starts recording it (record)."""
        body = {"name": name, "feature": feature, "cassette": cassette, "pace_ms": pace_ms}
        opened: dict[str, Any] = self._call("POST", "/__replay/scenario", json=body)
        return opened

    def scope_so_far(self) -> ScopeReport:
        """The open scenario's report up to now (its misses so far); the scope stays open."""
        return ScopeReport.model_validate(self._call("GET", "/__replay/scenario"))

    def close_scope(self) -> ScopeReport:
        """Ends the scenario: misses, unconsumed recordings and unapplied patches (writes the cassette in record)."""
        return ScopeReport.model_validate(self._call("DELETE", "/__replay/scenario"))

    def add_patch(self, patch: AnyPatch) -> AnyPatch:
        """Registers a fault for one call of the open scenario; returns it with its call number resolved."""
        resolved = self._call("POST", "/__replay/patches", json=patch.model_dump(mode="json"))
        return type(patch).model_validate(resolved)

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self._call("GET", "/__replay/state")
        return state

    def wait_until_parked(self, timeout: float = 10.0, count: int = 1) -> list[dict[str, Any]]:
        """Returns once `count` hung calls are provably parked on the server (so acting now is safe)."""
        parked: list[dict[str, Any]] = poll_until(
            lambda: self.state()["parked"],
            lambda current: len(current) >= count,
            timeout_s=timeout,
            interval_s=0.02,
            failure=lambda current: f"{len(current)} of {count} hung model call(s) parked after {timeout}s",
        )
        return parked

    def _call(self, method: str, path: str, json: Any = None) -> Any:
        response = self._http.request(method, path, json=json)
        if response.is_error:
            try:
                message = response.json()["error"]["message"]
            except (ValueError, KeyError, TypeError):
                message = response.text
            raise ReplayControlError(f"{method} {path}: {response.status_code}: {message}")
        return response.json()
