"""Fixtures every test folder shares: the browser, the fake upstream, the chat stack.

One Chromium per test process, launched the way the suite launches it (support/browser/session.py: the
same executable lookup and flags). A second sync Playwright in the same process fails ("Sync API
inside the asyncio loop"), so every test that needs a browser takes this one.

One fake upstream server per test process (tests/fakes/upstream.py); each test that takes
`fake_upstream` gets a fresh script and record on it. A longer-lived fixture that registers it
with a console takes a `fresh()` one too, so nothing a test set (a key, models) refuses it.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser

from support.browser.session import BrowserSession
from support.settings import load_settings
from tests.chat_stack import ChatStack, start_chat_stack
from tests.fakes.upstream import FakeUpstream, UpstreamServer


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    session = BrowserSession.start(load_settings({}, env_file=None))
    try:
        yield session.browser
    finally:
        session.close()


@pytest.fixture(scope="session")
def upstream_server() -> Iterator[UpstreamServer]:
    with UpstreamServer() as server:
        yield server


@pytest.fixture
def fake_upstream(upstream_server: UpstreamServer) -> FakeUpstream:
    """The scripted OpenAI-compatible provider, with nothing scripted or seen yet."""
    return upstream_server.fresh()


@pytest.fixture(scope="module")
def chat_stack(
    tmp_path_factory: pytest.TempPathFactory, upstream_server: UpstreamServer
) -> Iterator[ChatStack]:
    """A console wired to the runtime, shellctl, the reference model and the fake upstream."""
    scripted = upstream_server.fresh()  # registered as it is now: no key or models a test left
    with start_chat_stack(tmp_path_factory.mktemp("chat-stack"), scripted.base_url) as stack:
        yield stack


@pytest.fixture
def public_client(chat_stack: ChatStack) -> Iterator[httpx.Client]:
    """A client of the chat stack's console without the admin's credentials: what a web app
    visitor (a browser on the web app's page: it names its origin) or a service API caller has."""
    headers = {"Origin": chat_stack.console_url}
    with httpx.Client(base_url=chat_stack.console_url, headers=headers, timeout=30) as client:
        yield client
