"""After its steps, a scenario is also failed by what it did wrong beyond them: an uncaught page
error, a model call that missed its cassette and no step reported, a recording it never used.
These are the checks `World.close` returns and `after_scenario` turns into a failure
(support/world.py, support/hooks.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from support.browser.loading import BUSY
from support.replay.scope import Miss, ScopeReport, Unconsumed
from support.world import scenario_checks

LOCATION = "features/a.feature:3"


def miss(call: int) -> Miss:
    return Miss(
        target="chat",
        call=call,
        key=f"agent#{call}",
        call_site="agent",
        reason="no recorded entry matches",
        request="user: hi",
        prompt="hi",
    )


@dataclass
class Replay:
    report: ScopeReport
    on_close: Callable[[], None] = lambda: None

    def close_scope(self) -> ScopeReport:
        self.on_close()
        return self.report


@dataclass
class NoPages:
    pages: tuple[Page, ...] = ()


@dataclass
class Settings:
    timeout_ms: int = 10_000


@dataclass
class World:
    """The part of the World these checks read."""

    replay: Replay | None = None
    replay_misses_shown: int = 0
    scenario_location: str = LOCATION
    page_errors: list[str] = field(default_factory=list)
    browser_context: BrowserContext | NoPages = field(default_factory=NoPages)
    settings: Settings = field(default_factory=Settings)


def report(**fields: object) -> ScopeReport:
    return ScopeReport(
        scenario="S", cassette="features/cassettes/a/s.json", mode="replay", calls={}, **fields
    )


def checks(world: World, *, steps_passed: bool = True) -> dict[str, str]:
    return dict(scenario_checks(world, steps_passed=steps_passed))  # type: ignore[arg-type]


APP = "http://app.test/"


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context()
    yield context
    context.close()


def streaming_page(context: BrowserContext, *, stops_after_ms: int | None) -> Page:
    """A page whose reply streams (is aria-busy) until `stops_after_ms`, or for good with None."""
    body = '<article aria-busy="true">…</article>'
    if stops_after_ms is not None:
        body += f"<script>setTimeout(() => document.querySelector('article').removeAttribute('aria-busy'), {stops_after_ms})</script>"
    page = context.new_page()
    page.route(APP, lambda route: route.fulfill(content_type="text/html", body=body))
    page.goto(APP)
    return page


def test_a_clean_scenario_has_nothing_to_answer_for() -> None:
    assert checks(World()) == {}
    assert checks(World(replay=Replay(report()))) == {}


def test_an_uncaught_page_error_fails_the_scenario_with_the_page_and_the_error() -> None:
    found = checks(World(page_errors=["http://127.0.0.1:1/agents: TypeError: boom"]))
    assert list(found) == ["page errors"]
    assert "uncaught page error: http://127.0.0.1:1/agents: TypeError: boom" in found["page errors"]


def test_only_misses_no_step_reported_fail_it_at_its_end() -> None:
    shown_by_a_step = checks(World(replay=Replay(report(misses=[miss(0)])), replay_misses_shown=1))
    assert shown_by_a_step == {}
    found = checks(World(replay=Replay(report(misses=[miss(0), miss(1)])), replay_misses_shown=1))
    assert list(found) == ["model calls"]
    assert "call #1" in found["model calls"] and "call #0" not in found["model calls"]


def test_a_recording_the_scenario_never_used_fails_it() -> None:
    unused = Unconsumed(index=2, key="agent#abc", call_site="agent", request="user: bye")
    found = checks(World(replay=Replay(report(unconsumed=[unused]))))
    assert list(found) == ["model recordings"]
    assert "UNUSED recording 2 [agent#abc]" in found["model recordings"]


def test_the_replay_scope_closes_only_once_a_streaming_reply_has_finished(context: BrowserContext) -> None:
    page = streaming_page(context, stops_after_ms=300)
    busy_at_close: list[bool] = []
    replay = Replay(report(), on_close=lambda: busy_at_close.append(page.locator(BUSY).count() > 0))
    assert checks(World(replay=replay, browser_context=context)) == {}
    assert busy_at_close == [False]


def test_a_page_still_streaming_after_the_timeout_fails_the_scenario(context: BrowserContext) -> None:
    streaming_page(context, stops_after_ms=None)
    world = World(replay=Replay(report()), browser_context=context, settings=Settings(timeout_ms=200))
    found = checks(world)
    assert list(found) == ["page busy"]
    assert f"still aria-busy 200 ms after the last step: {APP}" in found["page busy"]
    assert checks(world, steps_passed=False) == {}, "a failed step already explains the scenario"
