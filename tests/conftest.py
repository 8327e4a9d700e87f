"""Fixtures every test folder shares.

One Chromium per test process, launched the way the suite launches it (support/browser.py: the
same executable lookup and flags). A second sync Playwright in the same process fails ("Sync API
inside the asyncio loop"), so every test that needs a browser takes this one.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from support.browser import BrowserSession
from support.settings import load_settings


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    session = BrowserSession.start(load_settings({}, env_file=None))
    try:
        yield session.browser
    finally:
        session.close()
