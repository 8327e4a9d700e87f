"""Which Chromium the suite launches: E2E_BROWSER_PATH, else headless runs take the headless shell
(less than half of full Chromium's CPU) unless they need media capture, else a Playwright-managed
or system Chromium."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from support.browser.session import find_chromium
from support.settings import load_settings


def _executable(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH holding only a system chromium and chromium-headless-shell."""
    _executable(tmp_path, "chromium")
    _executable(tmp_path, "chromium-headless-shell")
    monkeypatch.setenv("PATH", str(tmp_path))
    return tmp_path


# No Playwright-managed browser installed.
NO_MANAGED_BROWSER = cast(
    Any, SimpleNamespace(chromium=SimpleNamespace(executable_path="/nonexistent/chrome"))
)


def test_a_headless_run_takes_the_headless_shell(system: Path) -> None:
    settings = load_settings({}, env_file=None)
    assert find_chromium(settings, NO_MANAGED_BROWSER) == system / "chromium-headless-shell"


def test_a_headed_run_takes_full_chromium(system: Path) -> None:
    settings = load_settings({"E2E_HEADED": "1"}, env_file=None)
    assert find_chromium(settings, NO_MANAGED_BROWSER) == system / "chromium"


def test_the_microphone_browser_is_full_chromium(system: Path) -> None:
    # The headless shell has no media capture: getUserMedia fails with "Not supported".
    settings = load_settings({}, env_file=None)
    assert find_chromium(settings, NO_MANAGED_BROWSER, media=True) == system / "chromium"


def test_without_the_headless_shell_a_headless_run_takes_chromium(system: Path) -> None:
    (system / "chromium-headless-shell").unlink()
    assert find_chromium(load_settings({}, env_file=None), NO_MANAGED_BROWSER) == system / "chromium"


def test_e2e_browser_path_wins(system: Path, tmp_path: Path) -> None:
    chosen = _executable(tmp_path, "my-chrome")
    settings = load_settings({"E2E_BROWSER_PATH": str(chosen)}, env_file=None)
    assert find_chromium(settings, NO_MANAGED_BROWSER) == chosen
