"""Golden files under features/goldens/: `E2E_GOLDEN=refresh` is the only writer.

A missing golden fails with the command that creates it, rather than bootstrapping silently.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from pathlib import Path

from playwright.sync_api import Locator, expect

from support.goldens.aria_template import as_template
from support.goldens.looks import look_of, wait_for_look
from support.settings import Settings

GOLDENS_DIR = Path(__file__).resolve().parents[2] / "features" / "goldens"


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


def check_region(settings: Settings, name: str, region: Locator) -> None:
    """Poll until `region` reads as `features/goldens/<name>.aria.yml` (its accessibility
    snapshot, a template in which the values of a run are patterns: aria_template.py), then until
    it looks as `<name>.look.txt` (its computed styles: looks.py)."""
    aria, look = GOLDENS_DIR / f"{name}.aria.yml", GOLDENS_DIR / f"{name}.look.txt"
    if settings.golden == "refresh":
        aria.parent.mkdir(parents=True, exist_ok=True)
        aria.write_text(as_template(region.aria_snapshot()), encoding="utf-8")
    for path in (aria, look):
        if settings.golden != "refresh" and not path.exists():
            raise _missing(path)
    expect(region).to_match_aria_snapshot(aria.read_text(encoding="utf-8"))
    if settings.golden == "refresh":
        region.page.mouse.move(0, 0)
        look.write_text(look_of(region), encoding="utf-8")
    wait_for_look(region, look.read_text(encoding="utf-8"), settings.timeout_ms)


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
