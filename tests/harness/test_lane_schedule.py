"""Scheduling and sharding: longest first, deterministic, disjoint shards that together are the lane."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.lanes.cli import parse_lane_args
from support.lanes.plan import plan_lane
from support.lanes.schedule import Estimates, Shard, load_durations, recorded_durations
from support.lanes.selection import ScenarioRef, select_scenarios
from support.reports import LaneReport, RunInfo, ScenarioResult

REFS = [ScenarioRef("features/a.feature", line, f"S{line}") for line in range(1, 12)]
DURATIONS = {ref.key: float(line % 5 + 1) for line, ref in enumerate(REFS)}


def test_longest_first_with_ties_broken_by_location() -> None:
    ordered = Estimates(DURATIONS).longest_first(reversed(REFS))
    keys = [(-DURATIONS[ref.key], ref.location) for ref in ordered]
    assert keys == sorted(keys)


def test_unrecorded_scenarios_count_as_the_median_of_the_recorded_ones() -> None:
    estimates = Estimates({"f::a": 1.0, "f::b": 3.0, "f::c": 10.0})
    assert estimates.of(ScenarioRef("features/new.feature", 1, "new")) == 3.0
    assert Estimates({}).of(REFS[0]) > 0


@pytest.mark.parametrize("total", [1, 2, 3, 5])
def test_shards_are_disjoint_and_together_the_lane(total: int) -> None:
    estimates = Estimates(DURATIONS)
    shards = [estimates.shard(REFS, Shard(index, total)) for index in range(1, total + 1)]
    flat = [ref for shard in shards for ref in shard]
    assert sorted(flat) == sorted(REFS) and len(flat) == len(set(flat))
    # Same input, any order: same shards (another machine computes the same split).
    assert [estimates.shard(list(reversed(REFS)), Shard(i, total)) for i in range(1, total + 1)] == shards


def test_shards_are_balanced_by_duration() -> None:
    estimates = Estimates(DURATIONS)
    loads = [sum(estimates.of(ref) for ref in estimates.shard(REFS, Shard(i, 2))) for i in (1, 2)]
    assert abs(loads[0] - loads[1]) <= max(DURATIONS.values())


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0", ""])
def test_a_bad_shard_is_refused_with_the_expected_form(text: str) -> None:
    with pytest.raises(ValueError, match="expected I/N"):
        Shard.parse(text)


def test_lane_arguments_keep_behave_arguments_in_order() -> None:
    args = parse_lane_args(
        ["pr", "-n", "Publish", "--workers", "2", "--shard=1/2", "--repeat", "3", "f.feature:3"]
    )
    assert (args.lane, args.workers, args.shard, args.repeat) == ("pr", "2", Shard(1, 2), 3)
    assert args.behave_args == ("-n", "Publish", "f.feature:3")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "usage"),
        (["nope"], "usage"),
        (["pr", "--repeat", "0"], "--repeat"),
        (["pr", "--workers"], "needs a value"),
        (["pr", "--order", "shuffled"], "expected random or random:SEED"),
        (["pr", "--order", "random:x"], "expected random or random:SEED"),
    ],
)
def test_bad_lane_arguments_say_what_is_wrong(argv: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_lane_args(argv)


def test_the_pr_lane_selection_is_behaves_own() -> None:
    refs = select_scenarios(["--tags=@core"])
    assert refs and all(ref.feature_path.startswith("features/") for ref in refs)
    named = select_scenarios(["--tags=@core", "-n", "Instructions remain visible after refresh"])
    assert [ref.name for ref in named] == ["Instructions remain visible after refresh"]


def _result(name: str, status: str, duration: float, attempt: int = 1) -> ScenarioResult:
    return ScenarioResult("F", "features/a.feature", name, 1, (), status, duration, (), attempt=attempt)  # type: ignore[arg-type]


def test_recorded_durations_average_the_passed_runs_of_each_scenario(tmp_path: Path) -> None:
    run = RunInfo("pr", "r1", None, "2026-01-01T00:00:00+00:00", 1.0)
    report = LaneReport(
        run, [_result("A", "passed", 2.0), _result("A", "passed", 4.0, 2), _result("B", "failed", 9.0)]
    )
    durations = recorded_durations([report])
    assert durations == {"features/a.feature::A": 3.0}
    path = tmp_path / "durations.json"
    path.write_text(json.dumps(durations))
    assert load_durations(path) == durations
    assert load_durations(tmp_path / "missing.json") == {}


def test_a_random_order_is_seeded_and_the_same_seed_gives_the_same_order() -> None:
    assert parse_lane_args(["pr", "--order", "random:42"]).order_seed == 42
    assert parse_lane_args(["pr", "--order=random"]).order_seed is not None
    assert parse_lane_args(["pr"]).order_seed is None
    assert parse_lane_args(["pr", "--stop", "-n", "x"]).stop
    assert parse_lane_args(["pr", "--stop", "-n", "x"]).behave_args == ("-n", "x")  # ours, not behave's
    assert not parse_lane_args(["pr"]).stop
    longest = plan_lane("pr")
    first, again, other = (plan_lane("pr", order_seed=seed) for seed in (42, 42, 7))
    names = [[a.ref for a in plan.assignments] for plan in (longest, first, again, other)]
    assert names[1] == names[2] and names[1] != names[3] and names[1] != names[0]
    assert sorted(names[1]) == sorted(names[0])  # the same scenarios, in another order
    assert (longest.order, first.order) == ("longest-first", "random:42")
