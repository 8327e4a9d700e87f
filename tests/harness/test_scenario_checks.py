"""After its steps, a scenario is also failed by what it did wrong beyond them: an uncaught page
error, a model call that missed its cassette and no step reported, a recording it never used.
These are the checks `after_scenario` turns into a failure (support/hooks.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from support.hooks import _page_and_replay_checks
from support.replay.scope import Miss, ScopeReport, Unconsumed

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

    def close_scope(self) -> ScopeReport:
        return self.report


@dataclass
class World:
    """The part of the World these checks read."""

    replay: Replay | None = None
    replay_misses_shown: int = 0
    scenario_location: str = LOCATION
    page_errors: list[str] = field(default_factory=list)


def report(**fields: object) -> ScopeReport:
    return ScopeReport(
        scenario="S", cassette="features/cassettes/a/s.json", mode="replay", calls={}, **fields
    )


def checks(world: World) -> dict[str, str]:
    return dict(_page_and_replay_checks(world))  # type: ignore[arg-type]


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
