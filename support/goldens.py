"""Golden files under features/goldens/: `E2E_GOLDEN=refresh` is the only writer.

A missing golden fails with the command that creates it, rather than bootstrapping silently.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from pathlib import Path

from playwright.sync_api import Locator, expect

from support.settings import Settings

GOLDENS_DIR = Path(__file__).resolve().parents[1] / "features" / "goldens"
# Names a scenario creates (E2E-<run>-<worker>-<label>-<n>) differ every run; goldens match any.
_RUN_UNIQUE_NAME = re.compile(r"E2E-[a-z0-9]+-[a-z0-9]+-([a-z0-9-]+?)-\d+")


def _missing(path: Path) -> AssertionError:
    return AssertionError(
        f"golden {path.relative_to(GOLDENS_DIR.parent.parent)} does not exist. Create it with "
        f"`E2E_GOLDEN=refresh make post-merge ARGS=\"-n '<scenario name>'\"`, review it and commit it."
    )


def check_text(settings: Settings, name: str, actual: str) -> None:
    """Compare text (e.g. a JSON event sequence) with `features/goldens/<name>`."""
    path = GOLDENS_DIR / name
    if settings.golden == "refresh":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    if not path.exists():
        raise _missing(path)
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), str(path), "actual")
        )
        raise AssertionError(
            f"{name} differs from its golden (refresh with E2E_GOLDEN=refresh if intended):\n{diff}"
        )


def check_aria(settings: Settings, name: str, region: Locator) -> None:
    """Poll until `region`'s accessibility snapshot equals `features/goldens/<name>`."""
    path = GOLDENS_DIR / name
    if settings.golden == "refresh":
        snapshot = _RUN_UNIQUE_NAME.sub(
            lambda m: f"/E2E-[a-z0-9]+-[a-z0-9]+-{m.group(1)}-[0-9]+/", region.aria_snapshot()
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(snapshot + "\n", encoding="utf-8")
    elif not path.exists():
        raise _missing(path)
    expect(region).to_match_aria_snapshot(path.read_text(encoding="utf-8"))


def _payload_shape(value: object) -> object:
    """A payload's shape: keys and value types, not values (ids, usage numbers and text vary)."""
    if isinstance(value, dict):
        return {key: _payload_shape(item) for key, item in sorted(value.items())}
    if isinstance(value, list):
        return [_payload_shape(item) for item in value[:1]]
    return type(value).__name__


def event_sequence(events: Iterable[tuple[str, object]]) -> str:
    """(event name, JSON payload) pairs as golden text: names with payload shapes, consecutive
    repeats collapsed, since chunking is the provider's."""
    sequence: list[dict[str, object]] = []
    for name, data in events:
        entry = {"event": name, "data": _payload_shape(data)}
        if not sequence or sequence[-1] != entry:
            sequence.append(entry)
    return json.dumps(sequence, indent=2) + "\n"
