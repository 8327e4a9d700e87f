"""What a replay problem says in the terminal: the step that saw a miss fails with the cassette,
the call site, the normalized prompt, a compact diff and the command that re-records the scenario."""

from __future__ import annotations

from typing import cast

import openai
import pytest

from support.replay.explain import compact_diff, leftover_text, rerecord_command
from support.run.step_checks import ReplayMissError, raise_new_misses
from support.world import World

from .model_calls import FEATURE, StartReplay, ask, record

SCENARIO = "Capital (of a country)"
LOCATION = f"{FEATURE}:7"


class _World:
    """The two things the check reads from a World, and the counter it keeps."""

    def __init__(self, replay: object) -> None:
        self.replay = replay
        self.replay_misses_shown = 0
        self.scenario_location = LOCATION


def test_a_changed_prompt_fails_the_step_with_everything_needed_to_fix_it(start_replay: StartReplay) -> None:
    record(start_replay, SCENARIO, lambda r: ask(r.client("lead_agent"), "What is the capital of France?"))
    replay = start_replay()
    replay.control.open_scope(SCENARIO, FEATURE)
    world = cast(World, _World(replay.control))
    step_error = TimeoutError("Locator expected to have text 'Paris'\nCall log: waiting for ...")
    with pytest.raises(openai.NotFoundError):  # what the product sees, and turns into "404"
        ask(replay.client("lead_agent"), "What is the capital of Spain?")

    with pytest.raises(ReplayMissError) as raised:
        raise_new_misses(world, cause=step_error)

    text = str(raised.value)
    lines = text.splitlines()
    assert (
        lines[0].startswith("replay MISS: the chat call #0 matched no recording")
        and "[lead_agent#" in lines[0]
    )
    assert "  cassette:  " in text and text.count("agent/chat/capital-of-a-country.json") == 1
    assert "  call site: lead_agent" in lines
    assert lines[lines.index("  prompt (normalized):") + 1] == "      What is the capital of Spain?"
    assert "      -user: What is the capital of France?" in lines
    assert "      +user: What is the capital of Spain?" in lines
    assert not any(line.strip().startswith(("--- recorded", "+++ requested")) for line in lines)
    assert "      make record-cassettes ARGS='-n \"Capital \\(of a country\\)\"'" in lines
    assert "    Locator expected to have text 'Paris'" in lines  # the step's own error, after the cause
    assert raised.value.__cause__ is step_error
    raise_new_misses(world)  # reported once: the next step does not repeat it

    report = replay.control.close_scope()
    unused = leftover_text(report, LOCATION)
    assert unused is not None and "UNUSED recording 0" in unused and "capital of France" in unused
    assert rerecord_command(SCENARIO) in unused


def test_a_step_without_a_miss_passes_and_a_scenario_without_replay_is_not_asked() -> None:
    raise_new_misses(None)
    raise_new_misses(cast(World, _World(None)))


def test_the_command_falls_back_to_the_location_when_quotes_would_break() -> None:
    assert (
        rerecord_command('It\'s "quoted"', "features/a.feature:3")
        == "make record-cassettes ARGS='features/a.feature:3'"
    )
    assert rerecord_command("Answers 2.5 times") == "make record-cassettes ARGS='-n \"Answers 2.5 times\"'"


def test_a_long_diff_is_cut() -> None:
    diff = "--- a\n+++ b\n@@ -1 +1 @@\n" + "\n".join(f"-line {n}" for n in range(40))
    lines = compact_diff(diff)
    assert lines[0] == "@@ -1 +1 @@" and len(lines) == 25 and lines[-1].startswith("... (17 more diff lines")
